#pragma once

#include "core/wire/AuditEntry.h"
#include "service/stores/StatusJson.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace jobdeck {

class UnitOfWork;

// Writes that need not be on disk before the request that made them is answered (audit entries and
// statuses of read statements): queued in memory as rows and committed together by a background
// thread, in one transaction (one fsync) every `interval` or as soon as `batch` are waiting. flush()
// commits what is queued now; a durable audit entry's transaction commits the queued audit entries
// with it (flushAuditEntries()), so audit entries always reach the database in the order they were
// made (and when that transaction rolls back, the rows go back to the head of the queue rather than
// with it). The destructor flushes. A group whose rows fail to write is logged and
// dropped. A row can carry a `committed` callback: it is called once, with true after the row's group
// committed or false when the group failed, and a queued callback starts the group at once (its
// caller waits for it, so gathering more rows would only add latency).
class DeferredWrites final {
public:
    // A request's status row; without a status, the PENDING row of an acknowledged request (written
    // only when there is none).
    struct StatusRow {
        std::string projectUid;
        std::string requestId;
        std::optional<StatusJson> status;
        std::function<void(bool committed)> committed; // may be empty
    };
    // What one group commits: the audit entries in the order they were made, and the status rows
    // (whose order does not matter: a PENDING row never replaces a status).
    struct Batch {
        std::vector<AuditEntry> audit;
        std::vector<StatusRow> statuses;
        bool empty() const { return audit.empty() && statuses.empty(); }
        std::size_t size() const { return audit.size() + statuses.size(); }
    };
    // Writes a batch; it runs inside a UnitOfWork step.
    using Writer = std::function<void(const Batch&)>;
    // Runs first inside a flush's step and holds until that step ends, so that flushes take turns
    // where steps run at once (UnitOfWork::stepsRunConcurrently): the group one flush took is written
    // and committed (or put back) before the next flush takes the queue. Behind one writer, empty.
    using TurnTaker = std::function<void()>;

    DeferredWrites(UnitOfWork& unitOfWork, Writer writer, std::chrono::milliseconds interval,
                   std::size_t batch, TurnTaker takeTurn = {});
    ~DeferredWrites();
    DeferredWrites(const DeferredWrites&) = delete;
    DeferredWrites& operator=(const DeferredWrites&) = delete;

    void addAudit(AuditEntry entry);
    void addStatus(StatusRow row);
    // Writes every queued row in one transaction (joining the caller's, if it is inside one). When it
    // returns, every row queued before the call is written, also one the background thread was writing.
    void flush();
    // What a durable audit entry is written after, inside its transaction: the queued audit entries,
    // once those being written by another flush are. Status rows keep no order, so they are left to
    // the background thread, and with no audit entry queued or being written this neither writes nor
    // waits: a durable write is not held up by the statuses of reads.
    void flushAuditEntries();
    // Nothing queued, and no group being written.
    bool empty() const;

private:
    void run();
    // Under m_mutex, after a row was queued.
    bool queuedOne();
    // Which rows a flush takes.
    enum class Rows { All, AuditOnly };
    void flushRows(Rows rows);
    // Under the unit of work's step: moves the queue (or its audit entries) into m_writing, marked in
    // flight when not empty, and says whether there was anything to write.
    bool takeQueue(Rows rows);
    // Under m_mutex: a group taken from the queue (`withAudit`: holding audit entries) is no longer in
    // flight.
    void landed(bool withAudit);
    // The end of the transaction a flush() joined: the group it wrote landed, or goes back to the queue.
    void settleJoined(Batch& group, bool committed);
    // Takes the callbacks out of `rows` and calls them with `committed`.
    static void notify(Batch& rows, bool committed);

    UnitOfWork& m_unitOfWork;
    const Writer m_writer;
    const TurnTaker m_takeTurn;
    const std::chrono::milliseconds m_interval;
    const std::size_t m_batch;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    Batch m_queue;
    Batch m_writing; // the group being written, inside flush()'s transaction only
    // Groups taken from the queue and not committed (or put back) yet. A count, not a flag: where steps
    // run at once, the step that joined one group may end while the next group is being written.
    std::size_t m_groupsInFlight = 0;
    std::size_t m_auditGroupsInFlight = 0; // of those, the groups holding audit entries
    bool m_stopping = false;
    bool m_callbackQueued = false; // a queued row has a `committed` callback: write the group now
    std::thread m_thread;
};

} // namespace jobdeck
