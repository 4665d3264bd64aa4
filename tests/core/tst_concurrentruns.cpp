// MAX_CONCURRENT_RUNS (CONTRACT §4, seed 001): which values a project allows and why, and the limit RUN JOB
// admits against with the message that says which limit applied.
#include "core/policy/ConcurrentRuns.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;

namespace {

ProjectSettings concurrency(bool enabled, int limit) {
    ProjectSettings s;
    s.concurrentRunsEnabled = enabled;
    s.maxConcurrentRunsLimit = limit;
    return s;
}

} // namespace

class TestConcurrentRuns final : public QObject {
    Q_OBJECT

private slots:
    void whichValuesAProjectAllows() {
        QVERIFY(!maxConcurrentRunsProblem(1, concurrency(false, 1)));
        QVERIFY(!maxConcurrentRunsProblem(3, concurrency(true, 3)));
        const auto range = maxConcurrentRunsProblem(0, concurrency(true, 3));
        QVERIFY(range && range->outOfRange);
        QCOMPARE(range->message, std::string("MAX_CONCURRENT_RUNS must be between 1 and 1000, got 0"));
        QVERIFY(maxConcurrentRunsProblem(1001, concurrency(true, 1000))->outOfRange);
        const auto off = maxConcurrentRunsProblem(2, concurrency(false, 5));
        QVERIFY(off && !off->outOfRange);
        QCOMPARE(off->message,
                 std::string("MAX_CONCURRENT_RUNS above 1 needs concurrent runs, which are not "
                             "enabled for this project. Contact Onehouse support to enable them."));
        QCOMPARE(maxConcurrentRunsProblem(4, concurrency(true, 3))->message,
                 std::string("MAX_CONCURRENT_RUNS 4 is above this project's limit of 3. Contact Onehouse "
                             "support to raise it."));
        QCOMPARE(maxConcurrentRunsAllowed(concurrency(false, 5)), 1);
        QCOMPARE(maxConcurrentRunsAllowed(concurrency(true, 5)), 5);
        QCOMPARE(maxConcurrentRunsLimitProblem(0).value_or(""),
                 std::string("MAX_CONCURRENT_RUNS_LIMIT must be between 1 and 1000, got 0"));
        QVERIFY(!maxConcurrentRunsLimitProblem(1000));
    }

    void admissionUsesTheLowerLimit() {
        auto limit = effectiveRunLimit(3, concurrency(true, 10));
        QCOMPARE(limit.value, 3);
        QVERIFY(limit.source == RunLimit::Source::Job);
        QCOMPARE(runLimitReachedMessage("j-1", 3, limit),
                 std::string("Spark Job j-1 already has 3 active run(s) (max 3)"));
        QVERIFY(!runLimitReason(limit)); // the Job's own limit needs no explaining

        limit = effectiveRunLimit(3, concurrency(false, 10));
        QCOMPARE(limit.value, 1);
        QVERIFY(limit.source == RunLimit::Source::ConcurrentRunsDisabled);
        // Seed 001's text to the letter (orchestrators match it); the reason goes beside it.
        QCOMPARE(runLimitReachedMessage("j-1", 1, limit),
                 std::string("Spark Job j-1 already has 1 active run(s) (max 1)"));
        QCOMPARE(runLimitReason(limit).value_or("(none)"),
                 std::string("concurrent runs are not enabled for this project, so its MAX_CONCURRENT_RUNS "
                             "of 3 does not apply"));

        limit = effectiveRunLimit(3, concurrency(true, 2));
        QCOMPARE(limit.value, 2);
        QVERIFY(limit.source == RunLimit::Source::ProjectLimit);
        QCOMPARE(runLimitReachedMessage("j-1", 2, limit),
                 std::string("Spark Job j-1 already has 2 active run(s) (max 2)"));
        QCOMPARE(runLimitReason(limit).value_or("(none)"),
                 std::string("this project's MAX_CONCURRENT_RUNS_LIMIT of 2 is below the Job's "
                             "MAX_CONCURRENT_RUNS of 3"));

        // A job at 1 is at 1 whatever the project says; a stored 0 counts as 1.
        QVERIFY(effectiveRunLimit(1, concurrency(false, 1)).source == RunLimit::Source::Job);
        QCOMPARE(effectiveRunLimit(0, concurrency(true, 5)).value, 1);
        QCOMPARE(
            idempotencyKeyRequiredMessage("keyed", 2),
            std::string("Idempotency-Key header is required for Job keyed: its max concurrent runs is 2"));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestConcurrentRuns)
#include "tst_concurrentruns.moc"
