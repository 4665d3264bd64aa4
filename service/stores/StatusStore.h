#pragma once

#include "core/wire/ApiStatus.h"
#include "core/wire/Timestamp.h"
#include "service/stores/StatusJson.h"
#include "service/stores/SweepStep.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace jobdeck {

// The final status of each request (and PENDING for one acknowledged and not finished), by request id,
// scoped by project. "Durable" writes join the caller's UnitOfWork, if any; "deferred" ones are
// committed with the next group, and `committed`, when given, is called with the outcome of that group,
// which then starts at once.
class StatusStore {
public:
    virtual ~StatusStore() = default;
    virtual void saveRequestStatus(const std::string& projectUid, const std::string& requestId,
                                   const StatusJson& status) = 0;
    virtual void deferRequestStatus(std::string projectUid, std::string requestId, StatusJson status,
                                    std::function<void(bool committed)> committed = {}) = 0;
    // Records the request as PENDING unless a status is stored already (durable / with the next group).
    virtual void savePendingRequest(const std::string& projectUid, const std::string& requestId) = 0;
    virtual void deferPendingRequest(const std::string& projectUid, const std::string& requestId,
                                     std::function<void(bool committed)> committed = {}) = 0;
    // Commits queued statuses first, so a status deferred a moment ago is found.
    virtual std::optional<ApiStatus> findRequestStatus(const std::string& projectUid,
                                                       const std::string& requestId) = 0;
    // What is committed now, without committing the queue (no fsync; may run on an IO thread). A
    // final status found this way is the request's last word; a PENDING one may have a final one
    // queued.
    virtual std::optional<ApiStatus> findCommittedRequestStatus(const std::string& projectUid,
                                                                const std::string& requestId,
                                                                TimePoint* writtenAt = nullptr) = 0;
    // Statuses written longer ago than this are not found any more (default 24 hours); sweepExpired
    // deletes them.
    virtual void setStatusRetention(std::chrono::seconds retention) = 0;
    // The replica this process is (ReplicaIdentity): PENDING rows written from now on record it. Set at
    // start, before any request.
    virtual void setReplicaId(const std::string& replicaId) = 0;
    // At start: every request this replica left PENDING, and every one no replica is recorded for, gets
    // FAILED with `message` (its process ended before it finished). Returns how many.
    virtual int failUnfinishedRequests(const std::string& message) = 0;
    // The same for the requests another replica left PENDING, once it is gone.
    virtual int failUnfinishedRequestsOf(const std::string& replicaId, const std::string& message) = 0;
    // Deletes the next batch of final statuses after `after` last written before `cutoff`.
    virtual SweepStep sweepExpired(TimePoint cutoff, std::int64_t after) = 0;
};

} // namespace jobdeck
