// Connection exhaustion (issue 19 item 5) against the real jobdeckd: thousands of idle loopback
// connections, a per-address limit and a short first-byte timeout never lock normal clients out.
// Idle connections come from 127.0.0.2 and up (all of 127/8 is loopback); normal clients from 127.0.0.1.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QElapsedTimer>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

using namespace jobdeck;
using namespace jobdeck::teststatus;

namespace {

// A loopback TCP connection from `source` (127.0.0.x), closed with the object.
class RawConnection final {
public:
    RawConnection(const char* source, quint16 port) {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (m_fd < 0)
            return;
        sockaddr_in from{};
        from.sin_family = AF_INET;
        ::inet_pton(AF_INET, source, &from.sin_addr);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(port);
        ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
        if (::bind(m_fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
            ::connect(m_fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~RawConnection() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;
    RawConnection(RawConnection&& other) noexcept
        : m_fd(std::exchange(other.m_fd, -1)) {}

    bool isOpen() const { return m_fd >= 0; }
    bool send(const QByteArray& bytes) const {
        return ::send(m_fd, bytes.constData(), std::size_t(bytes.size()), MSG_NOSIGNAL) == bytes.size();
    }
    // What arrives until the server closes the connection, a complete answer is in, or `timeoutMs`.
    QByteArray receive(int timeoutMs) const {
        QByteArray received;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, int(std::max<qint64>(1, timeoutMs - timer.elapsed()))) <= 0)
                break;
            char buffer[4096];
            const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (n <= 0)
                break;
            received.append(buffer, n);
            const qsizetype end = received.indexOf("\r\n\r\n");
            if (end >= 0 && received.toLower().contains("content-length")) {
                const qsizetype at = received.toLower().indexOf("content-length:");
                const qsizetype length =
                    received.mid(at + 15, received.indexOf('\r', at) - at - 15).trimmed().toLongLong();
                if (received.size() >= end + 4 + length)
                    break;
            }
        }
        return received;
    }
    // True when the server closed it (end of stream or reset) within `timeoutMs`.
    bool closedWithin(int timeoutMs) const {
        pollfd p{m_fd, POLLIN, 0};
        if (::poll(&p, 1, timeoutMs) <= 0)
            return false;
        char byte = 0;
        return ::recv(m_fd, &byte, 1, MSG_PEEK) <= 0;
    }

private:
    int m_fd = -1;
};

QByteArray healthRequest() {
    return "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
}

QByteArray grpcMessage(const QByteArray& raw) {
    const qsizetype at = raw.toLower().indexOf("grpc-message:");
    return at < 0 ? QByteArray() : raw.mid(at + 13, raw.indexOf('\r', at) - at - 13).trimmed();
}

} // namespace

class TestConnectionLimits : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // 2,000 held connections and a few more: the soft descriptor limit is often 1,024.
        rlimit limit{};
        QVERIFY(::getrlimit(RLIMIT_NOFILE, &limit) == 0);
        limit.rlim_cur = limit.rlim_max;
        QVERIFY(::setrlimit(RLIMIT_NOFILE, &limit) == 0);
        QVERIFY2(limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= 2500,
                 "this test needs a hard open-file limit of at least 2,500 (ulimit -Hn)");
    }

    // With the default limits (1,024 connections, 128 per address), 2,000 idle connections from 16
    // addresses are held while a health check and an authenticated statement are served.
    void clientsAreServedWhileThousandsOfConnectionsIdle() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials who = service.createKey(QStringLiteral("alpha"), QStringLiteral("viewer"));
        QVERIFY2(who.isValid(), qPrintable(service.lastError()));

        std::vector<RawConnection> idle;
        idle.reserve(2000);
        for (int i = 0; i < 2000; ++i) {
            const std::string source = "127.0.0." + std::to_string(2 + i % 16);
            idle.emplace_back(source.c_str(), service.port());
            QVERIFY2(idle.back().isOpen(), qPrintable(QString("connection %1 failed: %2").arg(i).arg(errno)));
        }
        // Let the service accept them all before a normal client arrives.
        QThread::msleep(500);

        QElapsedTimer timer;
        timer.start();
        const QByteArray health = rawExchange(service.port(), healthRequest(), 5000);
        const qint64 healthMs = timer.elapsed();
        QVERIFY2(rawStatus(health) == 200, health.constData());
        timer.restart();
        const auto status = runStatement(service, who, QStringLiteral("SHOW CLUSTERS"));
        const qint64 statementMs = timer.elapsed();
        QCOMPARE(statusOf(status), kSuccess);
        qInfo("with 2,000 idle connections: health check answered in %lld ms, SHOW CLUSTERS in %lld ms",
              healthMs, statementMs);
        QVERIFY(service.isRunning());
        QCOMPARE(service.stop(), 0);
    }

    // One address beyond its limit gets 503 with a reason; another address is still served.
    void oneAddressCannotTakeMoreThanItsShare() {
        TestService service({QStringLiteral("--max-connections-per-address"), QStringLiteral("8")});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        std::vector<RawConnection> held;
        for (int i = 0; i < 8; ++i) {
            held.emplace_back("127.0.0.20", service.port());
            QVERIFY(held.back().isOpen());
        }
        QThread::msleep(200);
        RawConnection ninth("127.0.0.20", service.port());
        QVERIFY(ninth.isOpen());
        const QByteArray refused = ninth.receive(5000);
        QVERIFY2(rawStatus(refused) == 503, refused.constData());
        QCOMPARE(grpcMessage(refused), QByteArray("Too many connections from this address"));

        RawConnection other("127.0.0.21", service.port());
        QVERIFY(other.isOpen() && other.send(healthRequest()));
        const QByteArray served = other.receive(5000);
        QVERIFY2(rawStatus(served) == 200, served.constData());
        QCOMPARE(service.stop(), 0);
    }

    // A connection that sends nothing is closed after --first-byte-timeout, long before the header
    // timeout; one that has started its header keeps the header timeout and is served.
    void silentConnectionsAreClosedSoon() {
        TestService service({QStringLiteral("--first-byte-timeout"), QStringLiteral("1"),
                             QStringLiteral("--header-timeout"), QStringLiteral("60")});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        RawConnection silent("127.0.0.30", service.port());
        RawConnection started("127.0.0.31", service.port());
        QVERIFY(silent.isOpen() && started.isOpen());
        QVERIFY(started.send("GET /v1/health HTTP/1.1\r\n"));
        QVERIFY2(silent.closedWithin(20000), "a silent connection stayed open");
        QThread::msleep(1500); // past the first-byte timeout for `started` too
        QVERIFY(started.send("Host: 127.0.0.1\r\nConnection: close\r\n\r\n"));
        const QByteArray served = started.receive(5000);
        QVERIFY2(rawStatus(served) == 200, served.constData());
        QCOMPARE(service.stop(), 0);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestConnectionLimits)
#include "tst_connectionlimits.moc"
