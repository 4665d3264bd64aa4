#pragma once

#include "service/runs/CapturedCommand.h"
#include "service/runs/SubmissionOutput.h"
#include "service/stores/RunStore.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace jobdeck {

// Follows the runs submitted in cluster deploy mode once their submission id is known: on threads of
// its own (spark-submit is a JVM and may take seconds to answer, which must not hold up the scheduler;
// a few at once, so that one that hangs until its timeout holds up no other run) it asks
// `spark-submit --status <id> --master <url>` every interval, sends `--kill` for runs whose
// cancel was asked, appends what the cluster manager answered to the run's log whenever the driver's
// state changes, and hands each final state to `end`. Everything it knows is in the runs table, so a
// restarted service resumes following where the previous one was. Of the runs of several replicas on
// one database it follows those its own replica owns.
class ClusterRunTracker final {
public:
    // Ends a run that is still RUNNING with that submission id (the caller re-reads it under its lock).
    using EndRun =
        std::function<void(const RunRecord& seen, JobRunStatus status, std::optional<std::string> message)>;

    // stop() gives a spark-submit still running `shutdownGrace` to end, then kills it. `mayFollow`: whether
    // this replica's lease is live now; it follows no run while it is not.
    ClusterRunTracker(RunStore& runs, std::string replicaId, std::string sparkSubmit,
                      std::chrono::seconds interval, std::chrono::seconds shutdownGrace, EndRun end,
                      std::function<bool()> mayFollow);
    ~ClusterRunTracker();
    ClusterRunTracker(const ClusterRunTracker&) = delete;
    ClusterRunTracker& operator=(const ClusterRunTracker&) = delete;

    void start();
    void stop();
    void poke(); // look at every run now (a new submission, a cancel)

    // Appends to a run's log (its driver.log, which the log route serves).
    static void appendToLog(const std::string& logPath, const std::string& text);

    // How many answers in a row that the cluster manager does not know the driver (or has lost it)
    // end a run FAILED.
    static constexpr int kLostAfter = 3;
    // How many runs are asked about at once.
    static constexpr int kParallelCommands = 4;

private:
    struct Followed {
        std::string lastAnswer; // state (or problem) last written to the log
        int lostAnswers = 0;    // NotFound/Unknown answers in a row
        std::optional<std::chrono::steady_clock::time_point> killSentAt;
    };

    void loop();
    void work();
    void followAll();
    void follow(const RunRecord& record, Followed& followed);
    void sendKill(const RunRecord& record, Followed& followed);
    std::optional<std::pair<JobRunStatus, std::optional<std::string>>>
    outcome(const RunRecord& record, const DriverStatus& status, Followed& followed) const;

    RunStore& m_runs;
    std::string m_replicaId;
    std::string m_sparkSubmit;
    std::chrono::seconds m_interval;
    std::chrono::seconds m_shutdownGrace;
    EndRun m_end;
    CommandStop m_commandStop;
    std::function<bool()> m_mayFollow;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_queued;
    bool m_poked = false;
    bool m_stopping = false;
    std::thread m_thread;
    std::vector<std::thread> m_workers;
    std::deque<RunRecord> m_queue;  // runs to ask about, each at most once in m_queue or m_asking
    std::set<std::string> m_asking; // run ids queued or being asked about
    // Run id -> what this process has seen; an entry is used by the one worker asking about its run.
    std::map<std::string, Followed> m_followed;
};

} // namespace jobdeck
