#pragma once

#include "core/hudi/HudiConfigStatus.h"
#include "core/parameters/Diagnostic.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterLineAnalysis.h"
#include "core/parameters/ParameterTextForms.h"
#include "core/parameters/ParameterValidator.h"
#include "widgets/ParameterHighlighter.h"

#include <QList>
#include <QPlainTextEdit>
#include <QRectF>
#include <QString>

#include <optional>
#include <string>
#include <vector>

class QAction;
class QCompleter;
class QMenu;
class QTimer;

namespace jobdeck {

class LineNumberArea;
class ParameterCompletionModel;
class SecretValueMask;

// A Job's parameters, one per line. Everything it shows comes from the core: the classifier decides each
// line's colour and zone (job configuration / application path / application arguments, with a line drawn
// under the path), the validator the underlines, tooltips and quick fixes, the text forms how a paste is
// converted; core's analyseParameterLines computes all of it from the lines, the editor applies it.
// Re-checks run after each edit on a zero-delay timer (coalescing bursts), or at once with
// recheckNow().
class ParameterEditor final : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit ParameterEditor(QWidget* parent = nullptr);
    ~ParameterEditor() override;

    // Replaces the text (and the undo history) with `parameters`, one per line.
    void setParameters(const std::vector<std::string>& parameters);
    // The parameters of the lines that could be read (a malformed quoted line is left out and reported).
    const std::vector<std::string>& parameters() const { return m_analysis.parameters; }

    // What the service will check against: the project's settings, CREATE or ALTER and the stored list.
    void setValidationContext(const ValidationContext& context);
    const ValidationContext& validationContext() const { return m_context.validation; }
    // False while the project's settings are not read yet (or could not be): the findings that depend on
    // them (dependsOnProjectSettings) are held back and --hudi-conf pairs show no status, rather than
    // being judged against default settings. True unless set.
    void setProjectSettingsKnown(bool known);
    bool projectSettingsKnown() const { return m_context.settingsKnown; }

    void recheckNow();
    bool recheckPending() const;

    // The validator's findings, plus a line's text error and the last service refusal, with their lines.
    const std::vector<Diagnostic>& diagnostics() const { return m_analysis.diagnostics; }
    const std::vector<int>& diagnosticLines() const { return m_analysis.diagnosticLines; }
    const ClassifiedParameters& classified() const { return m_analysis.classified; }

    int lineOfToken(int tokenIndex) const;
    int tokenAtLine(int line) const;
    int applicationPathLine() const; // -1 when there is no path
    // Viewport y of the boundary drawn under the application path, -1 when there is no path.
    int boundaryLineY() const;
    // Status of the --hudi-conf pair on a line before the path (nullopt for any other line).
    std::optional<HudiConfigStatus> hudiStatusAtLine(int line) const;

    QString toolTipForLine(int line) const;
    std::vector<Fix> fixesAtLine(int line) const;
    // The fixes of diagnostics()[index], built on demand when the validator's budget left them out.
    std::vector<Fix> fixesForDiagnostic(int index) const;
    // Replaces the text with the fix's list as one undoable edit.
    void applyFix(const Fix& fix);
    void goToLine(int line);
    bool nextDiagnostic(); // F8: moves to the next line with a diagnostic, wrapping; false when none

    // Shows a service refusal on the parameter it concerns, as the service named it (the status's
    // parameterIndex, -1 for the whole list: a banner). Kept until the next edit. Returns the line, or -1.
    int setServiceRefusal(const QString& message, int parameterIndex);

    ParameterHighlighter* highlighter() const { return m_highlighter; }
    ParameterCompletionModel* completionModel() const { return m_completionModel; }
    QCompleter* completer() const { return m_completer; }
    void triggerCompletion(); // Ctrl+Space
    // Form of the last paste that was converted to one parameter per line (nullopt: none yet).
    std::optional<ParameterTextForm> lastConvertedPaste() const { return m_lastConvertedPaste; }

    QMenu* fixMenuForLine(int line, QWidget* parent); // nullptr when the line has no fixes
    void showFixMenuAt(const QPoint& gutterPos);

    // Where secret values are painted over (viewport coordinates): every secret value in view
    // (ParameterLineSpans::secretValues) but those of the line being edited, the cursor's while the editor
    // has the focus. The text stays as typed; Copy and Save use it.
    QList<QRectF> hiddenSecretRects() const;

    // For LineNumberArea.
    int lineNumberAreaWidth() const;
    void paintLineNumberArea(QPaintEvent* event);

signals:
    void analysisUpdated();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void insertFromMimeData(const QMimeData* source) override;

private:
    void markLinesEdited(int position, int added);
    int severityAtLine(int line) const;
    int bottomInView(int line) const; // viewport y of the line's bottom when it is in view, else -1 // the
                                      // gutter's mark: -1 none, else the most severe Severity
    void scheduleRecheck();
    // The completion marks hoodie.* keys with the project's settings once they are known.
    void updateCompletionSettings();
    void updateCompletion(bool force);
    void insertCompletion(const QString& completion);
    QString lineText(int line) const;
    void showFixMenu(int line, const QPoint& globalPos);
    // A menu entry applying `fix`; its tooltip says what the fix leads to when that is a refusal.
    QAction* fixAction(const Fix& fix, QObject* parent);

    ParameterLineContext m_context;
    // Each line as last read; kept while the line is not edited, so a keystroke reads only its own line.
    std::vector<ParameterLine> m_lines;
    ParameterLineAnalysis m_analysis; // kept between re-checks: its buffers are reused
    int m_paintedLineCount = -1;
    std::optional<ParameterTextForm> m_lastConvertedPaste;

    ParameterHighlighter* m_highlighter;
    LineNumberArea* m_lineNumberArea;
    ParameterCompletionModel* m_completionModel;
    QCompleter* m_completer;
    QTimer* m_recheckTimer;
    SecretValueMask* m_secretMask;
};

} // namespace jobdeck
