#include "service/statements/RequestRegistry.h"

#include "core/statements/NotFoundMessages.h"
#include "core/statements/StatementRefusals.h"
#include "core/wire/Timestamp.h"
#include "service/stores/RandomIds.h"
#include "service/stores/StatusStore.h"

#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <atomic>
#include <exception>

namespace jobdeck {

namespace {
constexpr std::size_t kRecentLimit = 10'000;
// How often a waiter looks again at a request PENDING in the database but not here (another replica runs
// it): a committed read by id, no fsync.
constexpr std::chrono::milliseconds kElsewherePoll{100};
} // namespace

struct RequestRegistry::Waiter {
    explicit Waiter(boost::asio::io_context& io, std::function<void(StatusJson)> callback)
        : timer(io)
        , done(std::move(callback)) {}

    // Whichever comes first, the status or the deadline, answers.
    void fire(StatusJson status) {
        if (fired.exchange(true))
            return;
        timer.cancel();
        done(std::move(status));
    }

    boost::asio::steady_timer timer;
    std::function<void(StatusJson)> done;
    std::atomic<bool> fired{false};
};

RequestRegistry::RequestRegistry(StatusStore& statuses, boost::asio::io_context& timers,
                                 std::chrono::seconds statusRetention)
    : m_statuses(statuses)
    , m_timers(timers)
    , m_statusRetention(statusRetention) {
    m_statuses.setStatusRetention(statusRetention);
    if (const int failed = m_statuses.failUnfinishedRequests(requestInterruptedByRestartMessage());
        failed > 0)
        spdlog::warn("{} request(s) were still pending when the service last stopped; they are now FAILED",
                     failed);
}

std::string RequestRegistry::notFoundMessage() const {
    return unknownRequestIdMessage(m_statusRetention);
}

RequestRegistry::~RequestRegistry() {
    m_alive->store(false); // watchElsewhere()'s timers no longer look
    // Whoever still waits is told PENDING rather than never answered.
    std::vector<std::shared_ptr<Waiter>> waiters;
    {
        const std::lock_guard lock(m_mutex);
        for (auto& [id, pending] : m_pending)
            waiters.insert(waiters.end(), pending.waiters.begin(), pending.waiters.end());
        m_pending.clear();
    }
    for (const auto& waiter : waiters)
        waiter->fire(StatusJson());
}

std::string RequestRegistry::newId() {
    return RandomIds::timeOrderedUuid();
}

std::string RequestRegistry::begin(const std::string& projectUid) {
    std::string id = newId();
    const std::lock_guard lock(m_mutex);
    m_pending[id] = Pending{projectUid, {}};
    return id;
}

void RequestRegistry::abandon(const std::string& projectUid, const std::string& requestId) {
    const std::lock_guard lock(m_mutex);
    if (const auto it = m_pending.find(requestId);
        it != m_pending.end() && it->second.projectUid == projectUid)
        m_pending.erase(it);
}

void RequestRegistry::finish(const std::string& projectUid, const std::string& requestId,
                             const StatusJson& status, Stored stored) {
    if (stored == Stored::No) {
        try {
            m_statuses.saveRequestStatus(projectUid, requestId, status);
        } catch (const std::exception& e) {
            spdlog::error("could not persist the status of request {}: {}", requestId, e.what());
        }
    }
    std::vector<std::shared_ptr<Waiter>> waiters;
    bool acknowledged = false;
    {
        const std::lock_guard lock(m_mutex);
        if (const auto it = m_pending.find(requestId); it != m_pending.end()) {
            waiters = std::move(it->second.waiters);
            acknowledged = it->second.acknowledged;
            m_pending.erase(it);
        }
        remember(requestId, projectUid, status, stored != Stored::OnlyIfAcknowledged || acknowledged);
    }
    // The client holds only the id: the status must outlive this process's memory.
    if (stored == Stored::OnlyIfAcknowledged && acknowledged)
        m_statuses.deferRequestStatus(projectUid, requestId, status);
    for (const auto& waiter : waiters)
        waiter->fire(status);
}

void RequestRegistry::storeRemembered() {
    std::vector<std::pair<std::string, Recent>> unstored;
    {
        const std::lock_guard lock(m_mutex);
        for (auto& [id, recent] : m_recent)
            if (!recent.stored) {
                recent.stored = true;
                unstored.emplace_back(id, recent);
            }
    }
    for (auto& [id, recent] : unstored)
        m_statuses.deferRequestStatus(recent.projectUid, id, recent.status);
}

void RequestRegistry::acknowledge(const std::string& projectUid, const std::string& requestId,
                                  Durability durability, std::function<void(bool recorded)> recorded) {
    {
        const std::lock_guard lock(m_mutex);
        if (const auto it = m_pending.find(requestId); it != m_pending.end()) {
            it->second.acknowledged = true;
        } else {
            // Final already: stored with its statement, unless it is a read's kept in memory.
            const auto recent = m_recent.find(requestId);
            if (recent == m_recent.end() || recent->second.stored ||
                recent->second.projectUid != projectUid) {
                if (recorded)
                    recorded(true);
                return;
            }
            recent->second.stored = true;
            m_statuses.deferRequestStatus(projectUid, requestId, recent->second.status, std::move(recorded));
            return;
        }
    }
    // The row is only inserted when there is none, so a final status stored meanwhile stays.
    if (durability == Durability::Durable) {
        m_statuses.savePendingRequest(projectUid, requestId);
        if (recorded)
            recorded(true);
    } else {
        m_statuses.deferPendingRequest(projectUid, requestId, std::move(recorded));
    }
}

void RequestRegistry::remember(const std::string& requestId, const std::string& projectUid, StatusJson status,
                               bool stored, std::chrono::system_clock::time_point writtenAt) {
    Recent recent{projectUid, std::move(status), stored, writtenAt};
    // try_emplace leaves `recent` as it is when the id is there already.
    const std::size_t bytes = recent.status.text().size();
    const auto [it, added] = m_recent.try_emplace(requestId, std::move(recent));
    if (added) {
        m_recentOrder.push_back(&it->first); // a map's keys stay where they are until erased
    } else {
        m_recentBytes -= it->second.status.text().size();
        it->second = std::move(recent);
    }
    m_recentBytes += bytes;
    // The newest stays, however large: its client may poll it at once.
    while (m_recentOrder.size() > kRecentLimit ||
           (m_recentBytes > kRememberedBytesLimit && m_recentOrder.size() > 1)) {
        // A read's status leaving memory is queued for the database, so it can still be asked for.
        auto node = m_recent.extract(*m_recentOrder.front());
        m_recentOrder.pop_front();
        m_recentBytes -= node.mapped().status.text().size();
        if (!node.mapped().stored)
            m_statuses.deferRequestStatus(std::move(node.mapped().projectUid), std::move(node.key()),
                                          std::move(node.mapped().status));
    }
}

std::optional<StatusJson> RequestRegistry::find(const std::string& projectUid, const std::string& requestId) {
    if (auto status = findInMemory(projectUid, requestId))
        return status;
    if (auto stored = m_statuses.findRequestStatus(projectUid, requestId))
        return StatusJson(*stored);
    return std::nullopt;
}

std::optional<StatusJson> RequestRegistry::findQuickly(const std::string& projectUid,
                                                       const std::string& requestId) {
    if (auto status = findInMemory(projectUid, requestId))
        return status;
    // Final statuses never change; a PENDING one may have its final one still queued.
    TimePoint writtenAt;
    const auto stored = m_statuses.findCommittedRequestStatus(projectUid, requestId, &writtenAt);
    if (!stored || !stored->isFinal())
        return std::nullopt;
    // Kept among the recent ones again, so that a client polling an old id reads it from memory.
    StatusJson status(*stored);
    const std::lock_guard lock(m_mutex);
    if (!m_recent.contains(requestId))
        remember(requestId, projectUid, status, true, writtenAt);
    return status;
}

std::optional<StatusJson> RequestRegistry::findInMemory(const std::string& projectUid,
                                                        const std::string& requestId) {
    const std::lock_guard lock(m_mutex);
    if (const auto it = m_pending.find(requestId); it != m_pending.end())
        return it->second.projectUid == projectUid ? std::optional(StatusJson()) : std::nullopt;
    if (const auto it = m_recent.find(requestId); it != m_recent.end()) {
        // An expired one stays until it leaves by age; then it is found nowhere.
        if (it->second.projectUid != projectUid ||
            it->second.writtenAt + m_statusRetention <= std::chrono::system_clock::now())
            return std::nullopt;
        return it->second.status;
    }
    return std::nullopt;
}

void RequestRegistry::waitFor(const std::string& projectUid, const std::string& requestId,
                              std::chrono::milliseconds wait, std::function<void(StatusJson)> done) {
    auto waiter = std::make_shared<Waiter>(m_timers, std::move(done));
    {
        const std::lock_guard lock(m_mutex);
        if (const auto it = m_pending.find(requestId);
            it != m_pending.end() && it->second.projectUid == projectUid) {
            it->second.waiters.push_back(waiter);
            waiter->timer.expires_after(wait);
            waiter->timer.async_wait([waiter](const boost::system::error_code& ec) {
                if (!ec)
                    waiter->fire(StatusJson());
            });
            return;
        }
    }
    // Already final (or unknown, which the caller has ruled out): answer now.
    const auto status = find(projectUid, requestId);
    if (!status || status->isFinal() || wait.count() <= 0) {
        waiter->fire(status.value_or(StatusJson()));
        return;
    }
    // PENDING in the database and not here: another replica runs it and stores its final status.
    watchElsewhere(waiter, projectUid, requestId, std::chrono::steady_clock::now() + wait);
}

void RequestRegistry::watchElsewhere(const std::shared_ptr<Waiter>& waiter, const std::string& projectUid,
                                     const std::string& requestId,
                                     std::chrono::steady_clock::time_point deadline) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) {
        waiter->fire(StatusJson());
        return;
    }
    waiter->timer.expires_after(std::min<std::chrono::steady_clock::duration>(kElsewherePoll, left));
    waiter->timer.async_wait([this, alive = m_alive, waiter, projectUid, requestId,
                              deadline](const boost::system::error_code& ec) {
        if (ec || waiter->fired || !alive->load())
            return;
        std::optional<StatusJson> final;
        try {
            final = findQuickly(projectUid, requestId); // final statuses only
        } catch (const std::exception& e) {
            spdlog::warn("could not look for the status of request {}: {}", requestId, e.what());
        }
        if (final)
            waiter->fire(std::move(*final));
        else
            watchElsewhere(waiter, projectUid, requestId, deadline);
    });
}

} // namespace jobdeck
