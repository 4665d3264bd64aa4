#include "tests/support/PostgresCluster.h"

#include "tests/support/ProcessState.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>

#include <algorithm>

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

namespace jobdeck {
namespace {

const QString kInstallHint =
    QStringLiteral("install PostgreSQL with `bash packaging/install-deps.sh test` (Debian's "
                   "postgresql package)");
constexpr int kStopTimeoutSeconds = 20;

bool runningAsRoot() {
    return ::geteuid() == 0;
}

bool hasServerPrograms(const QString& dir) {
    for (const char* program : {"initdb", "pg_ctl", "postgres", "createdb", "pg_isready"})
        if (!QFileInfo(dir + "/" + program).isExecutable())
            return false;
    return true;
}

int remainingMs(const QDeadlineTimer& deadline) {
    return static_cast<int>(std::max<qint64>(1000, deadline.remainingTime()));
}

} // namespace

PostgresCluster::~PostgresCluster() {
    stop();
}

QString PostgresCluster::binDirectory() {
    QProcess pgConfig;
    pgConfig.start(QStringLiteral("pg_config"), {QStringLiteral("--bindir")});
    if (pgConfig.waitForFinished(10000) && pgConfig.exitCode() == 0) {
        const QString dir = QString::fromLocal8Bit(pgConfig.readAllStandardOutput()).trimmed();
        if (hasServerPrograms(dir))
            return dir;
    }
    const QString debian = QStringLiteral("/usr/lib/postgresql/15/bin");
    return hasServerPrograms(debian) ? debian : QString();
}

QString PostgresCluster::connectionUri(const QString& database) const {
    return QStringLiteral("postgresql://%1@127.0.0.1:%2/%3").arg(userName()).arg(m_port).arg(database);
}

QString PostgresCluster::dataDirectory() const {
    return m_dir->filePath(QStringLiteral("data"));
}

QString PostgresCluster::serverLog() const {
    return m_dir->filePath(QStringLiteral("server.log"));
}

qint64 PostgresCluster::serverProcessId() const {
    if (!m_dir)
        return 0;
    QFile pidFile(dataDirectory() + "/postmaster.pid");
    if (!pidFile.open(QIODevice::ReadOnly))
        return 0;
    const qint64 pid = pidFile.readLine().trimmed().toLongLong();
    return test::processIsRunning(pid) ? pid : 0;
}

bool PostgresCluster::fail(const QString& message) {
    m_lastError = message;
    return false;
}

bool PostgresCluster::start(int timeoutMs) {
    if (m_dir)
        return fail(QStringLiteral("the cluster is already started"));
    m_bin = binDirectory();
    if (m_bin.isEmpty())
        return fail("PostgreSQL's server programs (initdb, pg_ctl, postgres) were found neither in "
                    "`pg_config --bindir` nor in /usr/lib/postgresql/15/bin; " +
                    kInstallHint);
    const QDeadlineTimer deadline(timeoutMs);
    const bool started = prepareDirectory(m_bin) && initialise(m_bin, remainingMs(deadline)) &&
                         startServer(m_bin, remainingMs(deadline)) &&
                         createDatabase(databaseName(), remainingMs(deadline));
    if (!started) {
        const QString error = m_lastError;
        stop();
        m_lastError = error;
    }
    return started;
}

bool PostgresCluster::prepareDirectory(const QString& bin) {
    // As root the server runs as `postgres`, which must reach the directory: /tmp is open to all.
    const QString parent = runningAsRoot() ? QStringLiteral("/tmp") : QDir::tempPath();
    m_dir = std::make_unique<QTemporaryDir>(parent + "/jobdeck-postgres-XXXXXX");
    if (!m_dir->isValid())
        return fail("cannot create a temporary directory under " + parent);
    if (!runningAsRoot())
        return true;
    const passwd* postgres = ::getpwnam("postgres");
    if (!postgres)
        return fail(
            "this test runs as root, which initdb refuses, and there is no `postgres` OS user to run " + bin +
            "/initdb as; " + kInstallHint);
    if (::chown(QFile::encodeName(m_dir->path()).constData(), postgres->pw_uid, postgres->pw_gid) != 0)
        return fail("cannot hand " + m_dir->path() + " to the postgres user");
    return true;
}

bool PostgresCluster::initialise(const QString& bin, int timeoutMs) {
    return runTool(bin + "/initdb",
                   {"-D", dataDirectory(), "-U", userName(), "--auth=trust", "--encoding=UTF8", "--locale=C",
                    "--no-sync"},
                   true, timeoutMs);
}

// The socket in the cluster's own directory and TCP on loopback only, at `m_port`.
bool PostgresCluster::configure() {
    QFile conf(dataDirectory() + "/postgresql.conf");
    if (!conf.open(QIODevice::Append | QIODevice::Text))
        return fail("cannot append to " + conf.fileName());
    // Connections for several services of up to 16 pooled connections each.
    conf.write(QStringLiteral("\n# PostgresCluster (Jobdeck tests)\nlisten_addresses = '127.0.0.1'\n"
                              "port = %1\nunix_socket_directories = '%2'\nmax_connections = 200\n")
                   .arg(m_port)
                   .arg(m_dir->path())
                   .toUtf8());
    if (m_memory == Memory::Small)
        conf.write("shared_buffers = 16MB\nwork_mem = 2MB\nmaintenance_work_mem = 16MB\n");
    return conf.error() == QFileDevice::NoError || fail("cannot write " + conf.fileName());
}

bool PostgresCluster::startServer(const QString& bin, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    // A port found free may be taken before the server binds it: try another one then.
    for (int attempt = 0; attempt < 3; ++attempt) {
        m_port = m_portReservation.reserve();
        if (m_port == 0 || !configure())
            return fail(m_lastError.isEmpty() ? QStringLiteral("no free loopback port") : m_lastError);
        const int seconds = std::max(1, remainingMs(deadline) / 1000);
        if (runTool(bin + "/pg_ctl",
                    {"start", "-D", dataDirectory(), "-l", serverLog(), "-w", "-t", QString::number(seconds)},
                    true, remainingMs(deadline) + 5000))
            break;
        QFile log(serverLog());
        const QString logText = log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString();
        if (!logText.contains(QLatin1String("could not bind")) || deadline.hasExpired())
            return fail(m_lastError + "\nserver log:\n" + logText.right(2000));
    }
    return awaitReady(bin, deadline);
}

bool PostgresCluster::awaitReady(const QString& bin, const QDeadlineTimer& deadline) {
    while (!runTool(bin + "/pg_isready", {"-h", "127.0.0.1", "-p", QString::number(m_port)}, false, 5000)) {
        if (deadline.hasExpired())
            return fail("the server did not accept connections on 127.0.0.1:" + QString::number(m_port) +
                        " in time: " + m_lastError);
        QThread::msleep(100);
    }
    return true;
}

bool PostgresCluster::pause(StopMode mode) {
    if (!m_dir || !serverProcessId())
        return fail(QStringLiteral("the cluster is not running"));
    const QString modeName = mode == StopMode::Fast ? QStringLiteral("fast") : QStringLiteral("immediate");
    return runTool(
        m_bin + "/pg_ctl",
        {"stop", "-D", dataDirectory(), "-m", modeName, "-w", "-t", QString::number(kStopTimeoutSeconds)},
        true, (kStopTimeoutSeconds + 5) * 1000);
}

bool PostgresCluster::resume(int timeoutMs) {
    if (!m_dir || m_port == 0)
        return fail(QStringLiteral("the cluster is not started"));
    const QDeadlineTimer deadline(timeoutMs);
    const int seconds = std::max(1, remainingMs(deadline) / 1000);
    if (!runTool(m_bin + "/pg_ctl",
                 {"start", "-D", dataDirectory(), "-l", serverLog(), "-w", "-t", QString::number(seconds)},
                 true, remainingMs(deadline) + 5000))
        return false;
    return awaitReady(m_bin, deadline);
}

bool PostgresCluster::createDatabase(const QString& name, int timeoutMs) {
    if (!m_dir || m_port == 0)
        return fail(QStringLiteral("the cluster is not started"));
    return runTool(m_bin + "/createdb",
                   {"-h", "127.0.0.1", "-p", QString::number(m_port), "-U", userName(), name}, false,
                   timeoutMs);
}

void PostgresCluster::stop() {
    if (!m_dir)
        return;
    if (const qint64 pid = serverProcessId()) {
        runTool(
            m_bin + "/pg_ctl",
            {"stop", "-D", dataDirectory(), "-m", "fast", "-w", "-t", QString::number(kStopTimeoutSeconds)},
            true, (kStopTimeoutSeconds + 5) * 1000);
        if (serverProcessId() == pid) // it would not stop: its backends end when it is gone
            ::kill(static_cast<pid_t>(pid), SIGKILL);
    }
    m_dir.reset(); // removes the data, the socket and the log
    m_portReservation.release();
    m_port = 0;
}

bool PostgresCluster::runTool(const QString& program, const QStringList& arguments, bool asServerUser,
                              int timeoutMs) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setWorkingDirectory(m_dir ? m_dir->path() : QDir::tempPath());
    if (asServerUser && runningAsRoot())
        process.start(QStringLiteral("runuser"), QStringList{"-u", "postgres", "--", program} + arguments);
    else
        process.start(program, arguments);
    const QString name = QFileInfo(program).fileName();
    if (!process.waitForStarted(timeoutMs))
        return fail("cannot run " + process.program() + ": " + process.errorString());
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        return fail(name + " did not finish within " + QString::number(timeoutMs / 1000) +
                    " s: " + QString::fromLocal8Bit(process.readAll()));
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return fail(name + " failed (exit code " + QString::number(process.exitCode()) +
                    "): " + QString::fromLocal8Bit(process.readAll()).trimmed());
    return true;
}

} // namespace jobdeck
