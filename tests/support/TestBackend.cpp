#include "tests/support/TestBackend.h"

#include "tests/support/PostgresCluster.h"

#include <QCoreApplication>
#include <QDebug>
#include <QMutex>
#include <QProcess>

#include <unistd.h>

namespace jobdeck {
namespace {

// Kills the cluster (immediate shutdown) and removes its directory once the test process is gone,
// unless its own exit already did: for a crash, an abort by QTest's watchdog, or ctest's SIGKILL.
// A zombie counts as gone (a container's init may never reap it). $1 test pid, $2 server pid, $3 dir.
const char* const kWatchdogScript =
    "alive() { [ -r /proc/$1/stat ] && ! grep -q '^[0-9]* ([^)]*) Z' /proc/$1/stat; }\n"
    "while alive \"$1\"; do sleep 1; done\n"
    "[ -f \"$3/data/PG_VERSION\" ] || exit 0\n"
    "if [ \"$(head -n 1 \"$3/data/postmaster.pid\" 2>/dev/null)\" = \"$2\" ]; then\n"
    "  kill -QUIT \"$2\" 2>/dev/null\n"
    "  i=0; while alive \"$2\" && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done\n"
    "fi\n"
    "rm -rf \"$3\"\n";

struct SharedCluster {
    QMutex mutex;
    PostgresCluster cluster; // its destructor stops it at exit if the post routine did not run
    bool attempted = false;
    QString startError;
    int databases = 0;
};

SharedCluster& sharedCluster() {
    static SharedCluster shared;
    return shared;
}

// While the application object still exists (QTest's main destroys it after the test object, so
// every TestService has stopped its jobdeckd by then).
void stopSharedCluster() {
    SharedCluster& shared = sharedCluster();
    const QMutexLocker lock(&shared.mutex);
    shared.cluster.stop();
}

void startWatchdog(const PostgresCluster& cluster) {
    QProcess watchdog;
    watchdog.setProgram(QStringLiteral("/bin/sh"));
    watchdog.setArguments({QStringLiteral("-c"), QString::fromLatin1(kWatchdogScript),
                           QStringLiteral("jobdeck-postgres-watchdog"), QString::number(::getpid()),
                           QString::number(cluster.serverProcessId()), cluster.directory()});
    // No inherited pipe may keep ctest waiting for the test's output after it ended.
    watchdog.setStandardInputFile(QProcess::nullDevice());
    watchdog.setStandardOutputFile(QProcess::nullDevice());
    watchdog.setStandardErrorFile(QProcess::nullDevice());
    watchdog.startDetached();
}

bool startSharedCluster(SharedCluster& shared) {
    if (shared.attempted)
        return shared.cluster.isStarted();
    shared.attempted = true;
    if (!shared.cluster.start(60000)) {
        shared.startError =
            QStringLiteral("the private PostgreSQL cluster of this test process did not start: ") +
            shared.cluster.lastError();
        // Also here, once, for tests that only check that a key or a service is there.
        qWarning().noquote() << shared.startError;
        return false;
    }
    if (QCoreApplication::instance())
        qAddPostRoutine(stopSharedCluster);
    startWatchdog(shared.cluster);
    return true;
}

QByteArray configuredBackend() {
    return qgetenv("JOBDECK_TEST_BACKEND").trimmed().toLower();
}

} // namespace

TestBackend::Kind TestBackend::kind() {
    return configuredBackend() == "postgresql" ? Kind::Postgresql : Kind::Sqlite;
}

QString TestBackend::configurationError() {
    const QByteArray value = configuredBackend();
    if (value.isEmpty() || value == "sqlite" || value == "postgresql")
        return {};
    return QStringLiteral("JOBDECK_TEST_BACKEND=%1 names no backend: use sqlite or postgresql")
        .arg(QString::fromUtf8(value));
}

QString TestBackend::name() {
    return isPostgresql() ? QStringLiteral("postgresql") : QStringLiteral("sqlite");
}

QString TestBackend::createPostgresDatabase(QString& error) {
    SharedCluster& shared = sharedCluster();
    const QMutexLocker lock(&shared.mutex);
    if (!startSharedCluster(shared)) {
        error = shared.startError;
        return {};
    }
    const QString database = QStringLiteral("jobdeck_%1").arg(++shared.databases);
    if (!shared.cluster.createDatabase(database)) {
        error = QStringLiteral("cannot create the database %1 on the private PostgreSQL cluster: %2")
                    .arg(database, shared.cluster.lastError());
        return {};
    }
    return shared.cluster.connectionUri(database);
}

std::optional<QStringList> TestBackend::freshDatabaseArguments(QString& error) {
    if (error = configurationError(); !error.isEmpty())
        return std::nullopt;
    if (!isPostgresql())
        return QStringList{};
    const QString uri = createPostgresDatabase(error);
    if (uri.isEmpty())
        return std::nullopt;
    return QStringList{QStringLiteral("--database"), uri};
}

const PostgresCluster* TestBackend::postgresCluster() {
    SharedCluster& shared = sharedCluster();
    const QMutexLocker lock(&shared.mutex);
    return shared.cluster.isStarted() ? &shared.cluster : nullptr;
}

} // namespace jobdeck
