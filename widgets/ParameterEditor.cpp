#include "widgets/ParameterEditor.h"

#include "core/hudi/HudiCatalogue.h"
#include "core/hudi/HudiConfigExplanation.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/SparkSubmitOptions.h"
#include "models/DiagnosticsModel.h"
#include "models/ParameterCompletionModel.h"
#include "models/QtStrings.h"
#include "models/ThemeColors.h"
#include "widgets/LineNumberArea.h"
#include "widgets/ParameterHighlighter.h"
#include "widgets/SecretValueMask.h"

#include <QAbstractItemView>
#include <QAction>
#include <QCompleter>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QTimer>
#include <QToolTip>

#include <algorithm>

namespace jobdeck {

namespace {

QColor boundaryColor() {
    return ThemeColors::color(ThemeColor::ApplicationPath);
}

// "NOT_ALLOWED: stored on the Job but not applied: ...": the status's name, then core's meaning of it.
QString statusExplanation(HudiConfigStatus status) {
    return QStringLiteral("%1: %2.").arg(q(hudiConfigStatusName(status)), q(hudiConfigStatusMeaning(status)));
}

// An option of spark-submit's table that takes a value (--class, --conf, -c, --hudi-conf ...), written
// without one: its value goes on the next line.
bool takesItsValueOnTheNextLine(const QString& line) {
    if (line.contains(QLatin1Char('=')))
        return false;
    const SparkSubmitOption* option = SparkSubmitOptions::find(line.toStdString());
    return option && option->takesValue;
}

// Core's sentence for a --hudi-conf pair after the application path, for the flag's line or the pair's.
QString misplacedSentence(const ParameterLineAnalysis& a, int token) {
    auto at = static_cast<std::size_t>(token);
    if (a.classified.tokens[at].cls == TokenClass::MisplacedHudiConfFlag) {
        if (at + 1 >= a.classified.tokens.size() ||
            a.classified.tokens[at + 1].cls != TokenClass::MisplacedHudiConfPair)
            return q(misplacedHudiConfigMessage({})); // a trailing --hudi-conf with no pair
        ++at;
    }
    return q(misplacedHudiConfigMessage(rangeText(a.parameters[at], a.classified.tokens[at].keyRange)));
}

} // namespace

ParameterEditor::ParameterEditor(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_highlighter(new ParameterHighlighter(document()))
    , m_lineNumberArea(new LineNumberArea(this))
    , m_completionModel(new ParameterCompletionModel(this))
    , m_completer(new QCompleter(m_completionModel, this))
    , m_recheckTimer(new QTimer(this))
    , m_secretMask(new SecretValueMask(
          this,
          [this](int line) -> const std::vector<LineRange>* {
              // A line edited since the last check waits for it (a zero-delay timer): its ranges are its
              // old text's.
              const auto at = static_cast<std::size_t>(line);
              return at < m_analysis.spans.size() && at < m_lines.size() && m_lines[at].read
                         ? &m_analysis.spans[at].secretValues
                         : nullptr;
          },
          [this](int line) {
              const int pathLine = applicationPathLine();
              return pathLine >= 0 && line > pathLine ? ParameterHighlighter::argumentZoneColor()
                                                      : palette().color(QPalette::Base);
          })) {
    setObjectName(QStringLiteral("parameterEditor"));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    // A parameter never holds a tab: Tab and Shift+Tab move the focus, as in any form.
    setTabChangesFocus(true);
    setMouseTracking(true);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
    setPlaceholderText(
        tr("One parameter per line, e.g.\n--class\ncom.example.App\n--hudi-conf\n"
           "hoodie.datasource.hive_sync.database=analytics\ns3://bucket/app.jar\n\n"
           "Paste a JSON array, a statement's ( '...' ) list or a command line: it is converted."));

    m_recheckTimer->setSingleShot(true);
    m_recheckTimer->setInterval(0);
    connect(m_recheckTimer, &QTimer::timeout, this, &ParameterEditor::recheckNow);
    connect(document(), &QTextDocument::contentsChange, this,
            [this](int position, int, int added) { markLinesEdited(position, added); });
    connect(document(), &QTextDocument::contentsChanged, this, [this] {
        m_context.serviceRefusal.reset();
        scheduleRecheck();
    });

    m_completer->setWidget(this);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(
        Qt::MatchContains); // "write.operation" finds hoodie.datasource.write.operation
    m_completer->setCompletionRole(Qt::EditRole);
    m_completer->setMaxVisibleItems(12);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this,
            &ParameterEditor::insertCompletion);

    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(lineNumberAreaWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            m_lineNumberArea->scroll(0, dy);
        else
            m_lineNumberArea->update(0, rect.y(), m_lineNumberArea->width(), rect.height());
    });
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
    recheckNow();
}

ParameterEditor::~ParameterEditor() = default;

void ParameterEditor::setParameters(const std::vector<std::string>& parameters) {
    setPlainText(q(formatParameterText(parameters, ParameterTextForm::PerLine)));
    recheckNow();
}

void ParameterEditor::setValidationContext(const ValidationContext& context) {
    m_context.validation = context;
    updateCompletionSettings();
    recheckNow();
}

void ParameterEditor::setProjectSettingsKnown(bool known) {
    if (known == m_context.settingsKnown)
        return;
    m_context.settingsKnown = known;
    updateCompletionSettings();
    recheckNow();
}

void ParameterEditor::updateCompletionSettings() {
    m_completionModel->setProjectSettings(m_context.settingsKnown
                                              ? std::optional<ProjectSettings>(m_context.validation.settings)
                                              : std::nullopt);
}

bool ParameterEditor::recheckPending() const {
    return m_recheckTimer->isActive();
}

void ParameterEditor::scheduleRecheck() {
    if (!m_recheckTimer->isActive())
        m_recheckTimer->start();
}

void ParameterEditor::markLinesEdited(int position, int added) {
    // The blocks from the one holding `position` to the one holding its end are new; the rest are the
    // lines read before, shifted by the change in the line count.
    QTextDocument* doc = document();
    const int count = doc->blockCount();
    const int first = doc->findBlock(position).blockNumber();
    const int lastNew = doc->findBlock(std::min(position + added, doc->characterCount() - 1)).blockNumber();
    const int removed = lastNew - first + 1 - (count - int(m_lines.size()));
    if (first < 0 || lastNew < first || removed < 1 || first + removed > int(m_lines.size())) {
        m_lines.clear(); // not the lines read before: recheckNow() reads every line again
        return;
    }
    const auto at = m_lines.begin() + first;
    const int newLines = lastNew - first + 1;
    m_lines.insert(m_lines.erase(at, at + removed), static_cast<std::size_t>(newLines), ParameterLine{});
    m_highlighter->spliceLines(first, removed, newLines);
}

void ParameterEditor::recheckNow() {
    m_recheckTimer->stop();
    QTextDocument* doc = document();
    const int lineCount = doc->blockCount();
    const int previousPathLine = applicationPathLine();
    if (m_lines.size() != static_cast<std::size_t>(lineCount)) {
        m_lines.assign(static_cast<std::size_t>(lineCount), ParameterLine{});
        m_highlighter->spliceLines(0, lineCount, lineCount);
    }
    // Only the lines edited since the last re-check are read again.
    for (int line = 0; line < lineCount; ++line) {
        ParameterLine& info = m_lines[static_cast<std::size_t>(line)];
        if (!info.read) {
            const QString text = doc->findBlockByNumber(line).text();
            info = readParameterLine(text.toStdString(), int(text.size()));
        }
    }
    const std::vector<int> previousSeverity = std::move(m_analysis.lineSeverity);
    analyseParameterLines(m_lines, m_context, m_analysis);
    m_highlighter->setLines(m_analysis.spans);

    // The highlighter's re-highlighted lines repaint themselves; the zones, the boundary and the gutter's
    // marks only when they moved.
    const bool zonesMoved = applicationPathLine() != previousPathLine || lineCount != m_paintedLineCount;
    if (zonesMoved)
        viewport()->update();
    if (zonesMoved || m_analysis.lineSeverity != previousSeverity)
        m_lineNumberArea->update();
    m_paintedLineCount = lineCount;
    emit analysisUpdated();
}

int ParameterEditor::lineOfToken(int tokenIndex) const {
    return m_analysis.lineOfToken(tokenIndex);
}

int ParameterEditor::severityAtLine(int line) const {
    return line >= 0 && static_cast<std::size_t>(line) < m_analysis.lineSeverity.size()
               ? m_analysis.lineSeverity[static_cast<std::size_t>(line)]
               : -1;
}

int ParameterEditor::tokenAtLine(int line) const {
    return line >= 0 && static_cast<std::size_t>(line) < m_analysis.lineTokens.size()
               ? m_analysis.lineTokens[static_cast<std::size_t>(line)]
               : -1;
}

int ParameterEditor::applicationPathLine() const {
    return lineOfToken(m_analysis.classified.applicationPath);
}

int ParameterEditor::boundaryLineY() const {
    const int line = applicationPathLine();
    if (line < 0)
        return -1;
    const QTextBlock block = document()->findBlockByNumber(line);
    return int(blockBoundingGeometry(block).translated(contentOffset()).bottom());
}

int ParameterEditor::bottomInView(int line) const {
    // boundaryLineY() walks every line from the top of the view to `line`: painting must not, when the path
    // of a long Job is far out of view.
    QTextBlock b = firstVisibleBlock();
    if (line < 0 || line < b.blockNumber() - 1)
        return -1;
    qreal top = blockBoundingGeometry(b).translated(contentOffset()).top();
    if (line == b.blockNumber() - 1)
        return int(top);
    for (int number = b.blockNumber(); b.isValid() && top <= viewport()->height(); b = b.next(), ++number) {
        const qreal bottom = top + blockBoundingRect(b).height();
        if (number == line)
            return int(bottom);
        top = bottom;
    }
    return -1;
}

std::optional<HudiConfigStatus> ParameterEditor::hudiStatusAtLine(int line) const {
    const int token = tokenAtLine(line);
    if (token < 0 || !m_context.settingsKnown)
        return std::nullopt;
    const ClassifiedToken& t = m_analysis.classified.tokens[static_cast<std::size_t>(token)];
    if (t.cls != TokenClass::HudiConfPair || t.equalsPos < 0)
        return std::nullopt;
    return HudiConfigPolicy::statusOf(
        rangeText(m_analysis.parameters[static_cast<std::size_t>(token)], t.keyRange),
        m_context.validation.settings);
}

QString ParameterEditor::lineText(int line) const {
    return document()->findBlockByNumber(line).text();
}

QString ParameterEditor::toolTipForLine(int line) const {
    QStringList parts;
    for (std::size_t i = 0; i < m_analysis.diagnostics.size(); ++i)
        if (m_analysis.diagnosticLines[i] == line)
            parts << QStringLiteral("%1: %2").arg(
                QString::fromLatin1(severityName(m_analysis.diagnostics[i].severity)),
                q(m_analysis.diagnostics[i].message));
    const int token = tokenAtLine(line);
    if (token >= 0) {
        const ClassifiedToken& t = m_analysis.classified.tokens[static_cast<std::size_t>(token)];
        switch (t.cls) {
        case TokenClass::MisplacedHudiConfFlag:
        case TokenClass::MisplacedHudiConfPair:
            // Once: the pair's line lists it already when it is the hudi-conf.after-path warning.
            if (const QString sentence = misplacedSentence(m_analysis, token); !parts.contains(
                    QStringLiteral("%1: %2").arg(QLatin1String(severityName(Severity::Warning)), sentence)))
                parts << sentence;
            break;
        case TokenClass::ApplicationPath:
            parts << tr("Application path: the lines above are the job configuration, the lines below are "
                        "passed to the application untouched.");
            break;
        case TokenClass::ApplicationArgument:
            parts << tr("Application argument: passed to the application.");
            break;
        case TokenClass::HudiConfPair: {
            const std::string& p = m_analysis.parameters[static_cast<std::size_t>(token)];
            if (t.keyRange.first >= 0) {
                const std::string key(rangeText(p, t.keyRange));
                if (auto status = hudiStatusAtLine(line))
                    parts << tr("Hudi configuration %1 — %2").arg(q(key), statusExplanation(*status));
                else if (!m_context.settingsKnown)
                    parts << tr("Hudi configuration %1 — whether the project applies it shows once its "
                                "settings are read.")
                                 .arg(q(key));
                if (const HudiConfigEntry* e = HudiCatalogue::instance().find(key)) {
                    QString about = q(e->summary);
                    if (!e->defaultValue.empty())
                        about += tr(" (default: %1)").arg(q(e->defaultValue));
                    parts << about;
                }
            }
            break;
        }
        default:
            break;
        }
    }
    if (line >= 0 && std::size_t(line) < m_analysis.spans.size() &&
        !m_analysis.spans[std::size_t(line)].secretValues.empty())
        parts << tr(
            "Secret value: hidden (••••) unless the cursor is on this line; Save sends what was typed.");
    return parts.join(QLatin1Char('\n'));
}

std::vector<Fix> ParameterEditor::fixesAtLine(int line) const {
    std::vector<Fix> fixes;
    const int token = tokenAtLine(line);
    if (token < 0)
        return fixes;
    for (std::size_t i = 0; i < m_analysis.diagnostics.size(); ++i)
        if (m_analysis.diagnostics[i].tokenIndex == token && m_analysis.diagnosticLines[i] == line) {
            const std::vector<Fix> f = fixesForDiagnostic(int(i));
            fixes.insert(fixes.end(), f.begin(), f.end());
        }
    return fixes;
}

std::vector<Fix> ParameterEditor::fixesForDiagnostic(int index) const {
    if (index < 0 || static_cast<std::size_t>(index) >= m_analysis.diagnostics.size())
        return {};
    const Diagnostic& d = m_analysis.diagnostics[static_cast<std::size_t>(index)];
    if (!d.fixes.empty() || hasCode(d, DiagnosticCode::TextLine) ||
        hasCode(d, DiagnosticCode::ServiceRefusal) || m_analysis.hasTextErrors)
        return d.fixes;
    // A long list gets fixes for its first findings only (the validator's budget): ask for this one's.
    ValidationContext focused = m_context.validation;
    focused.fixesForToken = d.tokenIndex;
    std::vector<Diagnostic> found = validateParameters(m_analysis.parameters, focused);
    scrubSecretValues(m_analysis.parameters, found); // as the listed findings are
    for (const Diagnostic& again : found)
        if (again.code == d.code && again.tokenIndex == d.tokenIndex && again.message == d.message)
            return again.fixes;
    return {};
}

void ParameterEditor::applyFix(const Fix& fix) {
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.select(QTextCursor::Document);
    cursor.insertText(q(formatParameterText(fix.parameters, ParameterTextForm::PerLine)));
    cursor.endEditBlock();
    recheckNow();
}

void ParameterEditor::goToLine(int line) {
    const QTextBlock block = document()->findBlockByNumber(std::max(line, 0));
    if (!block.isValid())
        return;
    QTextCursor c(block);
    setTextCursor(c);
    centerCursor();
    setFocus();
}

bool ParameterEditor::nextDiagnostic() {
    std::vector<int> lines;
    for (int l : m_analysis.diagnosticLines)
        if (l >= 0)
            lines.push_back(l);
    if (lines.empty())
        return false;
    std::sort(lines.begin(), lines.end());
    const int current = textCursor().blockNumber();
    const auto next = std::upper_bound(lines.begin(), lines.end(), current);
    goToLine(next != lines.end() ? *next : lines.front());
    return true;
}

int ParameterEditor::setServiceRefusal(const QString& message, int parameterIndex) {
    recheckNow();
    const int count = static_cast<int>(m_analysis.parameters.size());
    const DiagnosticDescriptor& refusal = descriptorOf(DiagnosticCode::ServiceRefusal);
    m_context.serviceRefusal = Diagnostic{refusal.name,
                                          refusal.severity,
                                          message.toStdString(),
                                          parameterIndex < count ? parameterIndex : -1,
                                          {}};
    recheckNow();
    return lineOfToken(m_context.serviceRefusal ? m_context.serviceRefusal->tokenIndex : -1);
}

// --- painting ---

int ParameterEditor::lineNumberAreaWidth() const {
    int digits = 1;
    for (int max = std::max(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits + 8;
}

void ParameterEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_lineNumberArea->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
}

void ParameterEditor::paintEvent(QPaintEvent* event) {
    const int pathLine = applicationPathLine();
    const QPointF offset = contentOffset();
    const int width = viewport()->width();
    if (pathLine >= 0) {
        // The application arguments zone: a background across the whole width of each line after the path.
        QPainter painter(viewport());
        QTextBlock b = firstVisibleBlock();
        if (b.blockNumber() <= pathLine)
            b = document()->findBlockByNumber(pathLine + 1);
        for (; b.isValid(); b = b.next()) {
            const QRectF r = blockBoundingGeometry(b).translated(offset);
            if (r.top() > event->rect().bottom())
                break;
            if (r.bottom() >= event->rect().top())
                painter.fillRect(QRectF(0, r.top(), width, r.height()),
                                 ParameterHighlighter::argumentZoneColor());
        }
    }
    QPlainTextEdit::paintEvent(event);
    {
        QPainter painter(viewport());
        m_secretMask->paint(painter);
    }
    const int y = bottomInView(pathLine);
    if (y >= 0) {
        QPainter painter(viewport());
        painter.setPen(QPen(boundaryColor(), 2));
        painter.drawLine(0, y, width, y);
        painter.setPen(boundaryColor());
        QFont small = font();
        small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
        painter.setFont(small);
        const QString label = tr("▲ job configuration · application arguments ▼");
        const int labelWidth = QFontMetrics(small).horizontalAdvance(label);
        painter.drawText(QPoint(std::max(0, width - labelWidth - 6), y - 3), label);
    }
}

QList<QRectF> ParameterEditor::hiddenSecretRects() const {
    return m_secretMask->hiddenRects();
}

void ParameterEditor::paintLineNumberArea(QPaintEvent* event) {
    QPainter painter(m_lineNumberArea);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    const int pathLine = applicationPathLine();
    const int areaWidth = m_lineNumberArea->width();
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber();
    int top = int(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + int(blockBoundingRect(block).height());
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            // Zone strip: configuration, path, arguments.
            QColor zone = pathLine < 0 || number < pathLine
                              ? ThemeColors::color(ThemeColor::ConfigurationZone)
                          : number == pathLine ? boundaryColor()
                                               : ThemeColors::color(ThemeColor::ArgumentZone);
            painter.fillRect(QRect(areaWidth - 4, top, 4, bottom - top), zone);
            if (const int s = severityAtLine(number); s >= 0) {
                painter.setBrush(DiagnosticsModel::severityColor(Severity(s)));
                painter.setPen(Qt::NoPen);
                const int d = std::min(8, bottom - top - 4);
                painter.drawEllipse(QRect(3, top + (bottom - top - d) / 2, d, d));
            }
            painter.setPen(palette().color(QPalette::PlaceholderText));
            painter.drawText(QRect(0, top, areaWidth - 8, bottom - top), Qt::AlignRight | Qt::AlignVCenter,
                             QString::number(number + 1));
        }
        block = block.next();
        top = bottom;
        bottom = top + int(blockBoundingRect(block).height());
        ++number;
    }
}

// --- interaction ---

bool ParameterEditor::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int line = cursorForPosition(help->pos()).blockNumber();
        const QString tip = toolTipForLine(line);
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

void ParameterEditor::insertFromMimeData(const QMimeData* source) {
    if (!source->hasText()) {
        QPlainTextEdit::insertFromMimeData(source);
        return;
    }
    const std::string text = source->text().toStdString();
    const ParameterTextForm form = detectForm(text);
    const TextParameters read =
        form == ParameterTextForm::PerLine ? TextParameters{} : parseParameterText(text, form);
    if (form == ParameterTextForm::PerLine || !read.ok() || read.parameters.empty()) {
        QPlainTextEdit::insertFromMimeData(source);
        return;
    }
    QString converted = q(formatParameterText(read.parameters, ParameterTextForm::PerLine));
    QTextCursor cursor = textCursor();
    cursor.beginEditBlock();
    cursor.removeSelectedText();
    // The converted parameters go on lines of their own.
    if (!cursor.atBlockStart())
        converted.prepend(QLatin1Char('\n'));
    if (!cursor.atBlockEnd())
        converted.append(QLatin1Char('\n'));
    cursor.insertText(converted);
    cursor.endEditBlock();
    setTextCursor(cursor);
    m_lastConvertedPaste = form;
    recheckNow();
}

QMenu* ParameterEditor::fixMenuForLine(int line, QWidget* parent) {
    const std::vector<Fix> fixes = fixesAtLine(line);
    if (fixes.empty())
        return nullptr;
    auto* menu = new QMenu(tr("Fixes"), parent);
    menu->setObjectName(QStringLiteral("fixMenu"));
    menu->setToolTipsVisible(true);
    for (const Fix& fix : fixes)
        menu->addAction(fixAction(fix, menu));
    return menu;
}

QAction* ParameterEditor::fixAction(const Fix& fix, QObject* parent) {
    auto* action = new QAction(q(fix.title), parent);
    // A fix that trades its finding for a refusal says so: the service's text and what would help.
    if (!fix.leadsTo.empty()) {
        const QString leadsTo = tr("Applied, the parameters would be refused:\n%1").arg(q(fix.leadsTo));
        action->setToolTip(leadsTo);
        action->setStatusTip(leadsTo);
    }
    connect(action, &QAction::triggered, this, [this, fix] { applyFix(fix); });
    return action;
}

void ParameterEditor::showFixMenu(int line, const QPoint& globalPos) {
    QMenu* menu = fixMenuForLine(line, this);
    if (!menu)
        return;
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
    // Opened on its first fix, so Enter applies it (no first Down needed).
    menu->setActiveAction(menu->actions().value(0));
}

void ParameterEditor::showFixMenuAt(const QPoint& gutterPos) {
    const int line = cursorForPosition(QPoint(0, gutterPos.y())).blockNumber();
    showFixMenu(line, m_lineNumberArea->mapToGlobal(gutterPos));
}

void ParameterEditor::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = createStandardContextMenu(event->pos());
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const int line = cursorForPosition(viewport()->mapFrom(this, event->pos())).blockNumber();
    const std::vector<Fix> fixes = fixesAtLine(line);
    if (!fixes.empty()) {
        QAction* first = menu->actions().value(0);
        QAction* header = new QAction(tr("Quick fixes"), menu);
        header->setEnabled(false);
        menu->insertAction(first, header);
        menu->setToolTipsVisible(true);
        for (const Fix& fix : fixes)
            menu->insertAction(first, fixAction(fix, menu));
        menu->insertSeparator(first);
    }
    menu->popup(event->globalPos());
}

void ParameterEditor::keyPressEvent(QKeyEvent* event) {
    if (m_completer->popup()->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Escape:
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
            event->ignore();
            return; // the completer takes them
        default:
            break;
        }
    }
    const bool ctrl = event->modifiers().testFlag(Qt::ControlModifier);
    if (event->key() == Qt::Key_Tab || event->key() == Qt::Key_Backtab) {
        event->ignore(); // Ctrl+Tab too: no parameter holds a tab
        return;
    }
    if (ctrl && event->key() == Qt::Key_Space) {
        updateCompletion(true);
        return;
    }
    if ((ctrl && event->key() == Qt::Key_Period) ||
        (event->modifiers().testFlag(Qt::AltModifier) &&
         (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter))) {
        const QRect r = cursorRect();
        showFixMenu(textCursor().blockNumber(), viewport()->mapToGlobal(r.bottomLeft()));
        return;
    }
    if (event->key() == Qt::Key_F8) {
        nextDiagnostic();
        return;
    }
    // "--class com.acme.Etl" on one line would be a single unknown parameter: a space after an option that
    // takes a value starts the value's own line instead.
    if (event->key() == Qt::Key_Space && event->modifiers() == Qt::NoModifier) {
        const QTextCursor c = textCursor();
        const QString line = c.block().text();
        if (!c.hasSelection() && c.atBlockEnd() && takesItsValueOnTheNextLine(line.trimmed())) {
            textCursor().insertText(QStringLiteral("\n"));
            updateCompletion(true);
            return;
        }
    }
    QPlainTextEdit::keyPressEvent(event);
    if (!event->text().isEmpty() && !ctrl)
        updateCompletion(false);
}

void ParameterEditor::triggerCompletion() {
    updateCompletion(true);
}

void ParameterEditor::updateCompletion(bool force) {
    const QTextCursor c = textCursor();
    const QString prefix = c.block().text().left(c.positionInBlock()).trimmed();
    // The previous non-blank line decides what this line is the value of.
    QString previous;
    for (QTextBlock b = c.block().previous(); b.isValid(); b = b.previous())
        if (!b.text().trimmed().isEmpty()) {
            previous = b.text().trimmed();
            break;
        }
    using Mode = ParameterCompletionModel::Mode;
    Mode mode = Mode::None;
    QString key;
    // The option the previous line is on its own (no inline value), named as core's option table names it.
    const std::string previousOption =
        previous.contains(QLatin1Char('=')) ? std::string() : previous.toStdString();
    const std::string_view previousName = SparkSubmitOptions::nameOf(previousOption);
    if (previousName == SparkSubmitOptions::kHudiConf || previousOption == SparkSubmitOptions::kHoodieConf) {
        const auto eq = prefix.indexOf(QLatin1Char('='));
        if (eq < 0) {
            mode = Mode::HudiKeys;
        } else {
            key = prefix.left(eq);
            mode = Mode::EnumValues;
        }
    } else if (previousName == SparkSubmitOptions::kConf) {
        if (!prefix.contains(QLatin1Char('=')))
            mode = Mode::SparkKeys;
    } else if (prefix.startsWith(QLatin1Char('-'))) {
        mode = Mode::Options;
    }
    if (mode == Mode::None || (!force && prefix.size() < 2)) {
        m_completer->popup()->hide();
        return;
    }
    m_completionModel->setMode(mode, key);
    if (m_completionModel->rowCount() == 0) {
        m_completer->popup()->hide();
        return;
    }
    m_completer->setCompletionPrefix(prefix);
    if (m_completer->completionCount() == 0 ||
        (!force && m_completer->completionCount() == 1 && m_completer->currentCompletion() == prefix)) {
        m_completer->popup()->hide();
        return;
    }
    m_completer->popup()->setCurrentIndex(m_completer->completionModel()->index(0, 0));
    QRect r = cursorRect();
    r.setWidth(std::max(360, m_completer->popup()->sizeHintForColumn(0) +
                                 m_completer->popup()->verticalScrollBar()->sizeHint().width()));
    m_completer->complete(r);
}

void ParameterEditor::insertCompletion(const QString& completion) {
    QTextCursor c = textCursor();
    c.beginEditBlock();
    c.movePosition(QTextCursor::StartOfBlock);
    c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    c.insertText(completion);
    c.endEditBlock();
    setTextCursor(c);
}

} // namespace jobdeck
