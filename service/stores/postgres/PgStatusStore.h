#pragma once

#include "service/stores/ChunkedInsert.h"
#include "service/stores/DeferredWrites.h"
#include "service/stores/StatusStore.h"
#include "service/stores/postgres/PgConnections.h"

#include <atomic>
#include <mutex>
#include <string>

namespace jobdeck {

// The requests table (see PgSchema). Deferred statuses are queued in `deferred`, whose group commits
// write them through insertRows().
class PgStatusStore final : public StatusStore {
public:
    using RowErrors = chunked_insert::RowErrors;

    PgStatusStore(PgConnections& connections, DeferredWrites& deferred)
        : m_connections(connections)
        , m_deferred(deferred) {}

    void saveRequestStatus(const std::string& projectUid, const std::string& requestId,
                           const StatusJson& status) override;
    void deferRequestStatus(std::string projectUid, std::string requestId, StatusJson status,
                            std::function<void(bool committed)> committed = {}) override;
    void savePendingRequest(const std::string& projectUid, const std::string& requestId) override;
    void deferPendingRequest(const std::string& projectUid, const std::string& requestId,
                             std::function<void(bool committed)> committed = {}) override;
    std::optional<ApiStatus> findRequestStatus(const std::string& projectUid,
                                               const std::string& requestId) override;
    std::optional<ApiStatus> findCommittedRequestStatus(const std::string& projectUid,
                                                        const std::string& requestId,
                                                        TimePoint* writtenAt = nullptr) override;
    void setStatusRetention(std::chrono::seconds retention) override;
    void setReplicaId(const std::string& replicaId) override;
    int failUnfinishedRequests(const std::string& message) override;
    int failUnfinishedRequestsOf(const std::string& replicaId, const std::string& message) override;
    SweepStep sweepExpired(TimePoint cutoff, std::int64_t after) override;

    // Multi-row INSERTs, joining the step under way on this thread, if any.
    void insertRows(const std::vector<DeferredWrites::StatusRow>& rows, RowErrors errors);

private:
    std::string replicaId() const;

    PgConnections& m_connections;
    DeferredWrites& m_deferred;
    std::atomic<std::chrono::seconds> m_statusRetention{std::chrono::hours(24)};
    mutable std::mutex m_replicaMutex;
    std::string m_replicaId;
};

} // namespace jobdeck
