#include "core/deploy/DatabaseUrl.h"
#include "core/deploy/DriverEnvironment.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;

class TestDatabaseUrl final : public QObject {
    Q_OBJECT
private slots:
    void kinds_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("kind");
        QTest::newRow("uri") << "postgresql://u@h/db" << int(DatabaseKind::PostgresUri);
        QTest::newRow("short scheme") << "postgres://u@h/db" << int(DatabaseKind::PostgresUri);
        QTest::newRow("keywords") << "host=h port=5432 dbname=db" << int(DatabaseKind::PostgresKeywords);
        QTest::newRow("keywords, blanks")
            << "  dbname = db   password='a b'" << int(DatabaseKind::PostgresKeywords);
        QTest::newRow("sqlite url") << "sqlite:/var/lib/j.db" << int(DatabaseKind::Sqlite);
        QTest::newRow("path") << "/var/lib/j.db" << int(DatabaseKind::Sqlite);
        QTest::newRow("other scheme") << "mysql://h/db" << int(DatabaseKind::Sqlite);
        QTest::newRow("keyword-shaped, unknown") << "hots=h password=x" << int(DatabaseKind::Invalid);
        QTest::newRow("a file named with =") << "a=b.db" << int(DatabaseKind::Invalid);
    }

    void kinds() {
        QFETCH(QString, value);
        QFETCH(int, kind);
        QCOMPARE(int(databaseKind(value.toStdString())), kind);
    }

    void masking_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("masked");
        QTest::addColumn<QStringList>("secrets");
        QTest::newRow("user info") << "postgresql://u:pw1@h:5432/db"
                                   << "postgresql://u:****@h:5432/db" << QStringList{"pw1"};
        QTest::newRow("raw @ and /") << "postgresql://u:p@w/2@h/db?sslmode=require"
                                     << "postgresql://u:****@h/db?sslmode=require" << QStringList{"p@w/2"};
        QTest::newRow("percent-encoded") << "postgresql://u:p%40w3@h/db"
                                         << "postgresql://u:****@h/db" << QStringList{"p%40w3", "p@w3"};
        QTest::newRow("query") << "postgresql://u@h/db?sslmode=require&password=pw4&sslpassword=k4"
                               << "postgresql://u@h/db?sslmode=require&password=****&sslpassword=****"
                               << QStringList{"pw4", "k4"};
        QTest::newRow("query and @ in query")
            << "postgresql://u@h/db?password=pw5&options=a@b"
            << "postgresql://u@h/db?password=****&options=a@b" << QStringList{"pw5"};
        QTest::newRow("no password") << "postgresql://u@h/db"
                                     << "postgresql://u@h/db" << QStringList{};
        QTest::newRow("keywords") << "host=h password=pw6 user=u"
                                  << "host=h password=**** user=u" << QStringList{"pw6"};
        QTest::newRow("keywords, quoted") << "host=h password = 'p w\\'7' user=u"
                                          << "host=h password = **** user=u" << QStringList{"p w'7"};
        QTest::newRow("invalid, keyword-shaped") << "hots=h password=pw8"
                                                 << "hots=h password=****" << QStringList{"pw8"};
        QTest::newRow("sqlite") << "sqlite:/tmp/password=x"
                                << "sqlite:/tmp/password=x" << QStringList{};
    }

    void masking() {
        QFETCH(QString, value);
        QFETCH(QString, masked);
        QFETCH(QStringList, secrets);
        const std::string text = value.toStdString();
        QCOMPARE(QString::fromStdString(maskDatabaseValue(text)), masked);
        const std::string blanked = blankDatabasePasswords(text);
        QCOMPARE(blanked.size(), text.size());
        const auto hidden = databaseSecrets(text);
        for (const QString& secret : secrets) {
            QVERIFY2(std::find(hidden.begin(), hidden.end(), secret.toStdString()) != hidden.end(),
                     qPrintable(secret));
            QVERIFY2(blanked.find(secret.toStdString()) == std::string::npos, blanked.c_str());
        }
        QCOMPARE(hasDatabasePassword(text), !secrets.isEmpty());
    }

    void normalizingAndAddingAPassword() {
        QCOMPARE(normalizedDatabaseValue("postgresql://u:p@w/x%41%zz@h:1/db?sslmode=require"),
                 std::string("postgresql://u:p%40w%2Fx%41%25zz@h:1/db?sslmode=require"));
        QCOMPARE(normalizedDatabaseValue("postgresql://u@h/db"), std::string("postgresql://u@h/db"));
        QCOMPARE(withDatabasePassword("postgresql://u@h/db", "a&b=c/@"),
                 std::string("postgresql://u@h/db?password=a%26b%3Dc%2F%40"));
        QCOMPARE(withDatabasePassword("postgresql://u@h/db?sslmode=require", "x"),
                 std::string("postgresql://u@h/db?sslmode=require&password=x"));
        QCOMPARE(withDatabasePassword("host=h dbname=db", "it's \\ok"),
                 std::string("host=h dbname=db password='it\\'s \\\\ok'"));
        // What is added is masked like what was written.
        QCOMPARE(maskDatabaseValue(withDatabasePassword("host=h", "it's")),
                 std::string("host=h password=****"));
        QCOMPARE(maskDatabaseValue(withDatabasePassword("postgresql://u@h/db", "a&b")),
                 std::string("postgresql://u@h/db?password=****"));
    }

    void driverEnvironment() {
        const std::vector<std::string> none;
        for (const char* name : {"PATH", "HOME", "LANG", "LC_ALL", "JAVA_HOME", "SPARK_HOME",
                                 "HADOOP_CONF_DIR", "PYSPARK_PYTHON"})
            QVERIFY2(passesToDriver(name, none), name);
        for (const char* name :
             {"PGPASSWORD", "PGPASSFILE", "PGHOST", "AWS_SECRET_ACCESS_KEY", "FOO", "LD_PRELOAD"})
            QVERIFY2(!passesToDriver(name, none), name);
        const std::vector<std::string> admin{"FOO", "AWS_*", "PG*"};
        QVERIFY(passesToDriver("FOO", admin));
        QVERIFY(passesToDriver("AWS_REGION", admin));
        QVERIFY(!passesToDriver("FOOBAR", admin));
        QVERIFY(!passesToDriver("PGPASSWORD", admin)); // never, whatever the admin adds
        QVERIFY(!driverEnvironmentNameRefusal("FOO"));
        QVERIFY(!driverEnvironmentNameRefusal("AWS_*"));
        QVERIFY(driverEnvironmentNameRefusal("PGPASSWORD"));
        QVERIFY(driverEnvironmentNameRefusal("PG*"));
        QVERIFY(driverEnvironmentNameRefusal("A B"));
        QVERIFY(driverEnvironmentNameRefusal("*"));
        QVERIFY(driverEnvironmentNameRefusal(""));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestDatabaseUrl)
#include "tst_databaseurl.moc"
