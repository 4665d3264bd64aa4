// The real jobdeckd when its disk fails under it: a data directory that becomes immutable (chattr +i) or
// loses its WAL index gets errors answered and the process alive (never SIGBUS); on a full disk a request id
// is handed out only once it is recorded, so none is unknown after a restart, SIGTERM ends with one clear
// line, and the answers say that the disk is full. A full disk is a real one: a small tmpfs mounted on the
// data directory.
#include "core/wire/ApiStatus.h"
#include "core/wire/DatabaseFaults.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <unistd.h>

using namespace jobdeck;
using namespace jobdeck::teststatus;

namespace {

// Runs a command; true when it exited 0.
bool runCommand(const QString& program, const QStringList& arguments, QString* output = nullptr) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    const bool finished = process.waitForFinished(30000);
    if (output)
        *output = QString::fromUtf8(process.readAll()).trimmed();
    return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

// The data directory and its regular files (chattr does not take the run wake-up FIFO).
QStringList dirAndFiles(const QString& dir) {
    QStringList paths{dir};
    for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        paths << dir + "/" + name;
    return paths;
}

// Undoes `chattr +i` on the way out, so the temporary directory can be removed.
struct Mutable {
    QStringList paths;
    ~Mutable() { runCommand("chattr", QStringList{"-i"} + paths); }
};

// Unmounts the tmpfs on the way out (after the service stopped).
struct Mounted {
    TestService& service;
    QString dir;
    ~Mounted() {
        service.stop();
        runCommand("umount", {"-l", dir});
    }
};

HttpHeaders wait10() {
    return {{"Prefer", "wait=10"}};
}

HttpResult post(const TestService& service, const ApiCredentials& who, const QString& statement,
                const HttpHeaders& extra = {}) {
    const nlohmann::json body{{"statement", statement.toStdString()}};
    return request(service.url("/v1/resource/"), "POST", QByteArray::fromStdString(body.dump()),
                   who.headers() + extra);
}

// Requests of every kind after the fault: each gets an HTTP answer, whatever its status.
void sendRequestsAfterTheFault(const TestService& service, const ApiCredentials& admin) {
    const QStringList statements{"SHOW CLUSTERS", "DESCRIBE CLUSTER main",
                                 "CREATE CLUSTER second TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1",
                                 "SHOW AUDIT_LOG"};
    for (int round = 0; round < 3; ++round) {
        for (const QString& statement : statements) {
            const HttpResult waited = post(service, admin, statement, wait10());
            QVERIFY2(waited.status != 0, qPrintable(statement + ": " + waited.error));
            const HttpResult polled = post(service, admin, statement);
            QVERIFY2(polled.status != 0, qPrintable(statement + ": " + polled.error));
        }
        const HttpResult health = request(service.url("/v1/health"), "GET");
        QVERIFY2(health.status != 0, qPrintable(health.error));
    }
}

// Starts the service and writes a cluster `main` with a new admin key, which it returns (invalid on
// failure, with lastError()).
ApiCredentials startWithACluster(TestService& service) {
    if (!service.start())
        return {};
    const ApiCredentials admin = service.createKey("alpha", "admin");
    if (!admin.isValid() ||
        !statementSucceeds(service, admin, "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"))
        return {};
    return admin;
}

} // namespace

class TestDiskFaults : public QObject {
    Q_OBJECT

private slots:
    void immutableDataDirectoryAnswersErrorsAndStaysUp() {
        if (::geteuid() != 0)
            QSKIP("chattr +i needs root (CAP_LINUX_IMMUTABLE); walIndexCutShortAnswersErrorsAndStaysUp shows "
                  "the same fault without it");
        TestService service;
        const ApiCredentials admin = startWithACluster(service);
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));

        const Mutable restore{dirAndFiles(service.dataDir())};
        QString output;
        QVERIFY2(runCommand("chattr", QStringList{"+i"} + restore.paths, &output), qPrintable(output));
        sendRequestsAfterTheFault(service, admin);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(service.isRunning(), qPrintable(service.errorOutput().right(2000)));
        QVERIFY(!service.errorOutput().contains("Bus error"));

        // Made usable again, a restart finds everything written before the fault.
        QVERIFY(runCommand("chattr", QStringList{"-i"} + restore.paths));
        QVERIFY(service.stop() != -1);
        QVERIFY2(service.restart(), qPrintable(service.lastError()));
        QCOMPARE(statusOf(runStatement(service, admin, "DESCRIBE CLUSTER main")), kSuccess);
    }

    void walIndexCutShortAnswersErrorsAndStaysUp() {
        TestService service;
        const ApiCredentials admin = startWithACluster(service);
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));

        // A WAL index that loses its pages under the mapping (what a failing disk does to it): every
        // access to the mapped file faults.
        QVERIFY(QFile::resize(service.dataDir() + "/jobdeck.db-shm", 0));
        sendRequestsAfterTheFault(service, admin);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(service.isRunning(), qPrintable(service.errorOutput().right(2000)));
        const HttpResult after = post(service, admin, "SHOW CLUSTERS", wait10());
        QVERIFY2(after.status == 500 || after.status == 200, qPrintable(QString::number(after.status)));
        QVERIFY2(service.errorOutput().contains("WAL index (-shm file) can no longer be written or read"),
                 qPrintable(service.errorOutput().right(2000)));

        QVERIFY(service.stop() != -1);
        QVERIFY2(service.restart(), qPrintable(service.lastError()));
        QCOMPARE(statusOf(runStatement(service, admin, "DESCRIBE CLUSTER main")), kSuccess);
    }

    void fullDiskNeverHandsOutAnIdItForgets() {
        if (::geteuid() != 0)
            QSKIP("mounting a small tmpfs (a real full disk) needs root");
        TestService service;
        QVERIFY(QDir().mkpath(service.dataDir()));
        QString output;
        QVERIFY2(runCommand("mount", {"-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", service.dataDir()},
                            &output),
                 qPrintable(output));
        const Mounted unmount{service, service.dataDir()};
        const ApiCredentials admin = startWithACluster(service);
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));

        // Fill what is left of the disk.
        const QString filler = service.dataDir() + "/filler";
        runCommand("dd", {"if=/dev/zero", "of=" + filler, "bs=64k"});
        QStringList handedOut;
        int refused = 0;
        for (int i = 0; i < 20; ++i) {
            const HttpResult answer = post(service, admin, "SHOW CLUSTERS");
            if (answer.status == 200) {
                handedOut << QString::fromStdString(answer.json().value("requestId", ""));
            } else {
                QCOMPARE(answer.status, 503);
                QVERIFY2(answer.json().value("error", "").starts_with("The request could not be recorded"),
                         answer.body.constData());
                ++refused;
            }
        }
        qInfo("full disk: %lld ids handed out, %d requests refused", static_cast<long long>(handedOut.size()),
              refused);
        QVERIFY(refused > 0);

        // SIGTERM on the full disk: a normal exit, and a clear last line when it could not write.
        const int status = service.stop();
        QVERIFY(status != -1);
        const QString log = service.errorOutput();
        QVERIFY2(!log.contains("no transaction is active"), qPrintable(log.right(2000)));
        if (status != 0)
            QVERIFY2(log.trimmed().section('\n', -1).startsWith("jobdeckd: stopped, but"),
                     qPrintable(log.right(2000)));

        // With room again, every id handed out is still answered.
        QVERIFY(QFile::remove(filler));
        QVERIFY2(service.restart(), qPrintable(service.lastError()));
        for (const QString& id : handedOut) {
            const HttpResult polled = request(service.url("/v1/status/" + id), "GET", {}, admin.headers());
            QVERIFY2(polled.status == 200, qPrintable(id + ": " + QString::number(polled.status)));
        }
    }

    // What a client is told on a full disk says so: the 503 of a request that could not be recorded,
    // and the FAILED status of a write that could not be committed.
    void fullDiskIsNamedInTheAnswers() {
        if (::geteuid() != 0)
            QSKIP("mounting a small tmpfs (a real full disk) needs root");
        TestService service;
        QVERIFY(QDir().mkpath(service.dataDir()));
        QString output;
        QVERIFY2(runCommand("mount", {"-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", service.dataDir()},
                            &output),
                 qPrintable(output));
        const Mounted unmount{service, service.dataDir()};
        const ApiCredentials admin = startWithACluster(service);
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));
        const QString filler = service.dataDir() + "/filler";
        runCommand("dd", {"if=/dev/zero", "of=" + filler, "bs=64k"});

        const std::string notRecorded = requestNotRecordedMessage(DatabaseFault::DiskFull);
        int named = 0;
        for (int i = 0; i < 10; ++i) {
            const QString write =
                QString("CREATE CLUSTER full%1 TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1").arg(i);
            for (const HttpResult& answer :
                 {post(service, admin, write, wait10()), post(service, admin, write)}) {
                const nlohmann::json body = answer.json();
                if (answer.status == 503) {
                    QVERIFY2(body.value("error", "") == notRecorded, answer.body.constData());
                    ++named;
                } else if (answer.status == 200 && body.value("apiStatus", "") == kFailed) {
                    const std::string id = body.value("requestId", "");
                    QVERIFY2(body.value("errorMessage", "") ==
                                 *databaseFailure(id, DatabaseFault::DiskFull).errorMessage,
                             answer.body.constData());
                    ++named;
                } else {
                    QCOMPARE(answer.status, 200); // an id handed out, or an answer from before the fill
                }
            }
        }
        QVERIFY2(named > 0, "no answer said that the disk is full");
        QVERIFY(QFile::remove(filler));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestDiskFaults)
#include "tst_diskfaults.moc"
