#pragma once

#include "tests/support/PortReservation.h"
#include "tests/support/TestBackend.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

namespace jobdeck {

// What `jobdeckd keys create --json` printed. Empty fields when it failed (see TestService::lastError()).
struct ApiCredentials final {
    QString projectUid;
    QString apiKey;
    QString apiSecret;
    QString role;

    bool isValid() const { return !projectUid.isEmpty() && !apiKey.isEmpty() && !apiSecret.isEmpty(); }
    // The three x-onehouse-* credential headers.
    QList<QPair<QByteArray, QByteArray>> headers() const;
};

// The real jobdeckd (JOBDECKD_PATH) on a free loopback port with a fresh data directory that lives
// as long as this object: `serve --listen 127.0.0.1:0 --data-dir <tmp>/data` plus extra arguments.
// Its stderr (the request log) goes to a file, so a busy test never stalls it on a full pipe.
// With the PostgreSQL test backend (TestBackend) it also gets `--database <uri>` of a fresh database
// of its own, created at its first start or createKey() and kept for every later one, unless the
// extra arguments name a `--database` themselves.
class TestService final {
public:
    explicit TestService(QStringList extraArguments = {});
    ~TestService();
    TestService(const TestService&) = delete;
    TestService& operator=(const TestService&) = delete;

    // Starts the service (again, on the same data directory and port: a PortReservation held for this
    // TestService's life) and waits until it prints its `listening on` line. false, with lastError(),
    // when it exits or stays silent.
    bool start(int timeoutMs = 20000);
    // start() on a newly reserved port, as the service moved to another address would be.
    bool startOnNewPort(int timeoutMs = 20000);
    // Starts it on `port` (same data directory), as a service coming back after a crash or an upgrade
    // would; retries while the port is not free yet (a dying process may hold it for a moment). false,
    // with lastError(), when it never binds or fails for another reason.
    bool startOn(quint16 port, int timeoutMs = 20000);
    // Stops the service if it still runs, then startOn(port()).
    bool restart(int timeoutMs = 20000);
    // SIGTERM, then waits; returns the exit status, or -1 when it crashed or had to be killed.
    int stop(int timeoutMs = 20000);
    // SIGKILL: nothing gets a chance to flush.
    void kill9();
    bool isRunning() const;
    qint64 processId() const { return m_process ? m_process->processId() : 0; }

    void setExtraArguments(QStringList arguments) { m_extraArguments = std::move(arguments); }
    // From the next start on, jobdeckd is started through this command (`unshare --pid --fork`, ...):
    // its first word is the program, the rest come before jobdeckd's path. processId() is then the
    // command's.
    void setCommandPrefix(QStringList prefix) { m_commandPrefix = std::move(prefix); }
    // Serve HTTPS (`--tls-cert`, `--tls-key`) from the next start on; baseUrl() becomes https://.
    void useTls(const QString& certificateFile, const QString& keyFile);
    quint16 port() const { return m_port; }
    QUrl baseUrl() const;
    // baseUrl() with `path` (which starts with '/') and an optional query.
    QUrl url(const QString& path, const QString& query = {}) const;
    QString dataDir() const;
    // Everything the service wrote to stderr so far, all starts included.
    QString errorOutput() const;
    QString lastError() const { return m_lastError; }

    // The backend of this test process (JOBDECK_TEST_BACKEND), for tests that must tell them apart.
    static TestBackend::Kind backend() { return TestBackend::kind(); }
    static bool isPostgresBackend() { return TestBackend::isPostgresql(); }
    // The database the service uses: the extra arguments' `--database`, else its PostgreSQL
    // database (empty before the first start or createKey()), else sqlite:<dataDir>/jobdeck.db.
    QString databaseUri() const;
    // The arguments of the latest jobdeckd this object ran (serve or keys create).
    QStringList lastArguments() const { return m_lastArguments; }

    // Runs `jobdeckd keys create --data-dir <dataDir> --project <project> --role <role> --json`
    // (with `--database` as for serve when the service has one).
    ApiCredentials createKey(const QString& project, const QString& role);

    // Runs jobdeckd with `arguments` (nothing added) and waits; for command line tests.
    struct Exit {
        int status = -1; // -1: it crashed or timed out
        QByteArray out;
        QByteArray err;
    };
    static Exit runJobdeckd(const QStringList& arguments, int timeoutMs = 20000);
    // The jobdeck-run-monitor built with JOBDECKD_PATH, for tests that launch drivers in-process.
    static QString runMonitorPath();

private:
    // One attempt; `port` 0: any free port.
    bool launch(quint16 port, int timeoutMs);
    QString extraDatabaseUri() const;
    void keepLog() const;
    // Appends `--database <uri>` of the service's own PostgreSQL database (created on first use)
    // when that is the backend and the extra arguments name none; false, with lastError(), when the
    // database cannot be had.
    bool appendOwnDatabase(QStringList& arguments);

    QTemporaryDir m_dir;
    QStringList m_extraArguments;
    QStringList m_commandPrefix;
    std::unique_ptr<QProcess> m_process;
    PortReservation m_portReservation;
    quint16 m_port = 0;
    bool m_https = false;
    QString m_postgresUri;
    QStringList m_lastArguments;
    QString m_lastError;
};

} // namespace jobdeck
