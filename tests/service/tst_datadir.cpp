// The data directory of the real jobdeckd: one `serve` per directory, an emptied or deleted database is
// refused rather than silently started afresh (the marker a new database leaves; `--init` makes one on
// purpose), and what is written there is private to the service's user.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "core/wire/DatabaseFaults.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <sys/stat.h>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

// The permission bits of `path` (-1 when it cannot be read).
int modeOf(const QString& path) {
    struct stat info {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return -1;
    return static_cast<int>(info.st_mode & 07777);
}

QString octal(int mode) {
    return QString::number(mode, 8);
}

// A project with a cluster (`with`: its WITH clause) and a job that has run to its end; the run's id,
// empty on failure (reported).
QString runOneJob(TestService& service, const QString& with = {}) {
    const ApiCredentials admin = service.createKey("alpha", "admin");
    if (!admin.isValid()) {
        qWarning("%s", qPrintable(service.lastError()));
        return {};
    }
    if (!statementSucceeds(service, admin,
                           "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1" + with) ||
        !statementSucceeds(service, admin,
                           "CREATE JOB quick TYPE = 'PYTHON' PARAMETERS = " + tuple({kPythonApp}) +
                               " CLUSTER = 'main' MAX_CONCURRENT_RUNS = 1"))
        return {};
    const QString runId = runIdOf(runJob(service, admin, "quick"));
    if (runId.isEmpty() || waitForRun(service, admin, "quick", runId, hasEnded()).is_null())
        return {};
    return runId;
}

} // namespace

class TestDataDir : public QObject {
    Q_OBJECT

private slots:
    void secondServeOnTheSameDataDirRefusesToStart() {
        TestService first;
        QVERIFY2(first.start(), qPrintable(first.lastError()));
        // Bounded: without the lock the second one would serve until the timeout and be killed.
        const auto second = TestService::runJobdeckd(
            {"serve", "--listen", "127.0.0.1:0", "--data-dir", first.dataDir()}, 15000);
        QVERIFY2(second.status > 0, qPrintable("second serve: status " + QString::number(second.status) +
                                               ", stderr: " + QString::fromUtf8(second.err)));
        const QStringList lines = QString::fromUtf8(second.err).trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().contains("is already served by another jobdeckd (pid " +
                                        QString::number(first.processId()) + ")"),
                 qPrintable(lines.first()));
        QVERIFY(first.isRunning());
        // Once the first has stopped, the directory can be served again.
        QCOMPARE(first.stop(), 0);
        QVERIFY2(first.start(), qPrintable(first.lastError()));
    }

    void emptiedDatabaseIsRefusedWhereRunsWere() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY(!runOneJob(service).isEmpty());
        QCOMPARE(service.stop(), 0);

        const QString db = service.dataDir() + "/jobdeck.db";
        QVERIFY(QFile::resize(db, 0));
        QVERIFY(!QFile::exists(db + "-wal") || QFileInfo(db + "-wal").size() == 0);
        for (const QStringList& command :
             {QStringList{"serve", "--listen", "127.0.0.1:0", "--data-dir", service.dataDir()},
              QStringList{"keys", "create", "--data-dir", service.dataDir(), "--project", "beta", "--role",
                          "admin"}}) {
            const auto exit = TestService::runJobdeckd(command, 15000);
            QVERIFY2(exit.status > 0,
                     qPrintable(command.first() + ": status " + QString::number(exit.status)));
            const QStringList lines = QString::fromUtf8(exit.err).trimmed().split('\n');
            QCOMPARE(lines.size(), 1);
            QVERIFY2(lines.first().contains("is empty (0 bytes) but the data directory"),
                     qPrintable(lines.first()));
            QCOMPARE(QFileInfo(db).size(), 0); // nothing was written to it
        }
    }

    void deletedDatabaseIsRefusedUntilInit() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY(!runOneJob(service).isEmpty());
        QCOMPARE(service.stop(), 0);

        const QString db = service.dataDir() + "/jobdeck.db";
        for (const char* suffix : {"", "-wal", "-shm"})
            QFile::remove(db + suffix);
        for (const QStringList& command :
             {QStringList{"serve", "--listen", "127.0.0.1:0", "--data-dir", service.dataDir()},
              QStringList{"keys", "create", "--data-dir", service.dataDir(), "--project", "beta", "--role",
                          "admin"}}) {
            const auto exit = TestService::runJobdeckd(command, 15000);
            QVERIFY2(exit.status > 0,
                     qPrintable(command.first() + ": status " + QString::number(exit.status)));
            const QStringList lines = QString::fromUtf8(exit.err).trimmed().split('\n');
            QCOMPARE(lines.size(), 1);
            QCOMPARE(lines.first(), "jobdeckd: " + QString::fromStdString(missingDatabaseMessage(
                                                       db.toStdString(), service.dataDir().toStdString())));
            QVERIFY(!QFile::exists(db)); // nothing was created
        }

        // An explicit --init makes a new, empty database there.
        service.setExtraArguments({"--init"});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials admin = service.createKey("gamma", "admin");
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));
        QVERIFY(statementSucceeds(service, admin, "SHOW CLUSTERS"));
    }

    void dataDirMadeBeforeTheMarkerGetsIt() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY(!runOneJob(service).isEmpty());
        QCOMPARE(service.stop(), 0);
        const QString marker = service.dataDir() + "/jobdeckd.created";
        QVERIFY(QFile::remove(marker));
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY(QFile::exists(marker));
        QCOMPARE(octal(modeOf(marker)), octal(0600));
    }

    void freshDataDirWithAnEmptyDatabaseFileStarts() {
        TestService service;
        QVERIFY(QDir().mkpath(service.dataDir()));
        QFile empty(service.dataDir() + "/jobdeck.db");
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials admin = service.createKey("alpha", "admin");
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));
        QVERIFY(statementSucceeds(service, admin, "SHOW CLUSTERS"));
    }

    void filesArePrivateWhateverTheUmask() {
        const mode_t previous = ::umask(022);
        TestService service;
        const bool started = service.start();
        ::umask(previous);
        QVERIFY2(started, qPrintable(service.lastError()));
        const QString runId = runOneJob(service, " WITH 'hoodie.insert.shuffle.parallelism' = '10'");
        QVERIFY(!runId.isEmpty());

        const QString dir = service.dataDir();
        QCOMPARE(octal(modeOf(dir)), octal(0700));
        for (const char* name : {"jobdeck.db", "jobdeck.db-wal", "jobdeck.db-shm", "jobdeckd.lock"})
            QVERIFY2(modeOf(dir + "/" + name) == 0600,
                     qPrintable(QString(name) + " is " + octal(modeOf(dir + "/" + name))));
        // The run's directory and everything in it: hudi-defaults.conf, the driver's log, status files.
        int runFiles = 0;
        bool sawHudiDefaults = false;
        QDirIterator it(dir + "/runs", QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const int expected = it.fileInfo().isDir() ? 0700 : 0600;
            if (it.fileInfo().isDir() && it.fileInfo().fileName() != runId)
                continue; // the runs/ folder itself sits inside the private data directory
            QVERIFY2(modeOf(path) == expected, qPrintable(path + " is " + octal(modeOf(path))));
            runFiles += it.fileInfo().isFile() ? 1 : 0;
            sawHudiDefaults = sawHudiDefaults || it.fileInfo().fileName() == "hudi-defaults.conf";
        }
        QVERIFY(sawHudiDefaults);
        QVERIFY(runFiles >= 2);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestDataDir)
#include "tst_datadir.moc"
