#include "service/runs/LaunchPacing.h"

namespace jobdeck {

void LaunchPacing::admitted(Clock::time_point at) {
    m_lastAdmission = at.time_since_epoch().count();
}

bool LaunchPacing::holdBack(Clock::time_point now) {
    // An admission stamped after `now` was read (another thread) is part of the burst too.
    const Clock::rep last = m_lastAdmission.load();
    if (last == 0 || now - Clock::time_point(Clock::duration(last)) >= kBurstQuiet) {
        m_burstSince.reset();
        return false;
    }
    if (!m_burstSince || now - *m_burstSince >= 2 * kLongestDeferral)
        m_burstSince = now;
    return now - *m_burstSince < kLongestDeferral;
}

} // namespace jobdeck
