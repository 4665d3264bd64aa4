// `jobdeckd serve --config FILE`: every serve option is a key, flags win, and a bad line is one clear
// error naming the file, the line and the key. The real binary throughout.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceProcess.h"
#include "tests/support/TestBackend.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace jobdeck;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    file.write(text);
    return path;
}

} // namespace

class TestConfigFile final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void optionsComeFromTheFile() {
        QString error;
        const auto database = TestBackend::freshDatabaseArguments(error);
        QVERIFY2(database, qPrintable(error));
        const QByteArray databaseLine =
            database->isEmpty() ? QByteArray() : "database = " + database->last().toUtf8() + "\n";
        const QString dataDir = m_tmp.filePath(QStringLiteral("from-file"));
        const QString config = writeFile(m_tmp, QStringLiteral("all.conf"),
                                         "# jobdeckd serve options\n"
                                         "\n"
                                         "listen = 127.0.0.1:0\n"
                                         "data-dir = " +
                                             dataDir.toUtf8() +
                                             "\n"
                                             "  workers=2  \n"
                                             "log-target = journal\n"
                                             "no-access-log = false\n"
                                             "s3-map = demo-bucket=/tmp\n"
                                             "s3-map = other=/srv\n"
                                             "retention-days = \"7\"\n" +
                                             databaseLine);
        QProcess process;
        process.start(QStringLiteral(JOBDECKD_PATH),
                      {QStringLiteral("serve"), QStringLiteral("--config"), config});
        const quint16 port = test::waitForListeningPort(process);
        if (port == 0) // not in QVERIFY2, whose message is read even when it passes
            QFAIL(process.readAllStandardError().constData());
        const auto health = request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/health").arg(port)), "GET");
        test::stopProcess(process);
        QCOMPARE(health.status, 200);
        // The data directory came from the file (with SQLite, its database file is there too).
        QVERIFY(QFileInfo::exists(dataDir));
        if (database->isEmpty())
            QVERIFY(QFileInfo::exists(dataDir + QStringLiteral("/jobdeck.db")));
        // log-target = journal: priority prefixes, no timestamps.
        const QString log = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(log.startsWith(QStringLiteral("<6>jobdeckd ")), qPrintable(log));
    }

    void flagsWinOverTheFile() {
        // The file's listen address cannot be bound here; the flag's can.
        const QString config =
            writeFile(m_tmp, QStringLiteral("flags.conf"), "listen = 192.0.2.1:8420\nheader-timeout = 5\n");
        TestService service(
            {QStringLiteral("--config"), config, QStringLiteral("--header-timeout"), QStringLiteral("7")});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QCOMPARE(request(service.url(QStringLiteral("/v1/health")), "GET").status, 200);
        QCOMPARE(service.stop(), 0);
    }

    void badFilesAreOneLineNamingTheLine_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << QByteArray("listen = 127.0.0.1:0\n# fine\nfrobnicate = 1\n")
                                     << "bad.conf:3: unknown key 'frobnicate' (see jobdeckd serve --help)";
        QTest::newRow("dashes") << QByteArray("--listen = 127.0.0.1:0\n")
                                << "bad.conf:1: unknown key '--listen'";
        QTest::newRow("config in config")
            << QByteArray("config = /etc/passwd\n") << "bad.conf:1: unknown key 'config'";
        QTest::newRow("no equals sign")
            << QByteArray("\nlisten 127.0.0.1:0\n")
            << "bad.conf:2: expected key = value, got a line without '=' (not shown: it may hold a secret)";
        QTest::newRow("unterminated quote") << QByteArray("listen = 127.0.0.1:0\ndata-dir = \"/tmp/x\n")
                                            << "bad.conf:2: 'data-dir': the value opens a double quote that "
                                               "is not closed at the end of the line";
        QTest::newRow("quote at the end only")
            << QByteArray("data-dir = /tmp/x\"\n")
            << "bad.conf:1: 'data-dir': the value ends with a double quote that is not opened at its start";
        QTest::newRow("quote inside quotes") << QByteArray("data-dir = \"/tmp/\"x\"\n")
                                             << "bad.conf:1: 'data-dir': a double-quoted value cannot hold";
        QTest::newRow("a lone quote")
            << QByteArray("data-dir = \"\n") << "bad.conf:1: 'data-dir': the value opens a double quote";
        QTest::newRow("no key") << QByteArray("= 3\n") << "bad.conf:1: a key is missing before '='";
        QTest::newRow("twice") << QByteArray("workers = 2\nworkers = 3\n")
                               << "bad.conf:2: 'workers' is already set on line 1";
        QTest::newRow("out of range") << QByteArray("workers = 0\n") << "bad.conf:1: 'workers': ";
        QTest::newRow("not a number")
            << QByteArray("header-timeout = soon\n") << "bad.conf:1: 'header-timeout': ";
        QTest::newRow("not a member") << QByteArray("runner = yarn\n") << "bad.conf:1: 'runner': ";
        QTest::newRow("flag value") << QByteArray("no-access-log = maybe\n")
                                    << "bad.conf:1: 'no-access-log': ";
    }

    void badFilesAreOneLineNamingTheLine() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString config = writeFile(dir, QStringLiteral("bad.conf"), text);
        const auto exit = TestService::runJobdeckd(
            {"serve", "--config", config, "--data-dir", dir.filePath("data"), "--listen", "127.0.0.1:0"});
        QCOMPARE(exit.status, 1);
        const QString err = QString::fromUtf8(exit.err);
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.startsWith(QStringLiteral("jobdeckd: ") + dir.path() + QLatin1Char('/') + message),
                 qPrintable(err));
        QVERIFY(exit.out.isEmpty());
    }

    void aMissingFileIsAnError() {
        const auto exit = TestService::runJobdeckd(
            {"serve", "--config", m_tmp.filePath("nowhere.conf"), "--listen", "127.0.0.1:0"});
        QCOMPARE(exit.status, 1);
        QVERIFY2(exit.err.startsWith("jobdeckd: cannot read config file '" +
                                     m_tmp.filePath("nowhere.conf").toUtf8() +
                                     "': No such file or directory"),
                 exit.err.constData());
    }

    // A directory is not a config file: refused, never read as an empty one.
    void aDirectoryIsRefused() {
        const auto exit = TestService::runJobdeckd({"serve", "--config", m_tmp.path(), "--listen",
                                                    "127.0.0.1:0", "--data-dir", m_tmp.filePath("dir-data")});
        QCOMPARE(exit.status, 1);
        QVERIFY2(exit.err.startsWith("jobdeckd: cannot read config file '" + m_tmp.path().toUtf8() +
                                     "': it is a directory"),
                 exit.err.constData());
        QVERIFY(exit.out.isEmpty());
    }

    // A bad line, a bad quote or a database that cannot be reached: no error shows the password the
    // file holds.
    void noErrorEchoesASecret_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("secret");
        QTest::newRow("line without =") << QByteArray("database postgresql://u:LineSecret1@127.0.0.1:1/db\n")
                                        << QByteArray("LineSecret1");
        QTest::newRow("bare password line") << QByteArray("BarePassword2\n") << QByteArray("BarePassword2");
        QTest::newRow("unterminated quote")
            << QByteArray("database = \"postgresql://u:QuoteSecret3@127.0.0.1:1/db\n")
            << QByteArray("QuoteSecret3");
        QTest::newRow("unreachable database")
            << QByteArray("database = postgresql://u:Unreached4@127.0.0.1:1/db?password=Query4x\n")
            << QByteArray("Unreached4");
        QTest::newRow("unreachable database, query password")
            << QByteArray("database = postgresql://u@127.0.0.1:1/db?password=Query5x\n")
            << QByteArray("Query5x");
        QTest::newRow("unreachable database, keyword string")
            << QByteArray("database = host=127.0.0.1 port=1 dbname=db password=Keyword6x\n")
            << QByteArray("Keyword6x");
    }

    void noErrorEchoesASecret() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, secret);
        QTemporaryDir dir;
        const QString config = writeFile(dir, QStringLiteral("secret.conf"), text);
        QFile::setPermissions(config, QFile::ReadOwner | QFile::WriteOwner);
        QProcess process;
        process.setWorkingDirectory(dir.path());
        process.start(QStringLiteral(JOBDECKD_PATH), {"serve", "--config", config, "--data-dir",
                                                      dir.filePath("data"), "--listen", "127.0.0.1:0"});
        const bool ended = process.waitForFinished(20000);
        if (!ended)
            process.kill();
        process.waitForFinished(5000);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(ended && process.exitCode() == 1, err.constData());
        QVERIFY2(!err.contains(secret), err.constData());
        QVERIFY2(!err.contains("chmod 600"), err.constData()); // a private file is not warned about
        // Nothing but the data directory and the file: no SQLite database named after the value.
        QStringList created = QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
        created.removeAll(QStringLiteral("data"));
        QCOMPARE(created, QStringList{"secret.conf"});
    }

    // A file others may read that holds the database password is warned about, naming the fix; one
    // that holds no password is not.
    void aReadableFileWithAPasswordIsWarnedAbout() {
        QTemporaryDir dir;
        const QString withPassword =
            writeFile(dir, QStringLiteral("pw.conf"), "database = postgresql://u:Readable7@127.0.0.1:1/db\n");
        const QString withoutPassword =
            writeFile(dir, QStringLiteral("nopw.conf"), "database = postgresql://u@127.0.0.1:1/db\n");
        const auto readable = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
        QVERIFY(QFile::setPermissions(withPassword, readable));
        QVERIFY(QFile::setPermissions(withoutPassword, readable));
        const auto warned = TestService::runJobdeckd({"serve", "--config", withPassword, "--data-dir",
                                                      dir.filePath("data"), "--listen", "127.0.0.1:0"});
        QCOMPARE(warned.status, 1); // the database cannot be reached
        QVERIFY2(warned.err.contains(withPassword.toUtf8() +
                                     " holds the database password and other users of this "
                                     "host may read it (mode 0644); make it private: chmod 600 " +
                                     withPassword.toUtf8()),
                 warned.err.constData());
        QVERIFY2(!warned.err.contains("Readable7"), warned.err.constData());
        const auto quiet = TestService::runJobdeckd({"serve", "--config", withoutPassword, "--data-dir",
                                                     dir.filePath("data"), "--listen", "127.0.0.1:0"});
        QCOMPARE(quiet.status, 1);
        QVERIFY2(!quiet.err.contains("chmod"), quiet.err.constData());
    }

private:
    QTemporaryDir m_tmp;
};

JOBDECK_TEST_GUILESS_MAIN(TestConfigFile)
#include "tst_configfile.moc"
