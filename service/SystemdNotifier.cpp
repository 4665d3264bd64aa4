#include "service/SystemdNotifier.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace jobdeck {

SystemdNotifier::SystemdNotifier() {
    if (const char* socket = std::getenv("NOTIFY_SOCKET"); socket && *socket)
        m_socketPath = socket;
    ::unsetenv("NOTIFY_SOCKET");
}

bool SystemdNotifier::notify(std::string_view state) const {
    if (m_socketPath.empty())
        return false;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (m_socketPath.size() >= sizeof(address.sun_path) ||
        (m_socketPath.front() != '/' && m_socketPath.front() != '@')) {
        spdlog::warn("NOTIFY_SOCKET '{}' is not a socket path; systemd is not told the state", m_socketPath);
        return false;
    }
    std::memcpy(address.sun_path, m_socketPath.data(), m_socketPath.size());
    if (address.sun_path[0] == '@')
        address.sun_path[0] = '\0'; // abstract namespace
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + m_socketPath.size());
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const ssize_t sent = ::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                                  reinterpret_cast<const sockaddr*>(&address), length);
    const int error = errno;
    ::close(fd);
    if (sent != static_cast<ssize_t>(state.size())) {
        spdlog::warn("cannot notify systemd on {}: {}", m_socketPath, std::strerror(error));
        return false;
    }
    return true;
}

} // namespace jobdeck
