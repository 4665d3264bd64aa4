// `jobdeckd keys list` and `jobdeckd keys revoke` against a running service's database (SQLite, and
// PostgreSQL in the service-postgresql variant): what is listed, never a secret, and a revocation that
// the service honours from the next request on, without a restart.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceProcess.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <pwd.h>
#include <unistd.h>

using namespace jobdeck;
using jobdeck::test::nonEmptyLines;

namespace {

const QString kApiStatusSuccess = QStringLiteral("API_OPERATION_STATUS_SUCCESS");

} // namespace

class TestKeyCommands final : public QObject {
    Q_OBJECT

private slots:
    void init() {
        m_service = std::make_unique<TestService>();
        m_analyst = m_service->createKey(QStringLiteral("analytics"), QStringLiteral("operator"));
        m_viewer = m_service->createKey(QStringLiteral("analytics"), QStringLiteral("viewer"));
        m_other = m_service->createKey(QStringLiteral("billing"), QStringLiteral("admin"));
        QVERIFY2(m_analyst.isValid() && m_viewer.isValid() && m_other.isValid(),
                 qPrintable(m_service->lastError()));
        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));
    }
    void cleanup() { m_service.reset(); }

    void listsEveryKeyWithItsProjectAndRoleButNoSecret() {
        const auto exit = keys({"list", "--json"});
        QCOMPARE(exit.status, 0);
        const nlohmann::json listed = nlohmann::json::parse(exit.out.toStdString(), nullptr, false);
        QVERIFY2(listed.is_array(), exit.out.constData());
        QCOMPARE(listed.size(), std::size_t(3));
        QCOMPARE(listed[0].value("project", ""), std::string("analytics"));
        QCOMPARE(listed[0].value("apiKey", ""), m_analyst.apiKey.toStdString());
        QCOMPARE(listed[0].value("role", ""), std::string("operator"));
        QCOMPARE(listed[0].value("projectUid", ""), m_analyst.projectUid.toStdString());
        QCOMPARE(listed[1].value("apiKey", ""), m_viewer.apiKey.toStdString());
        QCOMPARE(listed[2].value("project", ""), std::string("billing"));
        for (const auto& key : listed) {
            QCOMPARE(key.size(), std::size_t(6));
            QCOMPARE(key.value("revoked", true), false);
            QVERIFY(!key.value("createdAt", "").empty());
        }
        const auto table = keys({"list"});
        QCOMPARE(table.status, 0);
        const QStringList lines = nonEmptyLines(table.out);
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines[0].startsWith(QStringLiteral("PROJECT")), table.out.constData());
        QVERIFY2(lines[3].contains(m_other.apiKey) && lines[3].contains(QStringLiteral("admin")) &&
                     lines[3].endsWith(QStringLiteral("active")),
                 table.out.constData());
        for (const ApiCredentials* key : {&m_analyst, &m_viewer, &m_other}) {
            QVERIFY(!exit.out.contains(key->apiSecret.toUtf8()));
            QVERIFY(!table.out.contains(key->apiSecret.toUtf8()));
        }
    }

    void listsOneProjectsKeys() {
        const auto exit = keys({"list", "--project", "billing", "--json"});
        QCOMPARE(exit.status, 0);
        const nlohmann::json listed = nlohmann::json::parse(exit.out.toStdString(), nullptr, false);
        QCOMPARE(listed.size(), std::size_t(1));
        QCOMPARE(listed[0].value("apiKey", ""), m_other.apiKey.toStdString());
        const auto unknown = keys({"list", "--project", "marketing"});
        QCOMPARE(unknown.status, 1);
        QCOMPARE(nonEmptyLines(unknown.err),
                 QStringList{QStringLiteral(
                     "jobdeckd: there is no project 'marketing' (jobdeckd keys list shows them all)")});
    }

    // The running service refuses the key at its next request; the project's other key still works.
    void aRevokedKeyIsRefusedAtOnce() {
        QCOMPARE(answerTo(m_viewer), kApiStatusSuccess); // verified, and so cached by the service
        const auto exit = keys({"revoke", m_viewer.apiKey});
        QCOMPARE(exit.status, 0);
        QCOMPARE(nonEmptyLines(exit.out),
                 QStringList{QStringLiteral("Revoked API key %1 (viewer of project 'analytics'): requests "
                                            "with it are refused from now on.")
                                 .arg(m_viewer.apiKey)});
        QCOMPARE(answerTo(m_viewer), QStringLiteral("http 401"));
        QCOMPARE(answerTo(m_analyst), kApiStatusSuccess);

        const nlohmann::json listed =
            nlohmann::json::parse(keys({"list", "--project", "analytics", "--json"}).out.toStdString());
        QCOMPARE(listed[1].value("revoked", false), true);
        QCOMPARE(listed[0].value("revoked", true), false);
        QVERIFY(nonEmptyLines(keys({"list"}).out)[2].endsWith(QStringLiteral("revoked")));

        // Again: nothing to do, said so.
        const auto again = keys({"revoke", m_viewer.apiKey});
        QCOMPARE(again.status, 0);
        QVERIFY2(again.out.startsWith("API key " + m_viewer.apiKey.toUtf8() + " was already revoked"),
                 again.out.constData());
        QCOMPARE(answerTo(m_viewer), QStringLiteral("http 401"));
    }

    void anUnknownKeyIsAnError() {
        const auto exit = keys({"revoke", "0123456789abcdef"});
        QCOMPARE(exit.status, 1);
        QVERIFY(exit.out.isEmpty());
        QCOMPARE(nonEmptyLines(exit.err),
                 QStringList{QStringLiteral("jobdeckd: there is no API key '0123456789abcdef' (jobdeckd keys "
                                            "list shows them)")});
        QCOMPARE(answerTo(m_viewer), kApiStatusSuccess);
    }

    // Keys made and revoked on the host are in their project's audit log, with the command, the key's
    // id and role and the OS user, never the secret; another project's keys are not, and revoking a key
    // twice is recorded once.
    void keyCommandsAreInTheirProjectsAuditLog() {
        const auto made = keys({"create", "--project", "billing", "--role", "viewer", "--json"});
        QCOMPARE(made.status, 0);
        const nlohmann::json created = nlohmann::json::parse(made.out.toStdString());
        const QString apiKey = QString::fromStdString(created.value("apiKey", ""));
        QCOMPARE(keys({"revoke", apiKey}).status, 0);
        QCOMPARE(keys({"revoke", apiKey}).status, 0);
        QCOMPARE(keys({"revoke", m_viewer.apiKey}).status, 0); // analytics: not billing's business

        const nlohmann::json log =
            runStatement(*m_service, m_other, QStringLiteral("SHOW AUDIT_LOG LIMIT 100"));
        QStringList commands;
        for (const auto& entry : log["apiResponse"]["showAuditLogApiResponse"]["auditEntries"]) {
            const QString statement = QString::fromStdString(entry.value("statement", ""));
            if (!statement.startsWith(QStringLiteral("jobdeckd keys ")))
                continue;
            commands.prepend(statement); // newest first in the log
            QCOMPARE(entry.value("outcome", ""), std::string("API_OPERATION_STATUS_SUCCESS"));
            QCOMPARE(entry.value("keyId", "x"), std::string());
            QVERIFY(!statement.contains(QString::fromStdString(created.value("apiSecret", "-"))));
        }
        const QString user = QString::fromLocal8Bit(::getpwuid(::geteuid())->pw_name);
        QCOMPARE(
            commands,
            (QStringList{
                QStringLiteral("jobdeckd keys create: API key %1 (admin) by OS user %2")
                    .arg(m_other.apiKey, user),
                QStringLiteral("jobdeckd keys create: API key %1 (viewer) by OS user %2").arg(apiKey, user),
                QStringLiteral("jobdeckd keys revoke: API key %1 (viewer) by OS user %2").arg(apiKey, user),
            }));
    }

private:
    TestService::Exit keys(const QStringList& arguments) const {
        return TestService::runJobdeckd(QStringList{QStringLiteral("keys"), arguments.first(),
                                                    QStringLiteral("--data-dir"), m_service->dataDir(),
                                                    QStringLiteral("--database"), m_service->databaseUri()} +
                                        arguments.mid(1));
    }

    // The apiStatus of a SHOW JOBS with the key, or "http <status>" when the request was refused.
    QString answerTo(const ApiCredentials& key) const {
        const nlohmann::json status = runStatement(*m_service, key, QStringLiteral("SHOW JOBS"));
        if (status.contains("apiStatus"))
            return QString::fromStdString(status["apiStatus"].get<std::string>());
        return QStringLiteral("http %1").arg(status.value("httpStatus", 0));
    }

    std::unique_ptr<TestService> m_service;
    ApiCredentials m_analyst;
    ApiCredentials m_viewer;
    ApiCredentials m_other;
};

JOBDECK_TEST_GUILESS_MAIN(TestKeyCommands)
#include "tst_keycommands.moc"
