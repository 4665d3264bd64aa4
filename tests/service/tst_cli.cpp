// The jobdeckd command line (CONTRACT §5): every failure exits non-zero with one line on stderr.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/ServiceProcess.h"
#include "tests/support/TestBackend.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <pwd.h>
#include <sys/types.h>
#include <unistd.h>

#include <thread>

using namespace jobdeck;
using jobdeck::test::nonEmptyLines;

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void help_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("top") << QStringList{"--help"} << "serve";
        QTest::newRow("serve") << QStringList{"serve", "--help"} << "--listen";
        QTest::newRow("keys") << QStringList{"keys", "--help"} << "create";
        QTest::newRow("keys create") << QStringList{"keys", "create", "--help"} << "--role";
        QTest::newRow("keys list") << QStringList{"keys", "list", "--help"} << "--project";
        QTest::newRow("keys revoke") << QStringList{"keys", "revoke", "--help"} << "API_KEY";
        QTest::newRow("backup") << QStringList{"backup", "--help"} << "--to";
        QTest::newRow("restore") << QStringList{"restore", "--help"} << "--from";
    }

    void help() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const auto exit = TestService::runJobdeckd(arguments);
        QCOMPARE(exit.status, 0);
        QVERIFY2(QString::fromUtf8(exit.out).contains(mentions), exit.out.constData());
        // Commands that open the database offer both backends.
        if (arguments.size() > 2 || arguments.contains(QStringLiteral("serve")))
            QVERIFY2(QString::fromUtf8(exit.out).contains(QStringLiteral("postgresql://")),
                     exit.out.constData());
    }

    void failures_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions"); // part of the one stderr line
        const QString dir = m_tmp.filePath(QStringLiteral("data"));
        QFile file(m_tmp.filePath(QStringLiteral("a-file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QTest::newRow("no command") << QStringList{} << "";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "frobnicate";
        QTest::newRow("unknown option") << QStringList{"serve", "--frobnicate"} << "--frobnicate";
        QTest::newRow("listen: no port")
            << QStringList{"serve", "--data-dir", dir, "--listen", "127.0.0.1"} << "invalid listen address";
        QTest::newRow("listen: port too big")
            << QStringList{"serve", "--data-dir", dir, "--listen", "127.0.0.1:70000"}
            << "invalid listen address";
        QTest::newRow("listen: not an address")
            << QStringList{"serve", "--data-dir", dir, "--listen", "nowhere:80"} << "invalid listen address";
        QTest::newRow("listen: garbage port")
            << QStringList{"serve", "--data-dir", dir, "--listen", "127.0.0.1:8x"}
            << "invalid listen address";
        QTest::newRow("listen: foreign address")
            << QStringList{"serve", "--data-dir", dir, "--listen", "192.0.2.1:8420"} << "cannot listen on";
        QTest::newRow("data dir is a file")
            << QStringList{"serve", "--data-dir", file.fileName(), "--listen", "127.0.0.1:0"}
            << "not a directory";
        QTest::newRow("data dir uncreatable")
            << QStringList{"serve", "--data-dir", "/proc/jobdeck-test/data", "--listen", "127.0.0.1:0"}
            << "cannot create data directory";
        QTest::newRow("database: unknown scheme")
            << QStringList{"serve",    "--data-dir", dir, "--database", "mysql://localhost/x",
                           "--listen", "127.0.0.1:0"}
            << "database URL";
        QTest::newRow("database: postgresql")
            << QStringList{"serve",    "--data-dir", dir, "--database", "postgresql://localhost/jobdeck",
                           "--listen", "127.0.0.1:0"}
            << "postgresql";
        QTest::newRow("runner") << QStringList{"serve", "--data-dir", dir, "--runner", "yarn"} << "yarn";
        QTest::newRow("timeout") << QStringList{"serve", "--data-dir", dir, "--header-timeout", "soon"}
                                 << "soon";
        QTest::newRow("s3 map") << QStringList{"serve", "--data-dir", dir, "--s3-map", "bucket"} << "bucket";
        QTest::newRow("keys without verb") << QStringList{"keys"} << "";
        QTest::newRow("role") << QStringList{"keys",      "create", "--data-dir", dir,
                                             "--project", "p",      "--role",     "root"}
                              << "invalid role 'root'";
        QTest::newRow("no project") << QStringList{"keys", "create", "--data-dir", dir, "--role", "admin"}
                                    << "--project";
        QTest::newRow("empty project")
            << QStringList{"keys", "create", "--data-dir", dir, "--project", "", "--role", "admin"}
            << "project";
        QTest::newRow("project with a line break")
            << QStringList{"keys", "create", "--data-dir", dir, "--project", "a\nb", "--role", "admin"}
            << "control characters";
        QTest::newRow("project with a blank at its end")
            << QStringList{"keys", "create", "--data-dir", dir, "--project", "a ", "--role", "admin"}
            << "begin or end with a blank";
        QTest::newRow("project name too long")
            << QStringList{"keys",   "create", "--data-dir", dir, "--project", QString(257, QLatin1Char('p')),
                           "--role", "admin"}
            << "at most 256 characters";
        QTest::newRow("keys list: no database")
            << QStringList{"keys", "list", "--data-dir", m_tmp.filePath(QStringLiteral("none"))}
            << "there is no database";
        QTest::newRow("keys revoke: no key") << QStringList{"keys", "revoke", "--data-dir", dir} << "API_KEY";
        QTest::newRow("backup: no file") << QStringList{"backup", "--data-dir", dir} << "--to";
        QTest::newRow("backup: no database")
            << QStringList{"backup", "--data-dir", m_tmp.filePath(QStringLiteral("none")), "--to",
                           m_tmp.filePath(QStringLiteral("copy.db"))}
            << "there is no database";
        QTest::newRow("restore: no file") << QStringList{"restore", "--data-dir", dir} << "--from";
        QTest::newRow("log level") << QStringList{"serve", "--data-dir", dir, "--log-level", "verbose"}
                                   << "--log-level";
        QTest::newRow("keys: data dir is a file")
            << QStringList{"keys",      "create", "--data-dir", file.fileName(),
                           "--project", "p",      "--role",     "admin"}
            << "not a directory";
    }

    void failures() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const auto exit = TestService::runJobdeckd(arguments, 10000);
        QVERIFY2(exit.status > 0, qPrintable(QStringLiteral("exit %1").arg(exit.status)));
        const QStringList lines = nonEmptyLines(exit.err);
        QVERIFY2(lines.size() == 1, exit.err.constData());
        QVERIFY2(lines.first().startsWith(QStringLiteral("jobdeckd: ")), exit.err.constData());
        QVERIFY2(lines.first().contains(mentions, Qt::CaseInsensitive), exit.err.constData());
        QVERIFY(exit.out.isEmpty());
    }

    void portInUse() {
        QTcpServer occupier;
        QVERIFY(occupier.listen(QHostAddress::LocalHost));
        const QString listen = QStringLiteral("127.0.0.1:%1").arg(occupier.serverPort());
        const auto exit = TestService::runJobdeckd(
            {"serve", "--data-dir", m_tmp.filePath(QStringLiteral("busy")), "--listen", listen}, 10000);
        QVERIFY(exit.status > 0);
        const QStringList lines = nonEmptyLines(exit.err);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().contains(QStringLiteral("cannot listen on ") + listen), exit.err.constData());
        QVERIFY2(lines.first().contains(QStringLiteral("in use")), exit.err.constData());
    }

    void keysCreateJson() {
        const QString dir = m_tmp.filePath(QStringLiteral("keys"));
        QString error;
        const auto database = TestBackend::freshDatabaseArguments(error);
        QVERIFY2(database, qPrintable(error));
        const QStringList where = QStringList{"--data-dir", dir} + *database;
        const auto exit =
            TestService::runJobdeckd(QStringList{"keys", "create"} + where +
                                     QStringList{"--project", "analytics", "--role", "operator", "--json"});
        QCOMPARE(exit.status, 0);
        const nlohmann::json key = nlohmann::json::parse(exit.out.toStdString(), nullptr, false);
        QVERIFY2(key.is_object(), exit.out.constData());
        QCOMPARE(key.size(), std::size_t(4));
        for (const char* field : {"projectUid", "apiKey", "apiSecret", "role"})
            QVERIFY2(key.contains(field) && key[field].is_string() && !key[field].get<std::string>().empty(),
                     field);
        QCOMPARE(QString::fromStdString(key["role"].get<std::string>()), QStringLiteral("operator"));

        // The same project again: same uid, new key and secret.
        const auto again =
            TestService::runJobdeckd(QStringList{"keys", "create"} + where +
                                     QStringList{"--project", "analytics", "--role", "viewer", "--json"});
        const nlohmann::json second = nlohmann::json::parse(again.out.toStdString(), nullptr, false);
        QCOMPARE(second.value("projectUid", ""), key.value("projectUid", ""));
        QVERIFY(second.value("apiKey", "") != key.value("apiKey", ""));

        // Only a hash of the secret is stored: not in the file (free pages too), not in any table.
        const QByteArray secret = QByteArray::fromStdString(key["apiSecret"].get<std::string>());
        if (database->isEmpty()) {
            QFile file(dir + QStringLiteral("/jobdeck.db"));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(!file.readAll().contains(secret));
        } else {
            ServiceDatabase db(database->last());
            const QString tables = db.value("SELECT string_agg(query_to_xml(format('SELECT * FROM %I.%I', "
                                            "table_schema, table_name), true, "
                                            "false, '')::text, '') FROM information_schema.tables "
                                            "WHERE table_schema NOT IN ('pg_catalog', 'information_schema')");
            QVERIFY2(tables.contains(QString::fromStdString(key["apiKey"].get<std::string>())),
                     qPrintable(db.lastError()));
            QVERIFY(!tables.contains(QString::fromUtf8(secret)));
        }
    }

    void keysCreatePlain() {
        QString error;
        const auto database = TestBackend::freshDatabaseArguments(error);
        QVERIFY2(database, qPrintable(error));
        const auto exit = TestService::runJobdeckd(
            QStringList{"keys", "create", "--data-dir", m_tmp.filePath(QStringLiteral("plain"))} + *database +
            QStringList{"--project", "p", "--role", "admin"});
        QCOMPARE(exit.status, 0);
        QVERIFY(exit.out.contains("apiSecret:"));
        QVERIFY(exit.out.contains("admin"));
    }

    void serveUsesTheKeysDataDir() {
        // keys create and serve agree on where the database is.
        TestService service;
        const ApiCredentials credentials = service.createKey(QStringLiteral("p"), QStringLiteral("viewer"));
        QVERIFY(credentials.isValid());
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const nlohmann::json status = runStatement(service, credentials, QStringLiteral("SHOW JOBS"));
        QCOMPARE(QString::fromStdString(status.value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        QCOMPARE(service.stop(), 0);
    }

    void explicitDatabaseUrl() {
        const QString database = QStringLiteral("sqlite:") + m_tmp.filePath(QStringLiteral("elsewhere.db"));
        const auto exit =
            TestService::runJobdeckd({"keys", "create", "--data-dir", m_tmp.filePath(QStringLiteral("d2")),
                                      "--database", database, "--project", "p", "--role", "admin", "--json"});
        QCOMPARE(exit.status, 0);
        QVERIFY(QFile::exists(m_tmp.filePath(QStringLiteral("elsewhere.db"))));
        TestService service({QStringLiteral("--database"), database});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const nlohmann::json key = nlohmann::json::parse(exit.out.toStdString());
        const ApiCredentials credentials{QString::fromStdString(key["projectUid"].get<std::string>()),
                                         QString::fromStdString(key["apiKey"].get<std::string>()),
                                         QString::fromStdString(key["apiSecret"].get<std::string>()),
                                         QStringLiteral("admin")};
        const nlohmann::json status = runStatement(service, credentials, QStringLiteral("SHOW JOBS"));
        QCOMPARE(QString::fromStdString(status.value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
    }

    // Run as root on the packaged /var/lib/jobdeckd, the admin commands would leave files of root's
    // that the service cannot open: they refuse, naming the user to run them as, and make nothing.
    // The suite runs as root in CI (packaging/setup.sh); elsewhere this one says it is skipped.
    void adminCommandsRefuseAnotherUsersDatabase() {
        if (::geteuid() != 0)
            QSKIP("needs root: a database file of another user's cannot be made otherwise");
        const QString dir = m_tmp.filePath(QStringLiteral("someone-elses"));
        QVERIFY(QDir().mkpath(dir));
        const passwd* nobody = ::getpwuid(65534);
        const QString owner = nobody ? QString::fromLocal8Bit(nobody->pw_name) : QStringLiteral("65534");
        const QString file = QStringLiteral("%1/jobdeck-cli-%2.db").arg(dir).arg(::getpid());
        QFile made(file); // an empty file of nobody's where the database would be
        QVERIFY(made.open(QIODevice::WriteOnly));
        made.close();
        QCOMPARE(::chown(QFile::encodeName(file).constData(), 65534, 65534), 0);
        const QString work = m_tmp.filePath(QStringLiteral("admin-commands"));
        const QStringList where{"--data-dir", work, "--database", QStringLiteral("sqlite:") + file};
        for (const QStringList& command :
             {QStringList{"keys", "create", "--project", "p", "--role", "admin"}, QStringList{"keys", "list"},
              QStringList{"backup", "--to", work + "/copy.db"}, QStringList{"restore", "--from", file},
              QStringList{"serve", "--listen", "127.0.0.1:0"}}) {
            const auto exit = TestService::runJobdeckd(command + where);
            QCOMPARE(exit.status, 1);
            QVERIFY2(
                nonEmptyLines(exit.err).value(0).contains(
                    QStringLiteral("belongs to user %1: run this command as that user (sudo -u %1 jobdeckd")
                        .arg(owner)),
                exit.err.constData());
        }
        QCOMPARE(QFileInfo(file).size(), 0);
        QVERIFY(!QFile::exists(file + "-wal") && !QFile::exists(file + "-shm"));
        QVERIFY(!QFile::exists(work + "/copy.db"));
        QVERIFY(QFile::remove(file));
    }

    // serve as root in the data directory of the service's user (/var/lib/jobdeckd) is refused before
    // anything is made there: root's files would lock the service out of its own directory.
    void serveRefusesAnotherUsersDataDirectory() {
        if (::geteuid() != 0)
            QSKIP("needs root: a directory of another user's cannot be made otherwise");
        const QString dir = m_tmp.filePath(QStringLiteral("service-users"));
        QVERIFY(QDir().mkpath(dir));
        QCOMPARE(::chown(QFile::encodeName(dir).constData(), 65534, 65534), 0);
        const passwd* nobody = ::getpwuid(65534);
        const QString owner = nobody ? QString::fromLocal8Bit(nobody->pw_name) : QStringLiteral("65534");
        const auto exit = TestService::runJobdeckd({"serve", "--listen", "127.0.0.1:0", "--data-dir", dir});
        QCOMPARE(exit.status, 1);
        QVERIFY2(nonEmptyLines(exit.err).value(0).contains(
                     QStringLiteral("data directory '%1' belongs to user %2: run jobdeckd serve as that user "
                                    "(sudo -u %2 jobdeckd serve ..., or systemctl start jobdeckd)")
                         .arg(dir, owner)),
                 exit.err.constData());
        QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());
        // Checking the options makes nothing, so it is not refused: `sudo jobdeckd serve --check`.
        QCOMPARE(TestService::runJobdeckd({"serve", "--check", "--listen", "127.0.0.1:0", "--data-dir", dir})
                     .status,
                 0);
    }

    void sigintStopsGracefully() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY(::kill(static_cast<pid_t>(service.processId()), SIGINT) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!service.isRunning(), 10000);
        QCOMPARE(service.stop(), 0); // already stopped: its exit status
        QVERIFY(service.errorOutput().contains(QStringLiteral("signal 2")));
    }

    // serve --check: what serve would refuse, refused the same way, and nothing started or made: no
    // data directory, no database, no port bound (a port in use by the running service is fine).
    void checkValidatesWithoutServing() {
        QTcpServer occupier;
        QVERIFY(occupier.listen(QHostAddress::LocalHost));
        const QString dir = m_tmp.filePath(QStringLiteral("checked"));
        const QString listen = QStringLiteral("127.0.0.1:%1").arg(occupier.serverPort());
        const auto ok = TestService::runJobdeckd({"serve", "--check", "--data-dir", dir, "--listen", listen});
        QCOMPARE(ok.status, 0);
        QCOMPARE(
            nonEmptyLines(ok.out),
            QStringList{QStringLiteral("The options are valid (nothing was started): HTTP on %1, database "
                                       "sqlite:%2/jobdeck.db, data directory %2 (created at start), runner "
                                       "local, deploy mode client.")
                            .arg(listen, dir)});
        QVERIFY(!QFile::exists(dir));

        const QString notPem = m_tmp.filePath(QStringLiteral("not-pem.txt"));
        QFile text(notPem);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("not a certificate\n");
        text.close();
        const QString config = m_tmp.filePath(QStringLiteral("check.conf"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("deploy-mode = cluster\n");
        file.close();
        for (const auto& [arguments, says] :
             {std::pair{QStringList{"--tls-cert", notPem, "--tls-key", notPem},
                        QStringLiteral("cannot use the TLS certificate")},
              std::pair{QStringList{"--config", config},
                        QStringLiteral("--deploy-mode cluster needs --runner spark-submit")},
              std::pair{
                  QStringList{"--database", "sqlite:" + dir + "/x.db", "--database-password-file", notPem},
                  QStringLiteral("a SQLite database has no password")}}) {
            const auto exit =
                TestService::runJobdeckd(QStringList{"serve", "--check", "--data-dir", dir} + arguments);
            QCOMPARE(exit.status, 1);
            QVERIFY2(nonEmptyLines(exit.err).value(0).contains(says), exit.err.constData());
            QVERIFY(exit.out.isEmpty());
        }
        QVERIFY(!QFile::exists(dir));

        // --check is the command line's: a configuration file cannot make the service never serve.
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("check = true\n");
        file.close();
        const auto inFile = TestService::runJobdeckd({"serve", "--config", config, "--data-dir", dir});
        QCOMPARE(inFile.status, 1);
        QVERIFY2(nonEmptyLines(inFile.err).value(0).contains(QStringLiteral("unknown key 'check'")),
                 inFile.err.constData());
    }

    // --log-level: warning leaves out the info lines (start-up, access lines); debug adds the access
    // lines that --no-access-log moved there.
    void logLevelChoosesTheLinesWritten() {
        TestService quiet({QStringLiteral("--log-level"), QStringLiteral("warning")});
        const ApiCredentials key = quiet.createKey(QStringLiteral("p"), QStringLiteral("viewer"));
        QVERIFY2(quiet.start(), qPrintable(quiet.lastError()));
        QCOMPARE(statusName(runStatement(quiet, key, QStringLiteral("SHOW JOBS"))),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        QCOMPARE(quiet.stop(), 0);
        QVERIFY2(!quiet.errorOutput().contains(QStringLiteral("[info]")), qPrintable(quiet.errorOutput()));

        TestService verbose(
            {QStringLiteral("--log-level"), QStringLiteral("debug"), QStringLiteral("--no-access-log")});
        const ApiCredentials other = verbose.createKey(QStringLiteral("p"), QStringLiteral("viewer"));
        QVERIFY2(verbose.start(), qPrintable(verbose.lastError()));
        QCOMPARE(statusName(runStatement(verbose, other, QStringLiteral("SHOW JOBS"))),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        QTRY_VERIFY_WITH_TIMEOUT(verbose.errorOutput().contains(QStringLiteral("[debug] http method=POST")),
                                 20000);
        QVERIFY(verbose.errorOutput().contains(QStringLiteral("[info]")));
        QCOMPARE(verbose.stop(), 0);
    }

    // While the service stops (a request in flight gets --shutdown-grace), another SIGTERM or Ctrl+C
    // (a terminal sends it to the whole process group, a supervisor may repeat it) is absorbed: the stop
    // goes on to exit status 0. A SIGHUP then is absorbed too.
    void aSecondStopSignalWhileStoppingIsAbsorbed() {
        TestService service({QStringLiteral("--shutdown-grace"), QStringLiteral("5")});
        const ApiCredentials admin = service.createKey(QStringLiteral("p"), QStringLiteral("admin"));
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        ServiceDatabase db(service);
        QVERIFY2(db.holdWriteLock(QStringLiteral("clusters")), qPrintable(db.lastError()));
        const auto pid = static_cast<pid_t>(service.processId());
        std::thread stopper([&] {
            QThread::msleep(1000); // the CREATE CLUSTER below is then in flight, waiting for the lock
            ::kill(pid, SIGTERM);
            QDeadlineTimer guard(20000);
            while (!service.errorOutput().contains(QStringLiteral("shutting down")) && !guard.hasExpired())
                QThread::msleep(20);
            ::kill(pid, SIGTERM);
            ::kill(pid, SIGINT);
            ::kill(pid, SIGHUP);
            QThread::msleep(200);
            db.release();
        });
        runStatement(service, admin,
                     QStringLiteral("CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0"));
        stopper.join();
        QTRY_VERIFY_WITH_TIMEOUT(!service.isRunning(), 30000);
        QCOMPARE(service.stop(), 0); // already stopped: its exit status, -1 had a signal ended it
        QCOMPARE(service.errorOutput().count(QStringLiteral("shutting down")), 1);
    }

    // The log goes to a pipe whose reader ends after one byte (`jobdeckd serve 2>&1 | tee` with tee
    // gone): the service's next lines find no reader, and it serves on, then stops gracefully.
    void aLogPipeWithoutReaderDoesNotEndTheService() {
        TestService service;
        const ApiCredentials key = service.createKey(QStringLiteral("p"), QStringLiteral("viewer"));
        service.setCommandPrefix({QStringLiteral("bash"), QStringLiteral("-c"),
                                  QStringLiteral("exec \"$0\" \"$@\" 2> >(head -c 1 > /dev/null)")});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        for (int i = 0; i < 20; ++i) // each one logs its access line
            QCOMPARE(QString::fromStdString(
                         runStatement(service, key, QStringLiteral("SHOW JOBS")).value("apiStatus", "")),
                     QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        QVERIFY(service.isRunning());
        QCOMPARE(service.stop(), 0);
    }

private:
    static QString statusName(const nlohmann::json& status) {
        return QString::fromStdString(status.value("apiStatus", std::string()));
    }

    QTemporaryDir m_tmp;
};

JOBDECK_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
