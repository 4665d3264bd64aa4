#pragma once

#include <algorithm>
#include <chrono>

namespace jobdeck {

// The waits between attempts at something that keeps failing (a connection check, the events long poll,
// a load): the first wait, then twice the one before, up to a cap; none again after a success.
class RetryBackoff final {
public:
    RetryBackoff(std::chrono::milliseconds first, std::chrono::milliseconds cap)
        : m_first(first)
        , m_cap(cap) {}

    void setLimits(std::chrono::milliseconds first, std::chrono::milliseconds cap) {
        m_first = first;
        m_cap = cap;
    }
    // After a failure: how long to wait before the next attempt.
    std::chrono::milliseconds afterFailure() {
        m_current = m_current.count() == 0 ? m_first : std::min(m_current * 2, m_cap);
        return m_current;
    }
    // After a success, or when starting over.
    void reset() { m_current = std::chrono::milliseconds(0); }
    // The last wait handed out; 0 since the last reset.
    std::chrono::milliseconds current() const { return m_current; }

private:
    std::chrono::milliseconds m_first;
    std::chrono::milliseconds m_cap;
    std::chrono::milliseconds m_current{0};
};

} // namespace jobdeck
