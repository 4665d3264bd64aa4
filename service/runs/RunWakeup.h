#pragma once

#include <chrono>
#include <string>

namespace jobdeck {

// What wakes the run scheduler before its next poll: pokes from the service's own threads (an
// eventfd) and drivers' monitors, which write a byte to a FIFO once a driver's exit status is in
// place. Without a FIFO (it cannot be created) the scheduler still finds exits by polling.
class RunWakeup final {
public:
    // `fifoPath` is created (or re-created) as a FIFO; a stale file of another kind is replaced.
    explicit RunWakeup(std::string fifoPath);
    ~RunWakeup();
    RunWakeup(const RunWakeup&) = delete;
    RunWakeup& operator=(const RunWakeup&) = delete;

    void poke();
    // Returns after a poke or a monitor's byte (consumed), or once `timeout` has passed.
    void wait(std::chrono::milliseconds timeout);
    // Empty when there is no FIFO.
    std::string fifoPath() const { return m_fifoFd >= 0 ? m_fifoPath : std::string(); }

private:
    std::string m_fifoPath;
    int m_eventFd = -1;
    int m_fifoFd = -1;
};

} // namespace jobdeck
