// The database password around PostgreSQL (docs/scale-out.md, "The database password"): drivers get a
// documented environment and never jobdeckd's PG* settings; the password comes from a file, is hidden
// from jobdeckd's own command line when given there, and no message shows it in any form. The real
// jobdeckd throughout, on a private PostgreSQL cluster with password authentication for one role.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/PostgresCluster.h"
#include "tests/support/ServiceDatabase.h"
#include "tst_runsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUuid>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

constexpr auto kRole = "jobdeck_pw_role";
constexpr auto kRolePassword = "S3cret/@pw+=";

QString writeFile(const QString& path, const QByteArray& text, QFile::Permissions permissions) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    file.write(text);
    file.close();
    file.setPermissions(permissions);
    return path;
}

const QFile::Permissions kPrivate = QFile::ReadOwner | QFile::WriteOwner;
const QFile::Permissions kReadableByAll = kPrivate | QFile::ReadGroup | QFile::ReadOther;

// jobdeckd with `arguments` in `workDir`; its exit status (-1: still running after the timeout, then
// killed) and stderr.
TestService::Exit runIn(const QString& workDir, const QStringList& arguments, int timeoutMs = 30000) {
    QProcess process;
    process.setWorkingDirectory(workDir);
    process.start(QStringLiteral(JOBDECKD_PATH), arguments);
    TestService::Exit exit;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
    } else if (process.exitStatus() == QProcess::NormalExit) {
        exit.status = process.exitCode();
    }
    exit.out = process.readAllStandardOutput();
    exit.err = process.readAllStandardError();
    return exit;
}

} // namespace

class TestDatabasePassword final : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_baseUri; // postgresql://jobdeck@127.0.0.1:<port>/<database> (trust)
    quint16 m_port = 0;

    // postgresql://<role>@127.0.0.1:<port>/<database of the role>, which asks for kRolePassword.
    QString roleUri() const {
        return QStringLiteral("postgresql://%1@127.0.0.1:%2/%1").arg(kRole).arg(m_port);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_tmp.isValid());
        QString error;
        m_baseUri = TestBackend::createPostgresDatabase(error);
        QVERIFY2(!m_baseUri.isEmpty(), qPrintable(error));
        const PostgresCluster* cluster = TestBackend::postgresCluster();
        QVERIFY(cluster);
        m_port = cluster->port();
        // The role and its database ask for a password over TCP; everyone else stays trusted.
        ServiceDatabase admin(m_baseUri);
        QVERIFY2(admin.isOpen(), qPrintable(admin.lastError()));
        QVERIFY2(admin.execute(
                     QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD '%2'").arg(kRole, kRolePassword)) >= 0,
                 qPrintable(admin.lastError()));
        QVERIFY2(admin.execute(QStringLiteral("CREATE DATABASE %1 OWNER %1").arg(kRole)) >= 0,
                 qPrintable(admin.lastError()));
        QFile hba(cluster->directory() + QStringLiteral("/data/pg_hba.conf"));
        QVERIFY(hba.open(QIODevice::ReadOnly));
        const QByteArray rules = hba.readAll();
        hba.close();
        QVERIFY(hba.open(QIODevice::WriteOnly | QIODevice::Truncate));
        hba.write(QStringLiteral("host all %1 127.0.0.1/32 scram-sha-256\n").arg(kRole).toUtf8() + rules);
        hba.close();
        QVERIFY2(!admin.value(QStringLiteral("SELECT pg_reload_conf()")).isNull(),
                 qPrintable(admin.lastError()));
    }

    // The run log of a job whose driver prints its environment, run by a jobdeckd started with
    // `arguments` and `environment` on top of the test's own; empty (with a failure) when it did not run.
    QByteArray environmentLogOfARun(const QStringList& arguments,
                                    const QList<QPair<QByteArray, QByteArray>>& environment,
                                    QByteArray& onDisk) {
        for (const auto& [name, value] : environment)
            qputenv(name.constData(), value);
        TestService service(arguments);
        const bool started = service.start();
        for (const auto& [name, value] : environment)
            qunsetenv(name.constData());
        if (!started) {
            qWarning("%s", qPrintable(service.lastError()));
            return {};
        }
        Project project;
        if (!project.create(service) ||
            !createClusterAndPythonJob(service, project.op, "envc", "env", {"--print-environment"}))
            return {};
        const QString runId = runIdOf(runJob(service, project.op, "env"));
        const auto run = waitForRun(service, project.op, "env", runId, hasEnded(), 60000);
        if (run.is_null() || run.value("status", std::string()) != kCompleted)
            return {};
        QFile file(service.dataDir() + "/runs/" + runId + "/driver.log");
        onDisk = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        // As a viewer reads it.
        return fullLog(service, service.createKey("runs", "viewer"), "env", runId);
    }

    // jobdeckd's environment holds PGPASSWORD and other PG* settings (and a variable no list names):
    // the driver gets none of them, but what Spark and Python need and the run's own variables.
    void driversNeverSeeTheDatabaseSettings() {
        const QByteArray marker = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
        QByteArray onDisk;
        const QByteArray shown = environmentLogOfARun({},
                                                      {{"PGPASSWORD", "pgpw-" + marker},
                                                       {"PGAPPNAME", "pgapp-" + marker},
                                                       {"JOBDECK_PROBE_BAR", "bar-" + marker}},
                                                      onDisk);
        QVERIFY(!shown.isEmpty());
        for (const QByteArray& log : {shown, onDisk}) {
            QVERIFY2(log.contains("env: PATH="), log.constData());
            QVERIFY2(log.contains("env: ONEHOUSE_JOB_RUN_ID="), log.constData());
            QVERIFY2(log.contains("env: HUDI_CONF_DIR="), log.constData());
            QVERIFY2(!log.contains("env: PG"), log.constData());
            QVERIFY2(!log.contains(marker), log.constData());
        }
    }

    // --driver-env NAME adds a variable of jobdeckd's environment to what drivers get.
    void driverEnvPassesAName() {
        const QByteArray marker = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
        QByteArray onDisk;
        const QByteArray shown =
            environmentLogOfARun({"--driver-env", "JOBDECK_PROBE_FOO", "--driver-env", "JOBDECK_PREFIX_*"},
                                 {{"JOBDECK_PROBE_FOO", "foo-" + marker},
                                  {"JOBDECK_PREFIX_X", "x-" + marker},
                                  {"JOBDECK_PROBE_BAR", "bar-" + marker},
                                  {"PGPASSWORD", "pgpw-" + marker}},
                                 onDisk);
        QVERIFY(!shown.isEmpty());
        QVERIFY2(shown.contains("env: JOBDECK_PROBE_FOO=foo-" + marker), shown.constData());
        QVERIFY2(shown.contains("env: JOBDECK_PREFIX_X=x-" + marker), shown.constData());
        QVERIFY2(!shown.contains("bar-" + marker) && !shown.contains("pgpw-" + marker), shown.constData());
    }

    void driverEnvNeverTakesDatabaseVariables_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("PGPASSWORD") << "PGPASSWORD"
                                    << "(PG*) are never passed to drivers";
        QTest::newRow("PG prefix") << "PG*"
                                   << "(PG*) are never passed to drivers";
        QTest::newRow("not a name") << "A B"
                                    << "expected a variable name";
    }

    void driverEnvNeverTakesDatabaseVariables() {
        QFETCH(QString, name);
        QFETCH(QString, message);
        const auto exit = TestService::runJobdeckd({"serve", "--listen", "127.0.0.1:0", "--data-dir",
                                                    m_tmp.filePath("refused"), "--driver-env", name});
        QCOMPARE(exit.status, 1);
        QVERIFY2(exit.err.contains(message.toUtf8()), exit.err.constData());
    }

    // The password from --database-password-file (the role's database asks for it), never from argv.
    void thePasswordComesFromAFile() {
        const QString file = writeFile(m_tmp.filePath("pw"), QByteArray(kRolePassword) + "\n", kPrivate);
        TestService service({"--database", roleUri(), "--database-password-file", file});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QCOMPARE(request(service.url("/v1/health"), "GET").status, 200);
        QVERIFY2(!service.errorOutput().contains("chmod 600"), qPrintable(service.errorOutput()));
        QCOMPARE(service.stop(), 0);

        // Others may read it: it still serves, with a warning that says how to fix it.
        writeFile(file, QByteArray(kRolePassword) + "\n", kReadableByAll);
        TestService readable({"--database", roleUri(), "--database-password-file", file});
        QVERIFY2(readable.start(), qPrintable(readable.lastError()));
        QVERIFY2(readable.errorOutput().contains("chmod 600 " + file), qPrintable(readable.errorOutput()));
        QCOMPARE(readable.stop(), 0);

        // The wrong password: refused by the server, and the message does not show it.
        const QString wrong = writeFile(m_tmp.filePath("wrong"), "Wr0ngPassw0rd\n", kPrivate);
        const auto refused = runIn(m_tmp.path(), {"serve", "--listen", "127.0.0.1:0", "--data-dir",
                                                  m_tmp.filePath("wrong-data"), "--database", roleUri(),
                                                  "--database-password-file", wrong});
        QCOMPARE(refused.status, 1);
        QVERIFY2(refused.err.contains("password authentication failed"), refused.err.constData());
        QVERIFY2(!refused.err.contains("Wr0ngPassw0rd"), refused.err.constData());

        // A file that is missing, a directory, or empty; a password given twice; SQLite.
        const QString empty = writeFile(m_tmp.filePath("empty"), "", kPrivate);
        const QList<QPair<QStringList, QByteArray>> cases{
            {{"--database", roleUri(), "--database-password-file", m_tmp.filePath("missing")},
             "cannot read the database password file"},
            {{"--database", roleUri(), "--database-password-file", m_tmp.path()}, "Is a directory"},
            {{"--database", roleUri(), "--database-password-file", empty}, "is empty"},
            {{"--database", "postgresql://" + QString(kRole) + ":x@127.0.0.1:1/db",
              "--database-password-file", file},
             "give it once"},
            {{"--database", "sqlite:" + m_tmp.filePath("s.db"), "--database-password-file", file},
             "a SQLite database has no password"}};
        for (const auto& [arguments, message] : cases) {
            const auto exit = runIn(m_tmp.path(), QStringList{"serve", "--listen", "127.0.0.1:0",
                                                              "--data-dir", m_tmp.filePath("bad-data")} +
                                                      arguments);
            QCOMPARE(exit.status, 1);
            QVERIFY2(exit.err.contains(message), exit.err.constData());
            QVERIFY2(!exit.err.contains(kRolePassword), exit.err.constData());
        }
    }

    // A password given in --database on the command line still works, is warned about, and is gone
    // from the process's command line (what `ps` shows every user of the host) once it serves. A raw
    // '@' and '/' in it are read as the password's, not the host's.
    void aPasswordOnTheCommandLineIsHidden() {
        const QString uri =
            QStringLiteral("postgresql://%1:%2@127.0.0.1:%3/%1").arg(kRole, kRolePassword).arg(m_port);
        TestService service({"--database", uri});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QCOMPARE(request(service.url("/v1/health"), "GET").status, 200);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(service.processId()));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        const QByteArray shown = cmdline.readAll();
        QVERIFY2(shown.contains("--database"), shown.constData());
        QVERIFY2(!shown.contains("S3cret"), shown.constData());
        QVERIFY2(service.errorOutput().contains("the database password is on the command line"),
                 qPrintable(service.errorOutput()));
        QVERIFY2(!service.errorOutput().contains("S3cret"), qPrintable(service.errorOutput()));
        QCOMPARE(service.stop(), 0);
    }

    // Every form a password can take in --database, with a database that cannot be reached: one clear
    // line that shows none of it; a libpq keyword string is PostgreSQL, never a SQLite file named with
    // the password.
    void errorsMaskEveryForm_data() {
        QTest::addColumn<QString>("database");
        QTest::addColumn<QStringList>("secrets");
        QTest::newRow("user info") << "postgresql://jobdeck:Pw1Secret@127.0.0.1:1/db"
                                   << QStringList{"Pw1Secret"};
        QTest::newRow("query parameter")
            << "postgresql://jobdeck@127.0.0.1:1/db?password=Pw2Secret" << QStringList{"Pw2Secret"};
        QTest::newRow("query sslpassword")
            << "postgres://jobdeck@127.0.0.1:1/db?sslmode=disable&sslpassword=Pw3Secret"
            << QStringList{"Pw3Secret"};
        QTest::newRow("raw @") << "postgresql://jobdeck:Pw4@rawpiece4@127.0.0.1:1/db"
                               << QStringList{"Pw4", "rawpiece4"};
        QTest::newRow("raw / and @") << "postgresql://jobdeck:Pw5/slashpiece5@x@127.0.0.1:1/db"
                                     << QStringList{"Pw5", "slashpiece5"};
        QTest::newRow("percent-encoded")
            << "postgresql://jobdeck:Pw6%40enc6@127.0.0.1:1/db" << QStringList{"Pw6", "enc6"};
        QTest::newRow("keyword string")
            << "host=127.0.0.1 port=1 dbname=db user=jobdeck password=Pw7Secret" << QStringList{"Pw7Secret"};
        QTest::newRow("keyword string, quoted")
            << "host=127.0.0.1 port=1 password='Pw8 quoted' dbname=db" << QStringList{"Pw8", "quoted"};
        QTest::newRow("keyword-shaped, unknown word")
            << "hots=127.0.0.1 password=Pw9Secret" << QStringList{"Pw9Secret"};
    }

    void errorsMaskEveryForm() {
        QFETCH(QString, database);
        QFETCH(QStringList, secrets);
        QTemporaryDir work;
        for (const QString& command : {QStringLiteral("serve"), QStringLiteral("keys")}) {
            const QStringList arguments =
                command == "serve" ? QStringList{"serve",
                                                 "--listen",
                                                 "127.0.0.1:0",
                                                 "--data-dir",
                                                 work.filePath("data"),
                                                 "--database",
                                                 database}
                                   : QStringList{"keys",       "create", "--data-dir", work.filePath("data"),
                                                 "--database", database, "--project",  "p",
                                                 "--role",     "admin"};
            const auto exit = runIn(work.path(), arguments, 20000);
            QCOMPARE(exit.status, 1);
            QCOMPARE(exit.err.count('\n'), exit.err.contains("warn") ? 2 : 1);
            for (const QString& secret : secrets)
                QVERIFY2(!exit.err.contains(secret.toUtf8()), exit.err.constData());
            QVERIFY2(exit.err.contains("****"), exit.err.constData());
            // Nothing was created beside the data directory: no SQLite file named after the value.
            const QStringList created = QDir(work.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
            QVERIFY2(created.isEmpty() || created == QStringList{"data"}, qPrintable(created.join(", ")));
        }
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestDatabasePassword)
#include "tst_databasepassword.moc"
