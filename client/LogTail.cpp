#include "client/LogTail.h"

#include "client/ApiClient.h"

namespace jobdeck {

LogTail::LogTail(ApiClient* client, QString jobName, QString runId, QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_jobName(std::move(jobName))
    , m_runId(std::move(runId)) {
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &LogTail::read);
}

void LogTail::start(qint64 offset) {
    m_offset = offset;
    m_running = true;
    m_complete = false;
    read();
}

void LogTail::stop() {
    m_running = false;
    m_timer.stop();
}

void LogTail::read() {
    if (!m_running || !m_client)
        return;
    m_client->runLog(m_jobName, m_runId, m_offset)->then(this, [this](const ApiReply<LogChunk>& r) {
        if (!m_running)
            return;
        if (r.isError()) {
            emit errorOccurred(r.error());
            m_errorDelay = m_errorDelay.count() == 0
                               ? m_interval
                               : std::min(m_errorDelay * 2, std::chrono::milliseconds(30000));
            m_timer.start(m_errorDelay);
            return;
        }
        m_errorDelay = std::chrono::milliseconds(0);
        const LogChunk& chunk = r.value();
        if (!chunk.data.isEmpty()) {
            const QString text = m_decoder.decode(chunk.data);
            if (!text.isEmpty())
                emit textAppended(text);
        }
        m_offset = chunk.nextOffset;
        if (chunk.complete) {
            m_complete = true;
            m_running = false;
            emit completed();
            return;
        }
        // More may be waiting already when the chunk was full; otherwise give the run time to write.
        if (chunk.data.isEmpty())
            m_timer.start(m_interval);
        else
            m_timer.start(0);
    });
}

} // namespace jobdeck
