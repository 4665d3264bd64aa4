// Which queued runs may start (RunScheduler, docs/runs.md, "Scheduling"), in-process: each cluster's
// slots served first come, first served, runs of a cluster that is gone failing, the others waiting
// with a reason; and changesAny(), the look at counted runs a tick takes instead of planning each one,
// checked against plan() on every small queue; and reasonChanges(), the clusters whose waiting runs a
// claim gives their reason in one write.
#include "core/policy/RunEndMessages.h"
#include "core/statements/NotFoundMessages.h"
#include "service/runs/RunScheduler.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

#include <map>
#include <set>

using namespace jobdeck;

namespace {

RunRecord queued(const std::string& id, const std::string& cluster, std::optional<std::string> reason = {},
                 const std::string& project = "p") {
    RunRecord r;
    r.run.jobRunId = id;
    r.projectUid = project;
    r.cluster = cluster;
    r.run.status = JobRunStatus::Queued;
    r.run.queueReason = std::move(reason);
    return r;
}

// Clusters by name in project p (and only there): their MAX_OCU.
RunScheduler::Capacity capacities(std::map<std::string, int> maxOcu) {
    return [maxOcu = std::move(maxOcu)](const std::string& project, const std::string& name) {
        const auto it = maxOcu.find(name);
        return project == "p" && it != maxOcu.end() ? std::optional<int>(it->second) : std::nullopt;
    };
}

// `queued` (none being launched) counted as RunStore::queuedCounts() counts them.
std::vector<RunStore::QueuedCount> counted(const std::vector<RunRecord>& queued) {
    std::map<std::tuple<std::string, std::string, std::optional<std::string>>, int> counts;
    for (const auto& r : queued)
        ++counts[{r.projectUid, r.cluster, r.run.queueReason}];
    std::vector<RunStore::QueuedCount> result;
    result.reserve(counts.size());
    for (const auto& [key, count] : counts)
        result.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), "", false, count});
    return result;
}

// Whether carrying out `plan` on `queued` would write anything: a start, a failure, a new reason.
bool planChangesAny(const RunScheduler::Plan& plan, const std::vector<RunRecord>& queued) {
    std::map<std::string, std::optional<std::string>> reasons;
    for (const auto& r : queued)
        reasons[r.run.jobRunId] = r.run.queueReason;
    if (!plan.start.empty() || !plan.failing.empty())
        return true;
    for (const auto& [id, reason] : plan.waiting)
        if (reasons.at(id) != reason)
            return true;
    return false;
}

} // namespace

class TestRunScheduler final : public QObject {
    Q_OBJECT

private slots:
    void eachClusterStartsItsOldestRunsUpToItsSlots() {
        const std::vector<RunRecord> queue{queued("1", "a"), queued("2", "b"), queued("3", "a"),
                                           queued("4", "a")};
        const auto plan = RunScheduler::plan(queue, {{{"p", "a"}, 1}}, capacities({{"a", 3}, {"b", 1}}));
        QCOMPARE(plan.start, (std::vector<std::string>{"1", "2", "3"}));
        QCOMPARE(plan.waiting.size(), std::size_t(1));
        QCOMPARE(plan.waiting[0].first, std::string("4"));
        QCOMPARE(plan.waiting[0].second, waitingForDriverSlotReason("a", 3, 3));
        QVERIFY(plan.failing.empty());
    }

    void theRunsOfAClusterThatIsGoneFail() {
        const auto plan =
            RunScheduler::plan({queued("1", "gone"), queued("2", "a")}, {}, capacities({{"a", 1}}));
        QCOMPARE(plan.start, std::vector<std::string>{"2"});
        QCOMPARE(plan.failing.size(), std::size_t(1));
        QCOMPARE(plan.failing[0].first, std::string("1"));
        QCOMPARE(plan.failing[0].second, clusterNotFoundMessage("gone"));
    }

    void aClusterOverItsSlotsStartsNothing() {
        // MAX_OCU lowered below the drivers running: the reason names them all.
        const auto plan = RunScheduler::plan({queued("1", "a")}, {{{"p", "a"}, 5}}, capacities({{"a", 2}}));
        QVERIFY(plan.start.empty());
        QCOMPARE(plan.waiting.size(), std::size_t(1));
        QCOMPARE(plan.waiting[0].second, waitingForDriverSlotReason("a", 5, 2));
    }

    // A cluster gets a reason write when some of its runs find no free slot and a counted run lacks the
    // reason plan() gives them; the write skips the runs that take the free slots.
    void reasonChangesNameTheClustersWhoseWaitingRunsLackTheirReason() {
        const std::string aFull = waitingForDriverSlotReason("a", 2, 2);
        const std::string bFull = waitingForDriverSlotReason("b", 1, 1);
        const std::vector<RunRecord> queue{queued("1", "a"),    queued("2", "a", aFull),
                                           queued("3", "a"),    queued("4", "b", bFull),
                                           queued("5", "gone"), queued("6", "c")};
        const RunScheduler::InUse inUse{{{"p", "a"}, 1}, {{"p", "b"}, 1}};
        // Runs beyond the free slots: a has 1 free of 2 for 3 runs, b none for 1, c all it needs.
        const std::map<RunScheduler::InUse::key_type, int> waiting{
            {{"p", "a"}, 2}, {{"p", "b"}, 1}, {{"p", "c"}, 0}, {{"p", "gone"}, 1}};
        const auto changes = RunScheduler::reasonChanges(counted(queue), waiting, inUse,
                                                         capacities({{"a", 2}, {"b", 1}, {"c", 5}}));
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].cluster, (RunScheduler::InUse::key_type{"p", "a"}));
        QCOMPARE(changes[0].skip, 1);
        QCOMPARE(changes[0].reason, aFull);
        // The reason is the one plan() gives the waiting runs.
        const auto plan = RunScheduler::plan(queue, inUse, capacities({{"a", 2}, {"b", 1}, {"c", 5}}));
        for (const auto& [id, reason] : plan.waiting)
            if (id != "4")
                QCOMPARE(reason, aFull);
        // Over its slots (MAX_OCU lowered), the reason names the drivers running.
        const auto over = RunScheduler::reasonChanges(counted({queued("1", "a", aFull)}), {{{"p", "a"}, 1}},
                                                      {{{"p", "a"}, 3}}, capacities({{"a", 2}}));
        QCOMPARE(over.size(), std::size_t(1));
        QCOMPARE(over[0].skip, 0);
        QCOMPARE(over[0].reason, waitingForDriverSlotReason("a", 3, 2));
    }

    // A claim step reads a cluster's capacity where reading it holds (or waits for) the cluster's row:
    // a cluster with no run past its free slots, such as one another replica's step plans, is not asked.
    void reasonChangesAskOnlyTheClustersWithRunsPastTheirSlots() {
        const std::string aFull = waitingForDriverSlotReason("a", 1, 1);
        std::set<std::string> asked;
        const RunScheduler::Capacity capacity = [&](const std::string&, const std::string& cluster) {
            asked.insert(cluster);
            return std::optional<int>(1);
        };
        const auto changes = RunScheduler::reasonChanges(
            counted({queued("1", "a"), queued("2", "held"), queued("3", "fits")}),
            {{{"p", "a"}, 1}, {{"p", "held"}, 0}, {{"p", "fits"}, 0}}, {{{"p", "a"}, 1}}, capacity);
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].reason, aFull);
        QCOMPARE(asked, (std::set<std::string>{"a"}));
    }

    void aFullClusterWhoseRunsKnowWhyChangesNothing() {
        const std::string why = waitingForDriverSlotReason("a", 2, 2);
        const RunScheduler::InUse full{{{"p", "a"}, 2}};
        QVERIFY(!RunScheduler::changesAny(counted({queued("1", "a", why), queued("2", "a", why)}), full,
                                          capacities({{"a", 2}})));
        // A run admitted since, not yet told; a slot freed; the cluster gone; MAX_OCU raised.
        QVERIFY(RunScheduler::changesAny(
            counted({queued("1", "a", why), queued("2", "a", waitingForSchedulerReason())}), full,
            capacities({{"a", 2}})));
        QVERIFY(RunScheduler::changesAny(counted({queued("1", "a", why)}), {{{"p", "a"}, 1}},
                                         capacities({{"a", 2}})));
        QVERIFY(RunScheduler::changesAny(counted({queued("1", "a", why)}), full, capacities({})));
        QVERIFY(RunScheduler::changesAny(counted({queued("1", "a", why)}), full, capacities({{"a", 3}})));
        QVERIFY(!RunScheduler::changesAny({}, full, capacities({})));
        // Runs being launched are counted in the slots in use by the caller, whatever their reason.
        auto withLaunching = counted({queued("1", "a", why)});
        withLaunching.push_back({"p", "a", startingDriverReason(), "replica-2", true, 1});
        withLaunching.push_back({"p", "gone", startingDriverReason(), "replica-2", true, 1});
        QVERIFY(!RunScheduler::changesAny(withLaunching, full, capacities({{"a", 2}})));
    }

    // Every queue of up to three runs over clusters a (1 slot), b (2 slots) and a gone one, in two
    // projects, each run with one of the reasons it can have, and every count of slots in use: changesAny()
    // on the counts says what plan() on the runs would do.
    void changesAnyAgreesWithPlanOnEverySmallQueue() {
        const std::vector<std::string> clusters{"a", "b", "gone"};
        const std::vector<std::optional<std::string>> reasons{
            std::nullopt, waitingForSchedulerReason(), waitingForDriverSlotReason("a", 1, 1),
            waitingForDriverSlotReason("b", 2, 2), waitingForDriverSlotReason("b", 3, 2)};
        const auto capacity = capacities({{"a", 1}, {"b", 2}});
        // One run's choices: cluster × reason × project.
        const int choices = static_cast<int>(clusters.size() * reasons.size() * 2);
        int compared = 0;
        for (int length = 0; length <= 3; ++length) {
            int queues = 1;
            for (int i = 0; i < length; ++i)
                queues *= choices;
            for (int code = 0; code < queues; ++code) {
                std::vector<RunRecord> queue;
                for (int i = 0, rest = code; i < length; ++i, rest /= choices) {
                    const int choice = rest % choices;
                    queue.push_back(queued(std::to_string(i), clusters[choice % 3],
                                           reasons[(choice / 3) % reasons.size()],
                                           choice / 15 == 0 ? "p" : "q"));
                }
                for (int usedA = 0; usedA <= 1; ++usedA)
                    for (int usedB = 0; usedB <= 3; ++usedB) {
                        const RunScheduler::InUse inUse{{{"p", "a"}, usedA}, {{"p", "b"}, usedB}};
                        const bool planned =
                            planChangesAny(RunScheduler::plan(queue, inUse, capacity), queue);
                        if (RunScheduler::changesAny(counted(queue), inUse, capacity) != planned)
                            QFAIL(
                                qPrintable(QString("queue %1 of length %2, %3 and %4 slots in use: plan() %5")
                                               .arg(code)
                                               .arg(length)
                                               .arg(usedA)
                                               .arg(usedB)
                                               .arg(planned ? "changes something" : "changes nothing")));
                        ++compared;
                    }
            }
        }
        QVERIFY(compared > 100000);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunScheduler)
#include "tst_runscheduler.moc"
