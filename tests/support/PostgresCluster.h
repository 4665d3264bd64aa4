#pragma once

#include "tests/support/PortReservation.h"

#include <QDeadlineTimer>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace jobdeck {

// A private PostgreSQL cluster for one test: initdb in a temporary directory, a server listening on
// a unix socket in that directory and on 127.0.0.1 at a port reserved for it (PortReservation), with
// trust authentication, loopback only, and one database. initdb refuses root, so when the test runs as
// root the server's tools run as the `postgres` OS user (runuser) and the directory is handed to it.
// stop() or the destructor stops the server (`pg_ctl stop -m fast`) and removes the directory, also
// when the test failed.
class PostgresCluster final {
public:
    // The server's memory: the tests' small settings (several clusters may run at once), or
    // PostgreSQL's own defaults (shared_buffers 128MB), for a benchmark measuring it as installed.
    enum class Memory { Small, ServerDefaults };
    explicit PostgresCluster(Memory memory = Memory::Small)
        : m_memory(memory) {}
    ~PostgresCluster();
    PostgresCluster(const PostgresCluster&) = delete;
    PostgresCluster& operator=(const PostgresCluster&) = delete;

    // initdb, start, wait until it accepts connections, create the database. false, with
    // lastError() saying what failed (and how to install PostgreSQL when it is missing).
    bool start(int timeoutMs = 120000);
    // Stops the server and removes its directory; nothing when it is not started.
    void stop();
    bool isStarted() const { return m_dir != nullptr; }

    // How pause() stops the server: `fast` ends the sessions cleanly, `immediate` as a crash would.
    enum class StopMode { Fast, Immediate };
    // Stops the server and keeps its directory, as a database outage would (`pg_ctl stop -m <mode>`);
    // resume() starts it again on the same port with the same data. false, with lastError(), when it
    // fails.
    bool pause(StopMode mode = StopMode::Fast);
    bool resume(int timeoutMs = 120000);

    // Creates another (empty) database owned by userName(); false, with lastError(), when it fails.
    bool createDatabase(const QString& name, int timeoutMs = 30000);

    // postgresql://<user>@127.0.0.1:<port>/<database> for databaseName(), or for `database`.
    QString connectionUri() const { return connectionUri(databaseName()); }
    QString connectionUri(const QString& database) const;
    quint16 port() const { return m_port; }
    QString userName() const { return QStringLiteral("jobdeck"); }
    QString databaseName() const { return QStringLiteral("jobdeck_test"); }
    // The directory holding data/, the socket and the server log; empty when not started.
    QString directory() const { return m_dir ? m_dir->path() : QString(); }
    // The postmaster's pid (postmaster.pid); 0 when it is not running.
    qint64 serverProcessId() const;
    QString lastError() const { return m_lastError; }

    // Where initdb, pg_ctl and postgres are: `pg_config --bindir`, else /usr/lib/postgresql/15/bin;
    // empty when neither has them.
    static QString binDirectory();

private:
    QString dataDirectory() const;
    QString serverLog() const;
    bool prepareDirectory(const QString& bin);
    bool initialise(const QString& bin, int timeoutMs);
    bool configure();
    bool startServer(const QString& bin, int timeoutMs);
    // Waits until the server accepts connections on m_port.
    bool awaitReady(const QString& bin, const QDeadlineTimer& deadline);
    // Runs a tool (as the postgres user when `asServerUser` and this process is root); false, with
    // m_lastError holding its output, when it fails or outlasts `timeoutMs`.
    bool runTool(const QString& program, const QStringList& arguments, bool asServerUser, int timeoutMs);
    bool fail(const QString& message);

    const Memory m_memory;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_bin;
    PortReservation m_portReservation; // held until stop(), also while paused
    quint16 m_port = 0;
    QString m_lastError;
};

} // namespace jobdeck
