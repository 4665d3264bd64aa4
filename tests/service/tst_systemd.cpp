// jobdeckd under systemd: `Type=notify` readiness over the sd_notify datagram protocol (a test socket
// in NOTIFY_SOCKET, as systemd-notify uses) and log lines for journald. The real binary throughout.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceProcess.h"
#include "tests/support/TestBackend.h"
#include "tests/support/TestHttp.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

using namespace jobdeck;

namespace {

// A datagram socket bound to `path`, as systemd's notify socket is; -1 on failure.
int bindDatagramSocket(const QByteArray& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= static_cast<qsizetype>(sizeof address.sun_path))
        return -1;
    std::memcpy(address.sun_path, path.constData(), static_cast<std::size_t>(path.size()));
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// The next datagram, or empty when none came in time.
QByteArray receive(int fd, int timeoutMs) {
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, timeoutMs) != 1)
        return {};
    char buffer[4096];
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    return n > 0 ? QByteArray(buffer, n) : QByteArray();
}

QProcessEnvironment environmentWith(const QString& name, const QString& value) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("JOURNAL_STREAM"));
    environment.remove(QStringLiteral("NOTIFY_SOCKET"));
    if (!name.isEmpty())
        environment.insert(name, value);
    return environment;
}

} // namespace

class TestSystemd final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QString error;
        const auto database = TestBackend::freshDatabaseArguments(error);
        QVERIFY2(database, qPrintable(error));
        m_database = *database;
    }

    void readyComesOnceTheListenerAnswers() {
        const QByteArray socketPath = m_tmp.filePath(QStringLiteral("notify")).toUtf8();
        const int socket = bindDatagramSocket(socketPath);
        QVERIFY2(socket >= 0, std::strerror(errno));
        QProcess process;
        process.setProcessEnvironment(environmentWith(QStringLiteral("NOTIFY_SOCKET"), socketPath));
        process.start(
            QStringLiteral(JOBDECKD_PATH),
            QStringList{"serve", "--listen", "127.0.0.1:0", "--data-dir", m_tmp.filePath("notify-data")} +
                m_database);

        const QByteArray ready = receive(socket, 20000);
        static const QRegularExpression status(QStringLiteral("^READY=1\nSTATUS=serving on port (\\d+)$"));
        const auto match = status.match(QString::fromUtf8(ready));
        QVERIFY2(match.hasMatch(), ready.constData());
        // Readiness means answering: the port named in the message serves requests already.
        const auto health =
            request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/health").arg(match.captured(1))), "GET");
        QCOMPARE(health.status, 200);

        process.terminate();
        QCOMPARE(receive(socket, 20000), QByteArray("STOPPING=1"));
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 0);
        ::close(socket);
    }

    void withoutNotifySocketNothingIsSent() {
        QProcess process;
        process.setProcessEnvironment(environmentWith({}, {}));
        process.start(QStringLiteral(JOBDECKD_PATH), QStringList{"serve", "--listen", "127.0.0.1:0",
                                                                 "--data-dir", m_tmp.filePath("plain-data")} +
                                                         m_database);
        QVERIFY(test::waitForListeningPort(process) != 0);
        test::stopProcess(process);
        QCOMPARE(process.exitCode(), 0);
    }

    // systemd connects stderr to the journal and says so in JOURNAL_STREAM (device:inode of that
    // stream); a file stands in for the journal's socket here.
    void logLinesCarryJournalPrioritiesWhenStderrIsTheJournal() {
        const QString logPath = m_tmp.filePath(QStringLiteral("journal.log"));
        QFile(logPath).open(QIODevice::WriteOnly);
        struct stat status {};
        QCOMPARE(::stat(logPath.toLocal8Bit().constData(), &status), 0);
        QProcess process;
        process.setProcessEnvironment(environmentWith(
            QStringLiteral("JOURNAL_STREAM"), QStringLiteral("%1:%2").arg(status.st_dev).arg(status.st_ino)));
        process.setStandardErrorFile(logPath);
        process.start(
            QStringLiteral(JOBDECKD_PATH),
            QStringList{"serve", "--listen", "127.0.0.1:0", "--data-dir", m_tmp.filePath("journal-data")} +
                m_database);
        QVERIFY(test::waitForListeningPort(process) != 0);
        test::stopProcess(process);
        QFile log(logPath);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(log.readAll()).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 2);
        for (const QString& line : lines)
            QVERIFY2(line.startsWith(QStringLiteral("<6>")), qPrintable(line)); // info
        QVERIFY2(lines.first().startsWith(QStringLiteral("<6>jobdeckd ")), qPrintable(lines.first()));
    }

    void logLinesAreTimestampedTextElsewhere() {
        QProcess process;
        // A JOURNAL_STREAM that is not this stderr (inherited from a shell under systemd) is ignored.
        process.setProcessEnvironment(
            environmentWith(QStringLiteral("JOURNAL_STREAM"), QStringLiteral("1:2")));
        process.start(QStringLiteral(JOBDECKD_PATH), QStringList{"serve", "--listen", "127.0.0.1:0",
                                                                 "--data-dir", m_tmp.filePath("text-data")} +
                                                         m_database);
        QVERIFY(test::waitForListeningPort(process) != 0);
        test::stopProcess(process);
        const QString first = QString::fromUtf8(process.readAllStandardError()).section('\n', 0, 0);
        static const QRegularExpression stamped(QStringLiteral("^\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:"));
        QVERIFY2(stamped.match(first).hasMatch(), qPrintable(first));
    }

    void logTargetFlagForcesTheJournalFormat() {
        QProcess process;
        process.setProcessEnvironment(environmentWith({}, {}));
        process.start(QStringLiteral(JOBDECKD_PATH),
                      QStringList{"serve", "--listen", "127.0.0.1:0", "--data-dir",
                                  m_tmp.filePath("forced-data"), "--log-target", "journal"} +
                          m_database);
        QVERIFY(test::waitForListeningPort(process) != 0);
        test::stopProcess(process);
        const QString log = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(log.startsWith(QStringLiteral("<6>jobdeckd ")), qPrintable(log));
    }

private:
    QTemporaryDir m_tmp;
    // The test backend's `--database` (one database: these services run one after another), or nothing.
    QStringList m_database;
};

JOBDECK_TEST_GUILESS_MAIN(TestSystemd)
#include "tst_systemd.moc"
