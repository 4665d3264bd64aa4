#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace jobdeck::test {

// A process's output as lines, blank ones left out (a one-line error is exactly one of them).
inline QStringList nonEmptyLines(const QByteArray& text) {
    QStringList lines;
    for (const QByteArray& line : text.split('\n'))
        if (!line.trimmed().isEmpty())
            lines << QString::fromUtf8(line);
    return lines;
}

// For tests that start jobdeckd with a QProcess of their own (environment, stderr, arguments that
// TestService does not pass): waits for its `listening on 127.0.0.1:<port>` line on stdout and
// returns the port; 0 when it exited or stayed silent.
inline quint16 waitForListeningPort(QProcess& process, int timeoutMs = 20000) {
    static const QRegularExpression listening(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
    QByteArray out;
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired() && process.state() != QProcess::NotRunning) {
        process.waitForReadyRead(200);
        out += process.readAllStandardOutput();
        const auto match = listening.match(QString::fromUtf8(out));
        if (match.hasMatch())
            return static_cast<quint16>(match.captured(1).toUInt());
    }
    return 0;
}

// SIGTERM, then SIGKILL if it does not end within the grace jobdeckd is given.
inline void stopProcess(QProcess& process) {
    process.terminate();
    if (!process.waitForFinished(20000))
        process.kill();
    process.waitForFinished(5000);
}

} // namespace jobdeck::test
