// SecretStore's file fallback (what headless machines use: 0600 file in a 0700 directory) and the
// connection profiles kept with QSettings, their secrets in the store.
#include "client/ConnectionProfiles.h"
#include "client/SecretStore.h"
#include "tests/runner/SuiteRegistry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace jobdeck;

namespace {

mode_t modeOf(const QString& path) {
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return 0;
    return st.st_mode & 0777;
}

} // namespace

class TestSecretStore final : public QObject {
    Q_OBJECT
private slots:
    void fileFallbackIsOwnerOnly() {
        QTemporaryDir dir;
        const QString secrets = dir.filePath(QStringLiteral("nested/secrets"));
        SecretStore store(secrets, SecretStore::Backend::File);
        QCOMPARE(store.backend(), SecretStore::Backend::File);
        QString error;
        QVERIFY2(store.write(QStringLiteral("profile:prod"), QStringLiteral("s3cr3t"), &error),
                 qPrintable(error));
        QCOMPARE(modeOf(store.filePath()), mode_t(0600));
        QCOMPARE(modeOf(secrets), mode_t(0700));
        QCOMPARE(store.read(QStringLiteral("profile:prod")).value_or(QString()), QStringLiteral("s3cr3t"));
        // Rewriting keeps the mode (the file is replaced atomically).
        QVERIFY(store.write(QStringLiteral("profile:other"), QStringLiteral("x")));
        QCOMPARE(modeOf(store.filePath()), mode_t(0600));
        QVERIFY(!store.read(QStringLiteral("missing")).has_value());
        QVERIFY(store.remove(QStringLiteral("profile:prod")));
        QVERIFY(!store.read(QStringLiteral("profile:prod")).has_value());
        QCOMPARE(store.read(QStringLiteral("profile:other")).value_or(QString()), QStringLiteral("x"));
        // A second store over the same directory sees the same secrets.
        SecretStore again(secrets, SecretStore::Backend::File);
        QCOMPARE(again.read(QStringLiteral("profile:other")).value_or(QString()), QStringLiteral("x"));
    }

    void noticeSaysWhereSecretsAre() {
        QTemporaryDir dir;
        SecretStore store(dir.path(), SecretStore::Backend::File);
        const QString notice = store.notice();
        QVERIFY2(notice.contains(store.filePath()), qPrintable(notice));
        QVERIFY(notice.contains("readable only by you"));
    }

    void corruptFileIsAClearError() {
        QTemporaryDir dir;
        SecretStore store(dir.path(), SecretStore::Backend::File);
        QFile f(store.filePath());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not json");
        f.close();
        QString error;
        QVERIFY(!store.read(QStringLiteral("a"), &error).has_value());
        QVERIFY2(error.contains("not a JSON object"), qPrintable(error));
    }

    void unwritableDirectoryFails() {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        SecretStore store(dir.filePath(QStringLiteral("file/sub")), SecretStore::Backend::File);
        QString error;
        QVERIFY(!store.write(QStringLiteral("a"), QStringLiteral("b"), &error));
        QVERIFY(!error.isEmpty());
    }

    void profilesKeepSecretsOutOfSettings() {
        QTemporaryDir dir;
        SecretStore store(dir.filePath(QStringLiteral("secrets")), SecretStore::Backend::File);
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        ConnectionProfiles profiles(&store, ini);
        QCOMPARE(profiles.profiles().size(), 1);
        QCOMPARE(profiles.profiles().front().name, ConnectionProfiles::kLocalName);

        const ConnectionProfile prod{QStringLiteral("prod"), QUrl(QStringLiteral("http://127.0.0.1:8420")),
                                     QStringLiteral("proj-uid"), QStringLiteral("key-1")};
        QString error;
        QVERIFY2(profiles.save(prod, QStringLiteral("the-secret"), &error), qPrintable(error));
        QFile settings(ini);
        QVERIFY(settings.open(QIODevice::ReadOnly));
        const QByteArray text = settings.readAll();
        QVERIFY(text.contains("key-1"));
        QVERIFY(!text.contains("the-secret"));

        ConnectionProfiles reopened(&store, ini);
        QCOMPARE(reopened.profiles().size(), 2);
        QCOMPARE(*reopened.profile(QStringLiteral("prod")), prod);
        const auto info = reopened.connectionInfo(QStringLiteral("prod"), &error);
        QVERIFY2(info, qPrintable(error));
        QCOMPARE(info->apiSecret, QStringLiteral("the-secret"));
        QCOMPARE(info->baseUrl, prod.url);

        // Editing without a new secret keeps the stored one.
        ConnectionProfile edited = prod;
        edited.apiKey = QStringLiteral("key-2");
        QVERIFY(reopened.save(edited, std::nullopt, &error));
        QCOMPARE(reopened.connectionInfo(QStringLiteral("prod"))->apiSecret, QStringLiteral("the-secret"));
        QCOMPARE(reopened.profiles().size(), 2);

        reopened.setLastUsed(QStringLiteral("prod"));
        QCOMPARE(ConnectionProfiles(&store, ini).lastUsed(), QStringLiteral("prod"));
        QVERIFY(reopened.remove(QStringLiteral("prod"), &error));
        QVERIFY(!store.read(ConnectionProfiles::secretAccount(QStringLiteral("prod"))).has_value());
        QCOMPARE(reopened.profiles().size(), 1);
    }

    void invalidProfilesAreRefusedWithAReason() {
        QTemporaryDir dir;
        SecretStore store(dir.path(), SecretStore::Backend::File);
        ConnectionProfiles profiles(&store, dir.filePath(QStringLiteral("s.ini")));
        QString error;
        QVERIFY(!profiles.save({QStringLiteral("Local"), QUrl(QStringLiteral("http://h:1")), "p", "k"}, "s",
                               &error));
        QVERIFY(error.contains("built-in"));
        QVERIFY(
            !profiles.save({QStringLiteral("x"), QUrl(QStringLiteral("ftp://h")), "p", "k"}, "s", &error));
        QVERIFY(error.contains("http://host:port"));
        QVERIFY(
            !profiles.save({QStringLiteral("x"), QUrl(QStringLiteral("http://h:1")), "", "k"}, "s", &error));
        QVERIFY(error.contains("project uid"));
        QVERIFY(!profiles.remove(QStringLiteral("Local"), &error));
        QVERIFY(!profiles.connectionInfo(QStringLiteral("nope"), &error));
        QVERIFY(error.contains("no profile"));
        QCOMPARE(profiles.profiles().size(), 1);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestSecretStore)
#include "tst_secretstore.moc"
