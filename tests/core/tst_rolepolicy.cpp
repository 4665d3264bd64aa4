// Which role may run which statement, and the refusal's text (CONTRACT §1), as core says it for the service
// and the console.
#include "core/policy/RolePolicy.h"
#include "core/statements/StatementParser.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;

namespace {

Statement parsed(const char* text) {
    auto result = parseStatement(text);
    if (!result.statement)
        qFatal("does not parse: %s", text);
    return *result.statement;
}

} // namespace

class TestRolePolicy final : public QObject {
    Q_OBJECT

private slots:
    void viewerReadsOperatorChangesAdminSetsTheProject() {
        for (const char* read : {"DESCRIBE JOB j", "SHOW JOBS", "SHOW JOB_RUNS", "DESCRIBE CLUSTER c",
                                 "SHOW CLUSTERS", "DESCRIBE PROJECT", "DESCRIBE JOB_RUN `r` JOB_NAME = 'j'"})
            QCOMPARE(RolePolicy::requiredRole(parsed(read)), Role::Viewer);
        for (const char* change : {"DELETE JOB j", "RUN JOB j", "CANCEL JOB_RUN `r` JOB_NAME = 'j'",
                                   "DELETE CLUSTER c", "ALTER CLUSTER c SET MAX_OCU = 2"})
            QCOMPARE(RolePolicy::requiredRole(parsed(change)), Role::Operator);
        for (const char* admin : {"ALTER PROJECT SET HUDI_CONFIGS = ENABLED", "SHOW AUDIT_LOG"})
            QCOMPARE(RolePolicy::requiredRole(parsed(admin)), Role::Admin);
    }

    void refusalNamesTheRoleAndTheAction() {
        const Statement run = parsed("RUN JOB j");
        QCOMPARE(RolePolicy::refusal(Role::Viewer, run).value_or(""),
                 std::string("Permission denied: viewer cannot RUN JOB"));
        QVERIFY(!RolePolicy::refusal(Role::Operator, run));
        QVERIFY(!RolePolicy::refusal(Role::Admin, run));
        QCOMPARE(RolePolicy::refusal(Role::Operator, parsed("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED"))
                     .value_or(""),
                 std::string("Permission denied: operator cannot ALTER PROJECT"));
    }

    void roleNamesRoundTrip() {
        for (const Role role : {Role::Viewer, Role::Operator, Role::Admin})
            QVERIFY(roleFromName(roleName(role)) == role);
        QVERIFY(!roleFromName("root"));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestRolePolicy)
#include "tst_rolepolicy.moc"
