// RetryBackoff: the waits the connection check, the events long poll and the run monitor's loads share.
#include "client/RetryBackoff.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;
using std::chrono::milliseconds;

class TestRetryBackoff : public QObject {
    Q_OBJECT

private slots:
    void doublesUpToTheCapAndStartsOverAfterAReset() {
        RetryBackoff backoff(milliseconds(1000), milliseconds(5000));
        QCOMPARE(backoff.current(), milliseconds(0));
        QCOMPARE(backoff.afterFailure(), milliseconds(1000));
        QCOMPARE(backoff.afterFailure(), milliseconds(2000));
        QCOMPARE(backoff.afterFailure(), milliseconds(4000));
        QCOMPARE(backoff.afterFailure(), milliseconds(5000));
        QCOMPARE(backoff.afterFailure(), milliseconds(5000));
        QCOMPARE(backoff.current(), milliseconds(5000));
        backoff.reset();
        QCOMPARE(backoff.current(), milliseconds(0));
        QCOMPARE(backoff.afterFailure(), milliseconds(1000));
    }

    void newLimitsApplyFromTheNextFailure() {
        RetryBackoff backoff(milliseconds(1000), milliseconds(30000));
        backoff.setLimits(milliseconds(10), milliseconds(15));
        QCOMPARE(backoff.afterFailure(), milliseconds(10));
        QCOMPARE(backoff.afterFailure(), milliseconds(15));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestRetryBackoff)
#include "tst_retrybackoff.moc"
