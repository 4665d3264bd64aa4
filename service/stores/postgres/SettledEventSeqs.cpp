#include "service/stores/postgres/SettledEventSeqs.h"

#include <algorithm>

namespace jobdeck {

std::int64_t SettledEventSeqs::observe(std::int64_t xmin, std::int64_t idAfter, std::int64_t newest) {
    const std::lock_guard lock(m_mutex);
    if (newest > m_settled)
        remember(idAfter, newest);
    while (!m_waiting.empty() && m_waiting.front().idAfter <= xmin) {
        m_settled = std::max(m_settled, m_waiting.front().newest);
        m_waiting.pop_front();
    }
    return m_settled;
}

void SettledEventSeqs::remember(std::int64_t idAfter, std::int64_t newest) {
    // Snapshots come from several threads in any order. One that waits for no more transactions than
    // the last kept joins it; one that waits for more and settles no more than it adds nothing.
    if (!m_waiting.empty() && m_waiting.back().idAfter >= idAfter)
        m_waiting.back().newest = std::max(m_waiting.back().newest, newest);
    else if ((m_waiting.empty() || m_waiting.back().newest < newest) && m_waiting.size() < kWaitingLimit)
        m_waiting.push_back({idAfter, newest});
}

std::int64_t SettledEventSeqs::settled() const {
    const std::lock_guard lock(m_mutex);
    return m_settled;
}

} // namespace jobdeck
