#include "service/stores/DatabaseFaultError.h"

#include <atomic>
#include <chrono>

namespace jobdeck {

namespace {

using Clock = std::chrono::steady_clock;

// How long a fault is taken as the reason of a write failure that does not say why.
constexpr auto kRecent = std::chrono::seconds(5);

std::atomic<DatabaseFault> g_lastFault{DatabaseFault::Other};
std::atomic<Clock::duration> g_lastFaultAt{Clock::duration::zero()};

} // namespace

DatabaseFaultError::DatabaseFaultError(const std::string& message, DatabaseFault fault)
    : DatabaseError(message, fault == DatabaseFault::TimedOut || fault == DatabaseFault::Unavailable
                                 ? Cause::Unavailable
                                 : Cause::Other)
    , m_fault(fault) {
    g_lastFault.store(fault);
    g_lastFaultAt.store(Clock::now().time_since_epoch());
}

DatabaseFault DatabaseFaultError::faultOf(const std::exception& e) {
    if (const auto* fault = dynamic_cast<const DatabaseFaultError*>(&e))
        return fault->fault();
    if (const auto* database = dynamic_cast<const DatabaseError*>(&e); database && database->isUnavailable())
        return DatabaseFault::Unavailable;
    return DatabaseFault::Other;
}

DatabaseFault DatabaseFaultError::recentFault() {
    if (Clock::now() - Clock::time_point(g_lastFaultAt.load()) > kRecent)
        return DatabaseFault::Other;
    return g_lastFault.load();
}

} // namespace jobdeck
