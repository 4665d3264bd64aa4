// Runs you can follow (issue "the console in daily use", §5), against a real jobdeckd: the run dialog
// prefills a key per run attempt, so Run three times starts three runs (the README's "start three
// runs"), while a retry of one attempt keeps its key.
#include "client/ApiClient.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "widgets/RunDialog.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::awaitReply;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");

} // namespace

class TestRunsYouFollow final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_admin;
    ApiClient* m_client = nullptr;
    QSet<QString> m_started; // the runs started so far, all canceled at the end of their test

    bool statement(const QString& text) { return statementSucceeds(m_service, m_admin, text); }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("follow"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        m_client = new ApiClient(this);
        m_client->setConnection({m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey, m_admin.apiSecret});
        QVERIFY(statement("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 4"));
        QVERIFY(statement("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));
        QVERIFY(statement("CREATE JOB count_transactions TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--sleep', '60' ) CLUSTER = 'main' MAX_CONCURRENT_RUNS = 3"));
    }

    void runThreeTimesStartsThreeRuns() {
        const auto job = awaitReply(m_client->describeJob(QStringLiteral("count_transactions")));
        QVERIFY(job);
        RunDialog dialog(m_client, *job);
        dialog.show();
        QSignalSpy finished(&dialog, &RunDialog::submitFinished);
        QSet<QString> runs, keys;
        for (int attempt = 1; attempt <= 3; ++attempt) {
            const QString key = dialog.idempotencyKey();
            QVERIFY2(!key.isEmpty() && !keys.contains(key), qPrintable(key));
            keys.insert(key);
            dialog.submit();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), attempt, 30000);
            QVERIFY2(finished.last().at(0).toBool(), qPrintable(dialog.lastError()));
            runs.insert(dialog.lastRunId());
        }
        QCOMPARE(runs.size(), 3);

        // A retry of an attempt is that attempt's key sent again: its run, not a fourth.
        const QString first = *runs.begin();
        const auto firstRun =
            awaitReply(m_client->describeJobRun(first, QStringLiteral("count_transactions")));
        QVERIFY(firstRun && firstRun->idempotencyKey);
        dialog.setIdempotencyKey(QString::fromStdString(*firstRun->idempotencyKey));
        dialog.submit();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 4, 30000);
        QCOMPARE(dialog.lastRunId(), first);
        for (const QString& run : runs)
            awaitReply(m_client->cancelJobRun(run, QStringLiteral("count_transactions")));
        m_started.unite(runs);
    }

    // A submission that got no answer (the service away) keeps its key and offers Retry; the retry sends
    // that key, so the run it starts is the attempt's, and the attempt after it gets a new key.
    void retryOfAFailedSubmissionReusesItsKey() {
        const auto job = awaitReply(m_client->describeJob(QStringLiteral("count_transactions")));
        QVERIFY(job);
        // The earlier runs have ended, so the job's limit admits the run retried here.
        for (const QString& id : std::as_const(m_started))
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    const auto r =
                        awaitReply(m_client->describeJobRun(id, QStringLiteral("count_transactions")));
                    return r && !r->isActive();
                }(),
                60000);
        RunDialog dialog(m_client, *job);
        dialog.show();
        QSignalSpy finished(&dialog, &RunDialog::submitFinished);
        const QString key = dialog.idempotencyKey();
        auto* run = dialog.findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(run);

        m_service.stop();
        QVERIFY(!m_service.isRunning());
        dialog.submit();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(!finished.last().at(0).toBool());
        QCOMPARE(dialog.idempotencyKey(), key);
        QCOMPARE(run->text(), QStringLiteral("Retry"));
        QVERIFY2(run->isEnabled(), qPrintable(dialog.blockedReason()));

        QVERIFY2(m_service.restart(), qPrintable(m_service.lastError()));
        run->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(dialog.lastError()));
        const auto started =
            awaitReply(m_client->describeJobRun(dialog.lastRunId(), QStringLiteral("count_transactions")));
        QVERIFY(started && started->idempotencyKey);
        QCOMPARE(QString::fromStdString(*started->idempotencyKey), key);
        QVERIFY(dialog.idempotencyKey() != key);
        QCOMPARE(run->text(), QStringLiteral("Run"));
        awaitReply(m_client->cancelJobRun(dialog.lastRunId(), QStringLiteral("count_transactions")));
    }
};

QTEST_MAIN(TestRunsYouFollow)
#include "tst_runsyoufollow.moc"
