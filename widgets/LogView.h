#pragma once

#include "client/ApiError.h"

#include <QPointer>
#include <QWidget>

class QAbstractButton;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace jobdeck {

class ApiClient;
class LogTail;

// The driver output of one run, followed as it grows (LogTail). Follow (a toggle) scrolls with the
// output; Pause, or scrolling up to read something, keeps the position while lines arrive. Error lines
// (core isErrorLogLine) are highlighted, and once the run has ended and its output is read the log ends
// with the run's outcome line (core runOutcomeLine), highlighted too. Ctrl+F searches (Enter: next,
// Shift+Enter: previous), Ctrl+S saves what has been read so far to a file.
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
    // Whether new output scrolls the view: true unless paused or the user scrolled up.
    bool isFollowingTail() const { return m_followTail; }
    void setFollowingTail(bool follow);
    // How run `runId` ended, shown as the log's last line once its output is read; ignored for another
    // run than the one followed.
    void setOutcomeLine(const QString& runId, const QString& line);

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
    static QString noRunText(); // the empty page's text while no run is followed
    void append(const QString& text);
    void appendOutcome();
    void updateStatus();

    QPlainTextEdit* m_text;
    QLineEdit* m_search;
    QLabel* m_status;
    QAbstractButton* m_follow;
    QString m_outcome;
    bool m_outcomeShown = false;
    QPointer<LogTail> m_tail;
    QString m_jobName;
    QString m_runId;
    QString m_error;
    bool m_followTail = true;
};

} // namespace jobdeck
