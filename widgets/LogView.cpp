#include "widgets/LogView.h"

#include "client/LogTail.h"

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
#include <QSaveFile>
#include <QScrollBar>
#include <QTextDocument>
#include <QVBoxLayout>

namespace jobdeck {

LogView::LogView(QWidget* parent)
    : QWidget(parent) {
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("Select a run to see its driver output."));

    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("logSearch"));
    m_search->setPlaceholderText(tr("Find in log (Enter: next, Shift+Enter: previous, Esc: close)"));
    m_search->setClearButtonEnabled(true);
    m_search->hide();
    m_search->installEventFilter(this);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("logStatus"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    layout->addWidget(m_search);
    layout->addWidget(m_status);

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
    // Scrolling up stops following; scrolling back to the bottom resumes.
    QScrollBar* bar = m_text->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        m_followTail = value >= bar->maximum();
        updateStatus();
    });
    updateStatus();
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
        updateStatus();
        emit completed();
    });
    connect(m_tail, &LogTail::errorOccurred, this, [this](const ApiError& error) {
        m_error = error.message;
        updateStatus();
    });
    m_tail->start();
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
    m_text->clear();
    m_followTail = true;
    updateStatus();
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
        status += tr(" (paused while scrolled up; scroll to the bottom to follow)");
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
