#pragma once

#include "core/parameters/Diagnostic.h"

#include <QWidget>

#include <functional>
#include <vector>

class QLabel;
class QToolButton;
class QTreeView;

namespace jobdeck {

class DiagnosticsModel;

// Lists every diagnostic of the parameter editor (severity, exact message, line). Activating a row asks to
// jump to its line; the Fix button applies the selected diagnostic's first fix (its menu offers all of them).
class DiagnosticsPanel final : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget* parent = nullptr);

    void setDiagnostics(const std::vector<Diagnostic>& diagnostics, const std::vector<int>& lines);
    // No findings, and `text` (what to do first) in place of the count.
    void showGuidance(const QString& text);
    // Where the Fix button's fixes come from when clicked; by default the diagnostic's own. The button is
    // enabled by the diagnostic's own fixes (a long list's later findings get theirs in the editor's menu).
    void setFixProvider(std::function<std::vector<Fix>(int row)> provider);
    std::vector<Fix> fixesOf(int row) const;
    DiagnosticsModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    QToolButton* fixButton() const { return m_fixButton; }
    void selectRow(int row);
    int selectedRow() const;
    QString summaryText() const;

signals:
    void lineActivated(int line);
    void fixRequested(const jobdeck::Fix& fix);

private:
    void updateFixButton();

    DiagnosticsModel* m_model;
    QTreeView* m_view;
    QLabel* m_summary;
    QToolButton* m_fixButton;
    std::function<std::vector<Fix>(int row)> m_fixProvider;
};

} // namespace jobdeck
