#pragma once

#include <string>
#include <string_view>

namespace jobdeck {

// Tells systemd how the service is doing (`Type=notify`): the sd_notify datagram protocol on the
// socket named by $NOTIFY_SOCKET (a path, or `@name` for the abstract namespace), written directly so
// that jobdeckd needs no libsystemd. Without $NOTIFY_SOCKET every call does nothing. The variable is
// taken out of the environment at construction, so that drivers started later do not inherit it.
class SystemdNotifier final {
public:
    SystemdNotifier();

    // Sends `state` (e.g. "READY=1\nSTATUS=..."); false when there is no socket or sending failed.
    bool notify(std::string_view state) const;
    bool enabled() const { return !m_socketPath.empty(); }

private:
    std::string m_socketPath;
};

} // namespace jobdeck
