#pragma once

#include <QtGlobal>

namespace jobdeck {

// A loopback TCP port kept for one test's server for as long as the test needs it, also while the
// server is stopped (an outage). It is chosen below the kernel's ephemeral range, which bind(0) and
// outgoing connections draw from, and held against the other test processes on the machine by a lock
// on a file named after it (<temp>/jobdeck-test-ports/<port>). Without both, a paused PostgreSQL's port could
// be taken by another suite's cluster, which has the same user and database name, and the service under test
// would go on serving from a stranger's database.
class PortReservation final {
public:
    PortReservation() = default;
    ~PortReservation() { release(); }
    PortReservation(const PortReservation&) = delete;
    PortReservation& operator=(const PortReservation&) = delete;

    // Releases any port held and reserves one that nothing listens on now; 0 when none was found.
    quint16 reserve();
    void release();
    quint16 port() const { return m_port; }

private:
    quint16 m_port = 0;
    int m_lockFd = -1;
};

} // namespace jobdeck
