#include "service/stores/DataDirLock.h"

#include "core/text/AsciiText.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace jobdeck {

namespace {

std::string ownerOf(int fd) {
    char text[32] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    std::string pid(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
        pid.pop_back();
    return pid.empty() ? std::string() : " (pid " + pid + ")";
}

} // namespace

DataDirLock::DataDirLock(const std::string& dataDir) {
    const std::string path = (std::filesystem::path(dataDir) / "jobdeckd.lock").string();
    // Close-on-exec, so that run drivers never hold it: a restart must not wait for them.
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (m_fd < 0)
        throw std::runtime_error("cannot create the lock file " + path + ": " + std::strerror(errno));
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        const std::string owner = ownerOf(m_fd);
        ::close(m_fd);
        if (error == EWOULDBLOCK)
            throw std::runtime_error("data directory " + quoted(dataDir) +
                                     " is already served by another jobdeckd" + owner +
                                     "; a SQLite data directory is served by one process only");
        throw std::runtime_error("cannot lock " + path + ": " + std::strerror(error));
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, pid.data(), pid.size(), 0) < 0) {
        // Only the message of a second process would lack the pid; the lock itself holds.
    }
}

DataDirLock::~DataDirLock() {
    if (m_fd >= 0)
        ::close(m_fd);
}

} // namespace jobdeck
