#pragma once

#include "client/ApiError.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringDecoder>
#include <QTimer>

#include <chrono>

namespace jobdeck {

class ApiClient;

// Follows a run's driver output by offset (X-Log-Next-Offset) until X-Log-Complete says it ended.
// The log endpoint answers at once, so the next read waits `interval` when nothing new came; errors
// back off and are retried, since the output keeps until the tail asks again.
class LogTail final : public QObject {
    Q_OBJECT
public:
    LogTail(ApiClient* client, QString jobName, QString runId, QObject* parent = nullptr);

    void setInterval(std::chrono::milliseconds interval) { m_interval = interval; }
    void start(qint64 offset = 0);
    void stop();
    bool isComplete() const { return m_complete; }
    qint64 offset() const { return m_offset; }

signals:
    void textAppended(const QString& text);
    void completed();
    void errorOccurred(const jobdeck::ApiError& error);

private:
    void read();

    QPointer<ApiClient> m_client;
    QString m_jobName;
    QString m_runId;
    QTimer m_timer;
    QStringDecoder m_decoder{QStringDecoder::Utf8}; // keeps a UTF-8 sequence split across chunks
    std::chrono::milliseconds m_interval{500};
    std::chrono::milliseconds m_errorDelay{0};
    qint64 m_offset = 0;
    bool m_running = false;
    bool m_complete = false;
};

} // namespace jobdeck
