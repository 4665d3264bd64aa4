#pragma once

#include "client/ApiError.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace jobdeck {

class ApiClient;
class LogTail;

// The driver output of one run, followed as it grows (LogTail). It scrolls with the output unless the
// user scrolled up to read something. Ctrl+F searches (Enter: next, Shift+Enter: previous), Ctrl+S saves
// what has been read so far to a file.
class LogView final : public QWidget {
    Q_OBJECT
public:
    explicit LogView(QWidget* parent = nullptr);

    // Stops following the previous run and follows this one from the start.
    void follow(ApiClient* client, const QString& jobName, const QString& runId);
    void clear();

    QString jobName() const { return m_jobName; }
    QString runId() const { return m_runId; }
    QString text() const;
    bool isComplete() const;
    // Whether new output scrolls the view: true unless the user scrolled up.
    bool isFollowingTail() const { return m_followTail; }

    // Finds the next (or previous) match of `text` from the cursor, wrapping around; false when none.
    bool find(const QString& text, bool backwards = false);
    // Writes the text to `path`; on failure false and `error` says why.
    bool saveTo(const QString& path, QString* error = nullptr) const;
    void showSearch();
    void saveWithDialog();

    QPlainTextEdit* textEdit() const { return m_text; }

signals:
    void completed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void append(const QString& text);
    void updateStatus();

    QPlainTextEdit* m_text;
    QLineEdit* m_search;
    QLabel* m_status;
    QPointer<LogTail> m_tail;
    QString m_jobName;
    QString m_runId;
    QString m_error;
    bool m_followTail = true;
};

} // namespace jobdeck
