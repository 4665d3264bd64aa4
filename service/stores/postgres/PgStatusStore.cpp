#include "service/stores/postgres/PgStatusStore.h"

#include "service/stores/StatusRows.h"
#include "service/stores/SweepRows.h"

namespace jobdeck {

namespace {

// The apiStatus field of a requests row's status JSON.
constexpr const char* apiStatusOf = "(status::json->>'apiStatus')";

} // namespace

void PgStatusStore::saveRequestStatus(const std::string& projectUid, const std::string& requestId,
                                      const StatusJson& status) {
    insertRows({{projectUid, requestId, status, {}}}, RowErrors::Throw);
}

void PgStatusStore::deferRequestStatus(std::string projectUid, std::string requestId, StatusJson status,
                                       std::function<void(bool committed)> committed) {
    m_deferred.addStatus(
        {std::move(projectUid), std::move(requestId), std::move(status), std::move(committed)});
}

void PgStatusStore::savePendingRequest(const std::string& projectUid, const std::string& requestId) {
    insertRows({{projectUid, requestId, std::nullopt, {}}}, RowErrors::Throw);
}

void PgStatusStore::deferPendingRequest(const std::string& projectUid, const std::string& requestId,
                                        std::function<void(bool committed)> committed) {
    m_deferred.addStatus({projectUid, requestId, std::nullopt, std::move(committed)});
}

void PgStatusStore::setReplicaId(const std::string& replicaId) {
    const std::lock_guard lock(m_replicaMutex);
    m_replicaId = replicaId;
}

int PgStatusStore::failUnfinishedRequests(const std::string& message) {
    auto connection = m_connections.connection();
    return status_rows::failUnfinished(*connection, message, apiStatusOf, replicaId(), true);
}

int PgStatusStore::failUnfinishedRequestsOf(const std::string& gone, const std::string& message) {
    auto connection = m_connections.connection();
    return status_rows::failUnfinished(*connection, message, apiStatusOf, gone, false);
}

std::string PgStatusStore::replicaId() const {
    const std::lock_guard lock(m_replicaMutex);
    return m_replicaId;
}

std::optional<ApiStatus> PgStatusStore::findRequestStatus(const std::string& projectUid,
                                                          const std::string& requestId) {
    m_deferred.flush();
    return findCommittedRequestStatus(projectUid, requestId);
}

std::optional<ApiStatus> PgStatusStore::findCommittedRequestStatus(const std::string& projectUid,
                                                                   const std::string& requestId,
                                                                   TimePoint* writtenAt) {
    auto connection = m_connections.freshConnection();
    return status_rows::findCommitted(*connection, projectUid, requestId,
                                      formatTimestamp(timestampNow() - m_statusRetention.load()), writtenAt);
}

void PgStatusStore::setStatusRetention(std::chrono::seconds retention) {
    m_statusRetention = retention;
}

void PgStatusStore::insertRows(const std::vector<DeferredWrites::StatusRow>& rows, RowErrors errors) {
    auto connection = m_connections.connection();
    status_rows::insert(*connection, rows, errors, replicaId());
}

SweepStep PgStatusStore::sweepExpired(TimePoint cutoff, std::int64_t after) {
    // A PENDING row belongs to a request that is still running (or to a process that died: the next
    // start makes it FAILED, and so new).
    static const sweep_rows::Table table{"requests", "seq", "created_at", "updated_at",
                                         std::string(" AND ") + apiStatusOf +
                                             " <> 'API_OPERATION_STATUS_PENDING'"};
    return m_connections.run([&] {
        auto connection = m_connections.connection();
        return sweep_rows::batch(*connection, table, cutoff, after);
    });
}

} // namespace jobdeck
