#include "service/runs/RunWakeup.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace jobdeck {

RunWakeup::RunWakeup(std::string fifoPath)
    : m_fifoPath(std::move(fifoPath)) {
    m_eventFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (m_eventFd < 0)
        throw std::runtime_error(std::string("Cannot create an eventfd: ") + std::strerror(errno));
    struct stat info {};
    if (::lstat(m_fifoPath.c_str(), &info) == 0 && !S_ISFIFO(info.st_mode))
        ::unlink(m_fifoPath.c_str());
    if (::mkfifo(m_fifoPath.c_str(), 0600) != 0 && errno != EEXIST) {
        spdlog::warn("Cannot create {}: {}; driver exits are noticed by polling", m_fifoPath,
                     std::strerror(errno));
        return;
    }
    // Read and write: with a writer always open (this one), poll() never reports a hang-up once a
    // monitor has closed its end.
    m_fifoFd = ::open(m_fifoPath.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (m_fifoFd < 0)
        spdlog::warn("Cannot open {}: {}; driver exits are noticed by polling", m_fifoPath,
                     std::strerror(errno));
}

RunWakeup::~RunWakeup() {
    if (m_fifoFd >= 0)
        ::close(m_fifoFd);
    ::close(m_eventFd);
}

void RunWakeup::poke() {
    const std::uint64_t one = 1;
    // Fails only when the counter is saturated, and then a wake-up is pending anyway.
    [[maybe_unused]] const auto written = ::write(m_eventFd, &one, sizeof one);
}

void RunWakeup::wait(std::chrono::milliseconds timeout) {
    pollfd fds[2] = {{m_eventFd, POLLIN, 0}, {m_fifoFd, POLLIN, 0}};
    const nfds_t count = m_fifoFd >= 0 ? 2 : 1;
    if (::poll(fds, count, static_cast<int>(timeout.count())) <= 0)
        return;
    std::uint64_t counter = 0;
    [[maybe_unused]] const auto read = ::read(m_eventFd, &counter, sizeof counter);
    char bytes[256];
    while (m_fifoFd >= 0 && ::read(m_fifoFd, bytes, sizeof bytes) > 0) {
    }
}

} // namespace jobdeck
