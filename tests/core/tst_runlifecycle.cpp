// The run lifecycle (core/policy/RunLifecycle): every (from, to, actor) triple against a golden matrix,
// the properties the service relies on, and docs/runs.md's table against the code.
// tests/data/lifecycle/run-lifecycle.expected: one line per (from, to) pair, the actors that may make
// the change, "-" for none. JOBDECK_UPDATE_GOLDEN=1 rewrites it (review the diff).
#include "core/policy/RunLifecycle.h"
#include "tests/runner/SuiteRegistry.h"

#include <QFile>
#include <QtTest>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace jobdeck;

namespace {

const QString kGolden = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/data/lifecycle/run-lifecycle.expected");
const QString kRunsDoc = QStringLiteral(JOBDECK_SOURCE_DIR "/docs/runs.md");

constexpr std::array kPhases{RunPhase::Queued,    RunPhase::Starting, RunPhase::Running, RunPhase::Submitted,
                             RunPhase::Completed, RunPhase::Failed,   RunPhase::Canceled};
constexpr std::array kActors{RunActor::Admission, RunActor::Claimant, RunActor::Owner, RunActor::Successor,
                             RunActor::Cancel};

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::string renderMatrix() {
    std::string out;
    for (RunPhase from : kPhases)
        for (RunPhase to : kPhases) {
            std::string actors;
            for (RunActor by : kActors)
                if (mayChange(from, to, by))
                    actors += (actors.empty() ? "" : ", ") + std::string(runActorName(by));
            out += std::string(runPhaseName(from)) + " -> " + std::string(runPhaseName(to)) + ": " +
                   (actors.empty() ? "-" : actors) + "\n";
        }
    return out;
}

// The phases reachable from `from` by the changes of `actors`.
std::set<RunPhase> reachable(RunPhase from, const std::set<RunActor>& actors) {
    std::set<RunPhase> seen{from};
    std::vector<RunPhase> todo{from};
    while (!todo.empty()) {
        const RunPhase at = todo.back();
        todo.pop_back();
        for (const RunTransition& t : runTransitions())
            if (t.from == at && actors.count(t.by) && seen.insert(t.to).second)
                todo.push_back(t.to);
    }
    return seen;
}

bool endsFrom(RunPhase from, const std::set<RunActor>& actors) {
    const auto phases = reachable(from, actors);
    return std::any_of(phases.begin(), phases.end(), [](RunPhase p) { return isFinal(p); });
}

// The wire statuses in the order a run goes through them.
int wireRank(RunPhase phase) {
    const JobRunStatus status = wireStatus(phase);
    return status == JobRunStatus::Queued ? 0 : status == JobRunStatus::Running ? 1 : 2;
}

} // namespace

class TestRunLifecycle final : public QObject {
    Q_OBJECT

private slots:
    void everyTripleMatchesTheGoldenMatrix() {
        const std::string actual = renderMatrix();
        if (qEnvironmentVariable("JOBDECK_UPDATE_GOLDEN") == QLatin1String("1")) {
            QFile f(kGolden);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(actual));
        }
        QVERIFY2(QFile::exists(kGolden), "no golden matrix: run with JOBDECK_UPDATE_GOLDEN=1 and review it");
        QCOMPARE(QString::fromStdString(actual), QString::fromUtf8(readAll(kGolden)));
    }

    void eachTransitionIsListedOnceAndMayChangeFollowsTheList() {
        std::set<std::tuple<RunPhase, RunPhase, RunActor>> listed;
        for (const RunTransition& t : runTransitions()) {
            QVERIFY2(listed.emplace(t.from, t.to, t.by).second, t.when.data());
            QVERIFY(!t.when.empty());
        }
        int allowed = 0;
        for (RunPhase from : kPhases)
            for (RunPhase to : kPhases)
                for (RunActor by : kActors)
                    allowed += mayChange(from, to, by);
        QCOMPARE(allowed, static_cast<int>(listed.size()));
    }

    void onlyRunJobCreatesARunAndOnlyQueued() {
        for (RunPhase phase : kPhases)
            for (RunActor by : kActors)
                QCOMPARE(mayCreate(phase, by), phase == RunPhase::Queued && by == RunActor::Admission);
        for (const RunTransition& t : runTransitions())
            QVERIFY(t.by != RunActor::Admission);
    }

    void anEndedRunNeverChanges() {
        for (RunPhase from : kPhases)
            for (RunPhase to : kPhases)
                for (RunActor by : kActors)
                    if (isFinal(from))
                        QVERIFY(!mayChange(from, to, by));
    }

    void noChangeTakesARunBackToAnEarlierStatus() {
        for (const RunTransition& t : runTransitions())
            QVERIFY2(wireRank(t.to) >= wireRank(t.from), t.when.data());
        QVERIFY(!mayChange(RunPhase::Starting, RunPhase::Queued, RunActor::Owner));
        QVERIFY(!mayChange(RunPhase::Submitted, RunPhase::Running, RunActor::Owner));
    }

    // Starting, running and following a driver are its owner's alone; the others only end a run its
    // owner cannot, or take over one the cluster runs.
    void onlyTheOwnerStartsOrFinishesADriver() {
        for (const RunTransition& t : runTransitions()) {
            if (t.from == t.to)
                continue;
            if (t.to == RunPhase::Running || t.to == RunPhase::Submitted || t.to == RunPhase::Completed)
                QVERIFY2(t.by == RunActor::Owner, t.when.data());
            if (t.by == RunActor::Successor)
                QVERIFY2(t.to == RunPhase::Failed || t.to == RunPhase::Canceled, t.when.data());
        }
    }

    // A cancel ends only a run nobody claimed; otherwise it is recorded and the run's owner (or, when
    // the owner is gone, a successor) ends it CANCELED.
    void aCancelEndsOnlyAnUnclaimedRun() {
        for (const RunTransition& t : runTransitions())
            if (t.by == RunActor::Cancel)
                QVERIFY2(t.from == t.to || (t.from == RunPhase::Queued && t.to == RunPhase::Canceled),
                         t.when.data());
        for (RunPhase phase : kPhases)
            QCOMPARE(mayChange(phase, phase, RunActor::Cancel), !isFinal(phase) && phase != RunPhase::Queued);
    }

    // Every active run can end: by its owner, and when its owner is gone by the others alone.
    void everyActiveRunCanEndWithOrWithoutItsOwner() {
        const std::set<RunActor> withOwner{RunActor::Claimant, RunActor::Owner, RunActor::Cancel};
        const std::set<RunActor> withoutOwner{RunActor::Claimant, RunActor::Successor, RunActor::Cancel};
        for (RunPhase phase : kPhases) {
            if (isFinal(phase))
                continue;
            QVERIFY2(endsFrom(phase, withOwner), runPhaseName(phase).data());
            // A submitted run is taken over first: its successor is then its owner.
            QVERIFY2(endsFrom(phase, withoutOwner) || mayChange(phase, phase, RunActor::Successor),
                     runPhaseName(phase).data());
        }
        QVERIFY(endsFrom(RunPhase::Queued, {RunActor::Cancel}));
    }

    void thePhaseFollowsWhatIsStored() {
        for (RunPhase phase : kPhases) {
            const bool claimed = phase != RunPhase::Queued;
            const bool submitted = phase == RunPhase::Submitted;
            QCOMPARE(runPhase(wireStatus(phase), claimed, submitted), phase);
        }
        QCOMPARE(runPhase(JobRunStatus::Queued, false, false), RunPhase::Queued);
        QCOMPARE(runPhase(JobRunStatus::Queued, true, false), RunPhase::Starting);
        QCOMPARE(runPhase(JobRunStatus::Running, true, false), RunPhase::Running);
        QCOMPARE(runPhase(JobRunStatus::Running, true, true), RunPhase::Submitted);
        QCOMPARE(runPhase(JobRunStatus::Canceled, false, false), RunPhase::Canceled);
    }

    // docs/runs.md, "Lifecycle", lists exactly the transitions, in their order.
    void theDocsListEveryTransition() {
        const QString doc = QString::fromUtf8(readAll(kRunsDoc));
        const qsizetype section = doc.indexOf(QLatin1String("## Lifecycle"));
        QVERIFY2(section >= 0, "docs/runs.md has no \"## Lifecycle\" section");
        const qsizetype end = doc.indexOf(QLatin1String("\n## "), section + 1);
        const QString text = doc.mid(section, end < 0 ? -1 : end - section);
        qsizetype at = 0;
        int rows = 0;
        for (const RunTransition& t : runTransitions()) {
            const QString row = QString("| %1 | %2 | %3 | %4 |")
                                    .arg(QString::fromUtf8(runPhaseName(t.from).data()),
                                         QString::fromUtf8(runPhaseName(t.to).data()),
                                         QString::fromUtf8(runActorName(t.by).data()),
                                         QString::fromUtf8(t.when.data(), static_cast<int>(t.when.size())));
            const qsizetype found = text.indexOf(row, at);
            QVERIFY2(found >= 0, qPrintable("missing or out of order in docs/runs.md: " + row));
            at = found + row.size();
            ++rows;
        }
        const auto lines = text.split('\n');
        const qsizetype tableRows = std::count_if(lines.begin(), lines.end(), [&](const QString& line) {
            return line.startsWith(QLatin1String("| ")) && !line.startsWith(QLatin1String("| from"));
        });
        QCOMPARE(tableRows, qsizetype(rows));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestRunLifecycle)
#include "tst_runlifecycle.moc"
