#include "service/stores/SqliteChangeStamp.h"

#include "core/wire/DatabaseFaults.h"
namespace jobdeck {

namespace {

// Connections that watch for commits; about one per IO thread.
constexpr std::size_t watchLimit = 4;

} // namespace

std::uint64_t SqliteChangeStamp::current() {
    // Any idle watch will do: each moves the stamp when it sees a commit it had not seen, and the
    // first look of every watch after a commit comes after it, so a stamp read after a commit always
    // differs from one read before it. Several watches let the IO threads look at once.
    std::unique_lock<std::mutex> lock;
    Watch* watch = nullptr;
    {
        const std::lock_guard watches(m_watchesMutex);
        for (const auto& candidate : m_watches) {
            lock = std::unique_lock(candidate->mutex, std::try_to_lock);
            if (lock.owns_lock()) {
                watch = candidate.get();
                break;
            }
        }
        if (!watch && m_watches.size() < watchLimit) {
            auto fresh = std::make_unique<Watch>();
            fresh->db = SqliteDatabase::open(m_path, SqliteDatabase::Mode::ReadOnly);
            watch = fresh.get();
            m_watches.push_back(std::move(fresh));
        } else if (!watch) {
            watch = m_watches[m_looks++ % m_watches.size()].get();
        }
    }
    if (!lock.owns_lock())
        lock = std::unique_lock(watch->mutex);
    auto q = watch->db->query("PRAGMA data_version");
    if (!q.step())
        throw DatabaseError(databaseBookkeepingMissingMessage("PRAGMA data_version returned nothing"));
    if (const std::int64_t version = q.int64(0); version != watch->version) {
        watch->version = version;
        return m_stamp.fetch_add(1) + 1;
    }
    return m_stamp.load();
}

} // namespace jobdeck
