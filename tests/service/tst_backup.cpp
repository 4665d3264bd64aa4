// `jobdeckd backup` and `jobdeckd restore` of a SQLite data directory, with the real jobdeckd: a backup
// taken while the service serves is whole and private; a restore puts it back while the service is
// stopped, keeps the database it replaces, and refuses what it cannot do without changing anything.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/ServiceProcess.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <sys/stat.h>

using namespace jobdeck;
using jobdeck::test::nonEmptyLines;

namespace {

QByteArray digestOf(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

unsigned modeOf(const QString& path) {
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & 07777 : 0;
}

} // namespace

class TestBackup final : public QObject {
    Q_OBJECT

private slots:
    void init() {
        QVERIFY(m_tmp.isValid());
        m_service = std::make_unique<TestService>();
        m_admin = m_service->createKey(QStringLiteral("analytics"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service->lastError()));
        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));
        QVERIFY(statementSucceeds(
            *m_service, m_admin, QStringLiteral("CREATE CLUSTER c1 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0")));
        QVERIFY(createJob(QStringLiteral("before_backup")));
        m_backup = m_tmp.filePath(QStringLiteral("backup-%1.db").arg(++m_count));
    }
    void cleanup() { m_service.reset(); }

    // Taken while the service runs: the jobs of that moment, mode 0600, and the service goes on.
    void aBackupWhileServingIsWholeAndPrivate() {
        const auto exit = command({"backup", "--to", m_backup});
        QCOMPARE(exit.status, 0);
        QVERIFY2(exit.out.startsWith("Backed up " + databasePath().toUtf8() + " to " + m_backup.toUtf8()),
                 exit.out.constData());
        QCOMPARE(modeOf(m_backup), 0600u);
        QVERIFY(createJob(QStringLiteral("after_backup")));
        ServiceDatabase copy(QStringLiteral("sqlite:") + m_backup);
        QVERIFY2(copy.isOpen(), qPrintable(copy.lastError()));
        QCOMPARE(copy.value(QStringLiteral("SELECT group_concat(name) FROM jobs")),
                 QStringLiteral("before_backup"));
        QCOMPARE(copy.value(QStringLiteral("PRAGMA integrity_check")), QStringLiteral("ok"));
    }

    void anExistingFileIsNeverOverwritten() {
        QFile existing(m_backup);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("keep me");
        existing.close();
        const auto exit = command({"backup", "--to", m_backup});
        QCOMPARE(exit.status, 1);
        QCOMPARE(
            nonEmptyLines(exit.err),
            QStringList{QStringLiteral("jobdeckd: %1 exists: give a new file name (nothing was overwritten)")
                            .arg(m_backup)});
        QVERIFY(existing.open(QIODevice::ReadOnly));
        QCOMPARE(existing.readAll(), QByteArray("keep me"));
    }

    // Restored while stopped: the backup's state is served again, its keys work, and the database it
    // replaced is kept whole beside it.
    void aRestoreBringsTheBackupBackAndKeepsWhatItReplaced() {
        QCOMPARE(command({"backup", "--to", m_backup}).status, 0);
        QVERIFY(createJob(QStringLiteral("after_backup")));
        QCOMPARE(m_service->stop(), 0);

        const auto exit = command({"restore", "--from", m_backup});
        QCOMPARE(exit.status, 0);
        QVERIFY2(exit.out.startsWith("Restored " + m_backup.toUtf8()), exit.out.constData());
        const QStringList replaced =
            QDir(m_service->dataDir()).entryList({QStringLiteral("jobdeck.db.replaced-*")}, QDir::Files);
        QCOMPARE(replaced.size(), 1);
        QVERIFY2(exit.out.contains(replaced.first().toUtf8()), exit.out.constData());
        QCOMPARE(modeOf(databasePath()), 0600u);

        ServiceDatabase kept(QStringLiteral("sqlite:") +
                             QDir(m_service->dataDir()).filePath(replaced.first()));
        QCOMPARE(kept.value(
                     QStringLiteral("SELECT group_concat(name) FROM (SELECT name FROM jobs ORDER BY name)")),
                 QStringLiteral("after_backup,before_backup"));

        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));
        const nlohmann::json jobs = runStatement(*m_service, m_admin, QStringLiteral("SHOW JOBS"));
        const auto& list = jobs["apiResponse"]["showJobsApiResponse"]["sparkJobs"];
        QCOMPARE(list.size(), std::size_t(1));
        QCOMPARE(list[0].value("name", ""), std::string("before_backup"));
    }

    // Another program (a sqlite3 shell) holding the stopped service's database open with writes in its
    // write-ahead log: the log cannot be folded in, so the database is neither kept aside nor replaced.
    void aDatabaseOpenElsewhereIsNotReplaced() {
        QCOMPARE(command({"backup", "--to", m_backup}).status, 0);
        QCOMPARE(m_service->stop(), 0);
        ServiceDatabase other(QStringLiteral("sqlite:") + databasePath());
        QVERIFY2(other.execute(QStringLiteral("UPDATE jobs SET name = name")) > 0,
                 qPrintable(other.lastError()));
        const QByteArray before = digestOf(databasePath());

        const auto exit = command({"restore", "--from", m_backup});
        QCOMPARE(exit.status, 1);
        QVERIFY2(exit.err.contains("could not be folded into the database") &&
                     exit.err.trimmed().endsWith("nothing was changed"),
                 exit.err.constData());
        QCOMPARE(digestOf(databasePath()), before);
        const QDir dataDir(m_service->dataDir());
        QCOMPARE(dataDir.entryList({QStringLiteral("jobdeck.db.re*")}, QDir::Files), QStringList());
    }

    void aRestoreWhileServingChangesNothing() {
        QCOMPARE(command({"backup", "--to", m_backup}).status, 0);
        const QByteArray before = digestOf(databasePath());
        const auto exit = command({"restore", "--from", m_backup});
        QCOMPARE(exit.status, 1);
        const QStringList lines = nonEmptyLines(exit.err);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().contains(QStringLiteral("already served by another jobdeckd")) &&
                     lines.first().endsWith(QStringLiteral("stop it before restoring (nothing was changed)")),
                 exit.err.constData());
        QCOMPARE(digestOf(databasePath()), before);
        QVERIFY(createJob(QStringLiteral("still_served")));
    }

    void onlyAJobdeckBackupIsRestored() {
        QCOMPARE(m_service->stop(), 0);
        const QByteArray before = digestOf(databasePath());
        QFile text(m_backup);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write(QByteArray(8192, 'x'));
        text.close();
        const QString otherDatabase = m_tmp.filePath(QStringLiteral("other-%1.db").arg(m_count));
        { // a SQLite database of something else
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(QFile::encodeName(otherDatabase).constData(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, "CREATE TABLE t (x)", nullptr, nullptr, nullptr), SQLITE_OK);
            sqlite3_close(db);
        }
        for (const auto& [from, says] :
             {std::pair{m_backup, QStringLiteral("is not a whole SQLite database")},
              std::pair{otherDatabase, QStringLiteral("is not a Jobdeck database")},
              std::pair{m_tmp.filePath(QStringLiteral("none.db")),
                        QStringLiteral("there is no backup file")}}) {
            const auto exit = command({"restore", "--from", from});
            QCOMPARE(exit.status, 1);
            const QStringList lines = nonEmptyLines(exit.err);
            QVERIFY2(lines.size() == 1 && lines.first().contains(says), exit.err.constData());
        }
        QCOMPARE(digestOf(databasePath()), before);
        QCOMPARE(QDir(m_service->dataDir()).entryList({QStringLiteral("jobdeck.db.*")}), QStringList{});
        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));
    }

    // The data directory's lock says whether a service uses the database: a --database alone is refused.
    void aRestoreOfADatabaseElsewhereNeedsItsDataDirectory() {
        QCOMPARE(command({"backup", "--to", m_backup}).status, 0);
        const QByteArray before = digestOf(databasePath());
        const auto exit = TestService::runJobdeckd(
            {"restore", "--database", QStringLiteral("sqlite:") + databasePath(), "--from", m_backup});
        QCOMPARE(exit.status, 1);
        QVERIFY2(nonEmptyLines(exit.err).value(0).contains(QStringLiteral("needs the --data-dir")),
                 exit.err.constData());
        QCOMPARE(digestOf(databasePath()), before);
        QVERIFY(createJob(QStringLiteral("still_served")));
    }

    void postgresqlIsPointedToPgDump() {
        for (const char* verb : {"backup", "restore"}) {
            const auto exit = TestService::runJobdeckd(
                {QString::fromLatin1(verb), "--database", "postgresql://jobdeck@127.0.0.1:1/jobdeck",
                 verb == std::string("backup") ? "--to" : "--from", m_backup});
            QCOMPARE(exit.status, 1);
            QVERIFY2(nonEmptyLines(exit.err).value(0).contains(QStringLiteral("pg_dump and pg_restore")),
                     exit.err.constData());
        }
    }

private:
    TestService::Exit command(const QStringList& arguments) const {
        return TestService::runJobdeckd(arguments +
                                        QStringList{QStringLiteral("--data-dir"), m_service->dataDir()});
    }
    QString databasePath() const { return QDir(m_service->dataDir()).filePath(QStringLiteral("jobdeck.db")); }
    bool createJob(const QString& name) const {
        return statementSucceeds(*m_service, m_admin,
                                 QStringLiteral("CREATE JOB %1 TYPE = 'PYTHON' PARAMETERS = ('s3://b/a.py') "
                                                "CLUSTER = 'c1'")
                                     .arg(name));
    }

    QTemporaryDir m_tmp;
    std::unique_ptr<TestService> m_service;
    ApiCredentials m_admin;
    QString m_backup;
    int m_count = 0;
};

JOBDECK_TEST_GUILESS_MAIN(TestBackup)
#include "tst_backup.moc"
