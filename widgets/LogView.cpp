#include "widgets/LogView.h"

#include "client/LogTail.h"
#include "core/policy/RunOutcome.h"
#include "models/ThemeColors.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSyntaxHighlighter>
#include <QTextDocument>
#include <QVBoxLayout>

namespace jobdeck {

namespace {

// Marks the lines a reader looks for first: the run's outcome (bold, in its status colour) and error
// lines (the error colour); core decides which lines those are.
class LogHighlighter final : public QSyntaxHighlighter {
public:
    LogHighlighter(QTextDocument* document, QWidget* colours)
        : QSyntaxHighlighter(document)
        , m_colours(colours) {}

protected:
    void highlightBlock(const QString& text) override {
        const QByteArray line = text.toUtf8();
        const std::string_view view(line.constData(), static_cast<std::size_t>(line.size()));
        QTextCharFormat format;
        if (isRunOutcomeLine(view)) {
            const bool completed = text.contains(QLatin1String(" ended COMPLETED"));
            format.setFontWeight(QFont::Bold);
            format.setForeground(ThemeColors::color(
                completed ? ThemeColor::StatusCompleted : ThemeColor::ErrorText, m_colours->palette()));
        } else if (isErrorLogLine(view)) {
            format.setForeground(ThemeColors::color(ThemeColor::ErrorText, m_colours->palette()));
        } else {
            return;
        }
        setFormat(0, static_cast<int>(text.size()), format);
    }

private:
    QWidget* m_colours;
};

} // namespace

LogView::LogView(QWidget* parent)
    : QWidget(parent) {
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(noRunText());

    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("logSearch"));
    m_search->setPlaceholderText(tr("Find in log (Enter: next, Shift+Enter: previous, Esc: close)"));
    m_search->setClearButtonEnabled(true);
    m_search->hide();
    m_search->installEventFilter(this);

    new LogHighlighter(m_text->document(), this);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("logStatus"));
    auto* follow = new QPushButton(tr("Follow"), this);
    follow->setObjectName(QStringLiteral("followButton"));
    follow->setCheckable(true);
    follow->setChecked(true);
    follow->setToolTip(tr("Pressed: scroll to the end as lines arrive. Released: keep the position"));
    m_follow = follow;

    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_follow);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    layout->addWidget(m_search);
    layout->addLayout(statusRow);

    auto* findAction = new QAction(tr("Find in Log"), this);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(findAction, &QAction::triggered, this, &LogView::showSearch);
    addAction(findAction);
    auto* saveAction = new QAction(tr("Save Log..."), this);
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(saveAction, &QAction::triggered, this, &LogView::saveWithDialog);
    addAction(saveAction);

    connect(m_search, &QLineEdit::returnPressed, this, [this] { find(m_search->text()); });
    connect(m_search, &QLineEdit::textEdited, this, [this](const QString& text) {
        // Search as you type from the start of the current match.
        QTextCursor cursor = m_text->textCursor();
        cursor.setPosition(cursor.selectionStart());
        m_text->setTextCursor(cursor);
        find(text);
    });
    // Scrolling up pauses; scrolling back to the bottom follows again.
    QScrollBar* bar = m_text->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        m_followTail = value >= bar->maximum();
        const QSignalBlocker block(m_follow);
        m_follow->setChecked(m_followTail);
        updateStatus();
    });
    connect(m_follow, &QAbstractButton::toggled, this, &LogView::setFollowingTail);
    updateStatus();
}

QString LogView::noRunText() {
    return tr("Select a run to see its driver output.");
}

void LogView::follow(ApiClient* client, const QString& jobName, const QString& runId) {
    if (m_tail && jobName == m_jobName && runId == m_runId)
        return;
    clear();
    m_jobName = jobName;
    m_runId = runId;
    m_tail = new LogTail(client, jobName, runId, this);
    connect(m_tail, &LogTail::textAppended, this, &LogView::append);
    connect(m_tail, &LogTail::completed, this, [this] {
        appendOutcome();
        updateStatus();
        emit completed();
    });
    connect(m_tail, &LogTail::errorOccurred, this, [this](const ApiError& error) {
        m_error = error.message;
        updateStatus();
    });
    m_tail->start();
    // A queued run, or a driver that has not printed yet: the empty page says so, not "select a run".
    m_text->setPlaceholderText(tr("No output yet: the driver's output appears here as it is written."));
    updateStatus();
}

void LogView::clear() {
    if (m_tail) {
        m_tail->stop();
        m_tail->deleteLater();
    }
    m_tail = nullptr;
    m_jobName.clear();
    m_runId.clear();
    m_error.clear();
    m_outcome.clear();
    m_outcomeShown = false;
    m_text->clear();
    m_text->setPlaceholderText(noRunText());
    setFollowingTail(true);
}

void LogView::setFollowingTail(bool follow) {
    m_followTail = follow;
    if (m_follow->isChecked() != follow) {
        const QSignalBlocker block(m_follow);
        m_follow->setChecked(follow);
    }
    if (follow) {
        QScrollBar* bar = m_text->verticalScrollBar();
        bar->setValue(bar->maximum());
        m_followTail = true; // setValue may have reported a position short of the end meanwhile
    }
    updateStatus();
}

void LogView::setOutcomeLine(const QString& runId, const QString& line) {
    if (runId != m_runId || line.isEmpty() || m_outcomeShown)
        return;
    m_outcome = line;
    if (isComplete())
        appendOutcome();
}

// After the whole output, once: the outcome is the log's last line.
void LogView::appendOutcome() {
    if (m_outcome.isEmpty() || m_outcomeShown)
        return;
    m_outcomeShown = true;
    const QString text = m_text->toPlainText();
    append((text.isEmpty() || text.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) +
           m_outcome + QLatin1Char('\n'));
}

QString LogView::text() const {
    return m_text->toPlainText();
}

bool LogView::isComplete() const {
    return m_tail && m_tail->isComplete();
}

void LogView::append(const QString& text) {
    m_error.clear();
    QScrollBar* bar = m_text->verticalScrollBar();
    const bool follow = m_followTail;
    const int kept = bar->value();
    // Inserted at the end without moving the user's cursor or selection (a search match stays selected).
    QTextCursor end(m_text->document());
    end.movePosition(QTextCursor::End);
    end.insertText(text);
    if (follow)
        bar->setValue(bar->maximum());
    else
        bar->setValue(kept);
    m_followTail = follow;
    if (m_follow->isChecked() != follow) {
        const QSignalBlocker block(m_follow);
        m_follow->setChecked(follow);
    }
    updateStatus();
}

void LogView::updateStatus() {
    QString status;
    if (m_runId.isEmpty())
        status = tr("No run selected");
    else if (isComplete())
        status = tr("Run %1: complete output").arg(m_runId);
    else
        status = tr("Run %1: following the output").arg(m_runId);
    if (!m_runId.isEmpty() && !m_followTail && !isComplete())
        status += tr(" (paused; press Follow or scroll to the bottom to follow)");
    if (!m_error.isEmpty())
        status += tr(" - reading failed, retrying: %1").arg(m_error);
    m_status->setText(status);
}

bool LogView::find(const QString& text, bool backwards) {
    if (text.isEmpty())
        return false;
    const QTextDocument::FindFlags flags =
        backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (m_text->find(text, flags))
        return true;
    // Wrap around once.
    QTextCursor cursor = m_text->textCursor();
    cursor.movePosition(backwards ? QTextCursor::End : QTextCursor::Start);
    m_text->setTextCursor(cursor);
    return m_text->find(text, flags);
}

bool LogView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Escape) {
            m_search->hide();
            m_text->setFocus();
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            (key->modifiers() & Qt::ShiftModifier)) {
            find(m_search->text(), true);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool LogView::saveTo(const QString& path, QString* error) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(text().toUtf8());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void LogView::showSearch() {
    m_search->show();
    m_search->setFocus();
    m_search->selectAll();
}

void LogView::saveWithDialog() {
    const QString suggested =
        m_runId.isEmpty() ? QStringLiteral("run.log") : m_runId + QStringLiteral(".log");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Log"), suggested);
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTo(path, &error))
        QMessageBox::warning(this, tr("Save Log"), tr("Cannot save %1: %2").arg(path, error));
}

} // namespace jobdeck
