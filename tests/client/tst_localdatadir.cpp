// Where the Local profile keeps its service's data: ~/.local/share/jobdeck/local ($XDG_DATA_HOME), and
// the directory earlier consoles used (jobdeck/jobdeck/local) moved there once, with its secret.
#include "client/LocalServiceLauncher.h"
#include "client/SecretStore.h"
#include "tests/runner/SuiteRegistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace jobdeck;

namespace {

bool writeFile(const QString& path, const QByteArray& text) {
    QFile file(path);
    return QDir().mkpath(QFileInfo(path).absolutePath()) && file.open(QIODevice::WriteOnly) &&
           file.write(text) == text.size();
}

QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString account(const QString& dir) {
    return QStringLiteral("local:") + QDir(dir).absolutePath();
}

} // namespace

class TestLocalDataDir final : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_legacy;
    QString m_current;

private slots:
    void init() {
        QVERIFY(m_home.isValid());
        QDir(m_home.path()).removeRecursively();
        QVERIFY(QDir().mkpath(m_home.path()));
        qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("share")).toUtf8());
        m_legacy = m_home.filePath(QStringLiteral("share/jobdeck/jobdeck/local"));
        m_current = m_home.filePath(QStringLiteral("share/jobdeck/local"));
    }

    void theDefaultIsJobdeckLocal() {
        QCOMPARE(LocalServiceLauncher::defaultDataDir(), m_current);
        QCOMPARE(LocalServiceLauncher::legacyDataDir(), m_legacy);
    }

    void theLegacyDirectoryMovesOnceWithItsSecret() {
        QVERIFY(writeFile(m_legacy + QStringLiteral("/console-local.json"), "{\"apiKey\": \"k1\"}"));
        QVERIFY(writeFile(m_legacy + QStringLiteral("/jobdeck.db"), "database"));
        SecretStore secrets(m_home.filePath(QStringLiteral("secrets")), SecretStore::Backend::File);
        QVERIFY(secrets.write(account(m_legacy), QStringLiteral("the-secret")));

        LocalServiceLauncher launcher(&secrets);
        QCOMPARE(launcher.dataDir(), m_current);
        QString why;
        QVERIFY2(launcher.moveLegacyDataDir(&why), qPrintable(why));
        QCOMPARE(readFile(m_current + QStringLiteral("/console-local.json")),
                 QByteArray("{\"apiKey\": \"k1\"}"));
        QCOMPARE(readFile(m_current + QStringLiteral("/jobdeck.db")), QByteArray("database"));
        QVERIFY(!QFileInfo::exists(m_legacy));
        QCOMPARE(secrets.read(account(m_current)), std::optional<QString>(QStringLiteral("the-secret")));
        QCOMPARE(secrets.read(account(m_legacy)), std::optional<QString>());

        // Once: a legacy directory that appears again is left alone.
        QVERIFY(writeFile(m_legacy + QStringLiteral("/console-local.json"), "{}"));
        QVERIFY(launcher.moveLegacyDataDir(&why));
        QVERIFY(QFileInfo::exists(m_legacy));
        QCOMPARE(readFile(m_current + QStringLiteral("/console-local.json")),
                 QByteArray("{\"apiKey\": \"k1\"}"));
    }

    void anExistingDirectoryIsNotReplaced() {
        QVERIFY(writeFile(m_legacy + QStringLiteral("/jobdeck.db"), "old"));
        QVERIFY(writeFile(m_current + QStringLiteral("/jobdeck.db"), "new"));
        SecretStore secrets(m_home.filePath(QStringLiteral("secrets")), SecretStore::Backend::File);
        LocalServiceLauncher launcher(&secrets);
        QVERIFY(launcher.moveLegacyDataDir());
        QCOMPARE(readFile(m_current + QStringLiteral("/jobdeck.db")), QByteArray("new"));
        QCOMPARE(readFile(m_legacy + QStringLiteral("/jobdeck.db")), QByteArray("old"));
    }

    void aChosenDataDirectoryTakesNothing() {
        QVERIFY(writeFile(m_legacy + QStringLiteral("/jobdeck.db"), "old"));
        SecretStore secrets(m_home.filePath(QStringLiteral("secrets")), SecretStore::Backend::File);
        LocalServiceLauncher launcher(&secrets);
        launcher.setDataDir(m_home.filePath(QStringLiteral("elsewhere")));
        QVERIFY(launcher.moveLegacyDataDir());
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("elsewhere"))));
        QVERIFY(!QFileInfo::exists(m_current));
        QCOMPARE(readFile(m_legacy + QStringLiteral("/jobdeck.db")), QByteArray("old"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestLocalDataDir)
#include "tst_localdatadir.moc"
