// Idempotency keys: the console's suggestion ("<job>-<date>-<time>-<nonce>") and the checks it makes
// before RUN JOB.
#include "core/policy/IdempotencyKey.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;
using namespace std::chrono;

class TestIdempotencyKey final : public QObject {
    Q_OBJECT
private slots:
    // One key per run attempt: the time and a nonce, so three Runs start three runs.
    void attemptKeysDifferPerAttempt() {
        const auto at = sys_days{year{2026} / December / 1} + hours{9} + minutes{5} + seconds{7};
        QCOMPARE(suggestRunAttemptKey("count_transactions", at, 0xbeef),
                 std::string("count_transactions-20261201-090507-beef"));
        QVERIFY(suggestRunAttemptKey("count_transactions", at, 1) !=
                suggestRunAttemptKey("count_transactions", at, 2));
        const auto longKey = suggestRunAttemptKey(std::string(100, 'j'), at, 0x12345);
        QCOMPARE(longKey.size(), kMaxIdempotencyKeyLength);
        QVERIFY(longKey.ends_with("-20261201-090507-2345"));
        QVERIFY(isValidIdempotencyKey(longKey));
        QVERIFY(isValidIdempotencyKey(suggestRunAttemptKey("daily load \xc3\xa9", at, 7)));
    }

    void suggestionReplacesWhatAKeyCannotHold() {
        // Back-quoted job names may hold spaces and non-ASCII characters.
        const auto at = sys_days{year{2026} / August / 19} + hours{23} + minutes{59} + seconds{59};
        const auto key = suggestRunAttemptKey("daily load \xc3\xa9", at, 0xa);
        QCOMPARE(key, std::string("daily_load___-20260819-235959-000a"));
        QVERIFY(isValidIdempotencyKey(key));
        QCOMPARE(suggestRunAttemptKey("", at, 0xa), std::string("run-20260819-235959-000a"));
    }

    void validation() {
        QVERIFY(isValidIdempotencyKey("x"));
        QVERIFY(isValidIdempotencyKey(std::string(64, 'k')));
        QVERIFY(isValidIdempotencyKey("airflow__scheduled__2026-11-30T00:00:00+00:00"));
        QCOMPARE(idempotencyKeyProblem("").value_or(""), std::string("The idempotency key is empty."));
        QCOMPARE(idempotencyKeyProblem(std::string(65, 'k')).value_or(""),
                 std::string("The idempotency key has 65 characters; at most 64 are allowed."));
        QCOMPARE(idempotencyKeyProblem("a b").value_or(""),
                 std::string("The idempotency key may only hold printable ASCII characters without spaces; "
                             "character 2 is a space."));
        QCOMPARE(idempotencyKeyProblem("ab\t").value_or(""),
                 std::string("The idempotency key may only hold printable ASCII characters without spaces; "
                             "character 3 is 0x09."));
        QVERIFY(!isValidIdempotencyKey("caf\xc3\xa9"));
        QVERIFY(!isValidIdempotencyKey(std::string("a\0b", 3)));
        QVERIFY(!isValidIdempotencyKey("a\x7f"));
    }

    // The service's refusal of the header (HTTP layer and run admission) is the same rule and text.
    void headerProblemIsTheKeyProblem() {
        QVERIFY(!idempotencyKeyHeaderProblem("k1"));
        for (const std::string& key :
             {std::string(), std::string("a b"), std::string(65, 'k'), std::string("\x01")})
            QCOMPARE(idempotencyKeyHeaderProblem(key).value_or(""),
                     "Invalid Idempotency-Key header: " + idempotencyKeyProblem(key).value_or("?"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestIdempotencyKey)
#include "tst_idempotencykey.moc"
