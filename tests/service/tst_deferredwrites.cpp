// DeferredWrites in-process, on a unit of work whose steps run at once (as PostgreSQL's do) and whose
// interleavings the test chooses: the moments between a step's commit and its end actions, and a
// group being written, are held open by the test, so each ordering is reached every time rather than
// now and then. The backends' own deferred writes are tst_pgstores' and tst_storage's.
#include "service/stores/DeferredWrites.h"
#include "service/stores/UnitOfWork.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {

// Long enough that only a hang reaches it on a busy machine: a hang guard, not a duration asserted.
constexpr auto hangGuard = 60s;

// A door one thread waits at until another opens it.
class Gate final {
public:
    void open() {
        {
            const std::lock_guard lock(m_mutex);
            m_open = true;
        }
        m_changed.notify_all();
    }
    bool wait() {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, hangGuard, [this] { return m_open; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
};

// Steps on several threads at once, each committed by returning. The deferred writes' turn is a lock
// the step holds until its commit, as PostgreSQL's transaction-scoped advisory lock is; the end
// actions run after the commit, and `afterCommit` (when set) runs between the two.
class ConcurrentSteps final : public UnitOfWork {
public:
    std::function<void()> afterCommit; // taken by the first step that ends

    std::atomic<int> turnsAskedFor = 0;

    void takeTurn() {
        ++turnsAskedFor;
        m_turn.lock();
        thisThread().holdsTurn = true;
    }
    std::unique_ptr<ReadSnapshot> snapshot() override { return std::make_unique<ReadSnapshot>(); }
    bool inStepOnThisThread() const override { return thisThread().depth > 0; }
    bool stepsRunConcurrently() const override { return true; }
    void onStepEnd(std::function<void(bool committed)> action) override {
        thisThread().endActions.push_back(std::move(action));
    }

protected:
    void runAtomically(const std::function<void()>& work) override {
        auto& step = thisThread();
        if (step.depth > 0) {
            work();
            return;
        }
        step.depth = 1;
        bool committed = false;
        try {
            work();
            committed = true;
        } catch (...) {
            end(false);
            throw;
        }
        end(committed);
    }

private:
    struct Step {
        int depth = 0;
        bool holdsTurn = false;
        std::vector<std::function<void(bool)>> endActions;
    };
    static Step& thisThread() {
        thread_local Step step;
        return step;
    }
    void end(bool committed) {
        auto& step = thisThread();
        if (step.holdsTurn) {
            step.holdsTurn = false;
            m_turn.unlock();
        }
        // Runs once: the first step to commit takes it.
        if (auto hook = std::exchange(afterCommit, nullptr); committed && hook)
            hook();
        auto actions = std::move(step.endActions);
        step.endActions.clear();
        step.depth = 0;
        for (auto it = actions.rbegin(); it != actions.rend(); ++it)
            (*it)(committed);
    }

    std::mutex m_turn;
};

// Opens the gates when a test returns early (a failed check), so that its threads end and it fails at
// once rather than after the hang guard.
struct OpenOnReturn final {
    std::vector<Gate*> gates;
    ~OpenOnReturn() {
        for (Gate* gate : gates)
            gate->open();
    }
};

AuditEntry entry(const std::string& statement) {
    AuditEntry e;
    e.projectUid = "p";
    e.statement = statement;
    return e;
}

// What the writer was given, group by group: audit entries by statement, status rows as "status:" and
// their request id. A group holding `holdAt` waits at `hold` once it is being written (and says so
// through `holding`).
struct WrittenGroups {
    std::mutex mutex;
    std::vector<std::vector<std::string>> groups;
    std::string holdAt;
    Gate holding;
    Gate hold;

    void write(const DeferredWrites::Batch& batch) {
        std::vector<std::string> statements;
        for (const auto& audit : batch.audit)
            statements.push_back(audit.statement);
        for (const auto& status : batch.statuses)
            statements.push_back("status:" + status.requestId);
        const bool held =
            !holdAt.empty() && std::find(statements.begin(), statements.end(), holdAt) != statements.end();
        if (held) {
            holding.open();
            hold.wait();
        }
        const std::lock_guard lock(mutex);
        if (!statements.empty())
            groups.push_back(std::move(statements));
    }
    std::vector<std::string> all() {
        const std::lock_guard lock(mutex);
        std::vector<std::string> flat;
        for (const auto& group : groups)
            flat.insert(flat.end(), group.begin(), group.end());
        return flat;
    }
};

// Neither by interval nor by size does the background thread write during a test: only flush() does.
constexpr auto neverByInterval = std::chrono::hours(1);
constexpr std::size_t neverBySize = 1'000'000;

// Deferred writes on `steps`, taking the steps' turn, whose groups go to `written`.
std::unique_ptr<DeferredWrites> writesOn(ConcurrentSteps& steps, WrittenGroups& written) {
    return std::make_unique<DeferredWrites>(
        steps, [&written](const DeferredWrites::Batch& b) { written.write(b); }, neverByInterval, neverBySize,
        [&steps] { steps.takeTurn(); });
}

} // namespace

class TestDeferredWrites : public QObject {
    Q_OBJECT

private slots:
    void aGroupTakenWhileAnotherSettlesKeepsTheQueueBusy();
    void aRolledBackJoinedGroupGoesBackToTheHeadOfTheQueue();
    void aFlushReturnsOnlyOnceTheGroupInFlightIsWritten();
    void aDurableAuditEntryWaitsForNoStatusRow();
    void aDurableAuditEntryFollowsTheAuditEntriesBeingWritten();
};

// One step (T1) flushed inside its own transaction: its group lands only when that step's end actions
// run. Between T1's commit (which gives up the turn) and those actions, a flush on T2 takes the next
// group and is still writing it when T1's group lands. The queue must then still count T2's group as
// in flight: a reader that flushes first (SHOW AUDIT_LOG) returns at once when the queue says it is
// empty, and would miss the entry being written.
void TestDeferredWrites::aGroupTakenWhileAnotherSettlesKeepsTheQueueBusy() {
    ConcurrentSteps steps;
    WrittenGroups written;
    written.holdAt = "second";
    const auto writes = writesOn(steps, written);

    Gate firstCommitted, secondTaken;
    steps.afterCommit = [&] {
        // T1's step, committed: it waits here until T2 took its group.
        firstCommitted.open();
        secondTaken.wait();
    };

    writes->addAudit(entry("first"));
    auto t1 = std::async(std::launch::async, [&] { steps.run([&] { writes->flush(); }); });
    QVERIFY2(firstCommitted.wait(), "the first step did not commit");

    writes->addAudit(entry("second"));
    auto t2 = std::async(std::launch::async, [&] { writes->flush(); });
    const OpenOnReturn openOnReturn{{&secondTaken, &written.hold}};
    QVERIFY2(written.holding.wait(), "the second group was not taken while the first step was settling");
    secondTaken.open();
    QVERIFY2(t1.wait_for(hangGuard) == std::future_status::ready, "the first step did not end");
    t1.get();

    // T1's group landed; T2's is being written.
    QVERIFY2(!writes->empty(), "the queue says it is idle while the second group is being written");
    QCOMPARE(written.all(), std::vector<std::string>{"first"});

    written.hold.open();
    QVERIFY2(t2.wait_for(hangGuard) == std::future_status::ready, "the second flush did not return");
    t2.get();
    QVERIFY(writes->empty());
    QCOMPARE(written.all(), (std::vector<std::string>{"first", "second"}));
}

// A flush inside a step that then rolls back: its group was written into that transaction and went
// with it, so it returns to the head of the queue, before what was queued meanwhile.
void TestDeferredWrites::aRolledBackJoinedGroupGoesBackToTheHeadOfTheQueue() {
    ConcurrentSteps steps;
    WrittenGroups written;
    std::vector<std::vector<std::string>> rolledBack;
    const auto writes = writesOn(steps, written);

    writes->addAudit(entry("a"));
    writes->addAudit(entry("b"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, steps.run([&] {
        writes->flush();
        writes->addAudit(entry("c")); // queued while the step is still open
        throw std::runtime_error("the durable write failed");
    }));
    QVERIFY2(!writes->empty(), "the rolled-back group was lost");

    written.groups.clear(); // what the rolled-back transaction was given never reached the database
    writes->flush();
    QCOMPARE(written.all(), (std::vector<std::string>{"a", "b", "c"}));
    QVERIFY(writes->empty());
}

// A reader's flush() with nothing queued but a group being written by another flush: it takes the
// turn after that flush and so returns only once the group is written.
void TestDeferredWrites::aFlushReturnsOnlyOnceTheGroupInFlightIsWritten() {
    ConcurrentSteps steps;
    WrittenGroups written;
    written.holdAt = "x";
    const auto writes = writesOn(steps, written);

    writes->addAudit(entry("x"));
    auto writer = std::async(std::launch::async, [&] { writes->flush(); });
    const OpenOnReturn openOnReturn{{&written.hold}};
    QVERIFY2(written.holding.wait(), "the group was not taken");
    QVERIFY(!writes->empty());

    std::atomic<bool> readerReturned = false;
    auto reader = std::async(std::launch::async, [&] {
        writes->flush();
        readerReturned = true;
        return written.all();
    });
    // The reader either returns at once (wrong: "x" is not written) or asks for the turn the writer holds.
    QTRY_VERIFY_WITH_TIMEOUT(readerReturned || steps.turnsAskedFor == 2, 60'000);
    QVERIFY2(!readerReturned, "the reader's flush returned while the group was still being written");
    written.hold.open();
    QVERIFY2(reader.wait_for(hangGuard) == std::future_status::ready, "the reader's flush did not return");
    QCOMPARE(reader.get(), std::vector<std::string>{"x"});
    QVERIFY(writer.wait_for(hangGuard) == std::future_status::ready);
    writer.get();
}

// A durable write's flushAuditEntries() with only status rows queued and a group of status rows being
// written: statuses keep no order, so it neither takes the turn nor writes them. An audit entry queued
// later is written in the durable write's step without the status queued before it.
void TestDeferredWrites::aDurableAuditEntryWaitsForNoStatusRow() {
    ConcurrentSteps steps;
    WrittenGroups written;
    written.holdAt = "status:r1";
    const auto writes = writesOn(steps, written);

    writes->addStatus({"p", "r1", std::nullopt, {}});
    auto background = std::async(std::launch::async, [&] { writes->flush(); });
    const OpenOnReturn openOnReturn{{&written.hold}};
    QVERIFY2(written.holding.wait(), "the status group was not taken");

    writes->addStatus({"p", "r2", std::nullopt, {}});
    auto durable = std::async(std::launch::async, [&] { steps.run([&] { writes->flushAuditEntries(); }); });
    QVERIFY2(durable.wait_for(hangGuard) == std::future_status::ready,
             "the durable write waited for a group of status rows");
    durable.get();
    QCOMPARE(steps.turnsAskedFor.load(), 1);
    written.hold.open();
    QVERIFY(background.wait_for(hangGuard) == std::future_status::ready);
    background.get();

    writes->addAudit(entry("a"));
    steps.run([&] { writes->flushAuditEntries(); });
    QCOMPARE(written.all(), (std::vector<std::string>{"status:r1", "a"}));
    QVERIFY2(!writes->empty(), "the status queued with the audit entry was taken with it");
    writes->flush();
    QCOMPARE(written.all(), (std::vector<std::string>{"status:r1", "a", "status:r2"}));
    QVERIFY(writes->empty());
}

// An audit entry being written by another flush comes before a durable one: flushAuditEntries() with
// nothing queued takes the turn after that flush.
void TestDeferredWrites::aDurableAuditEntryFollowsTheAuditEntriesBeingWritten() {
    ConcurrentSteps steps;
    WrittenGroups written;
    written.holdAt = "x";
    const auto writes = writesOn(steps, written);

    writes->addAudit(entry("x"));
    auto background = std::async(std::launch::async, [&] { writes->flush(); });
    const OpenOnReturn openOnReturn{{&written.hold}};
    QVERIFY2(written.holding.wait(), "the group was not taken");

    std::atomic<bool> durableReturned = false;
    auto durable = std::async(std::launch::async, [&] {
        steps.run([&] { writes->flushAuditEntries(); });
        durableReturned = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(durableReturned || steps.turnsAskedFor == 2, 60'000);
    QVERIFY2(!durableReturned, "the durable write went ahead of an audit entry being written");
    written.hold.open();
    QVERIFY(durable.wait_for(hangGuard) == std::future_status::ready);
    durable.get();
    QVERIFY(background.wait_for(hangGuard) == std::future_status::ready);
    background.get();
    QCOMPARE(written.all(), std::vector<std::string>{"x"});
}

JOBDECK_TEST_APPLESS_MAIN(TestDeferredWrites)
#include "tst_deferredwrites.moc"
