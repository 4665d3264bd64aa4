#include "service/stores/WalIndexFaults.h"

#include "core/wire/DatabaseFaults.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace jobdeck {

namespace {

// Everything below runs inside the signal handler: system calls and plain memory only (no
// allocation, no locks other than the spin flag, no stdio).

std::atomic<bool> g_occurred{false};
std::atomic_flag g_handling = ATOMIC_FLAG_INIT; // one thread replaces pages at a time
std::uintptr_t g_pageSize = 4096;

// One line of /proc/self/maps: "start-end perms offset dev inode [path]".
struct Mapping {
    std::uintptr_t start = 0;
    std::uintptr_t end = 0;
    std::uint64_t offset = 0;
    char path[4096] = {};
};

// Reads a hexadecimal number at `text`, moving it past the digits.
std::uint64_t readHex(const char*& text) {
    std::uint64_t value = 0;
    for (;; ++text) {
        const char c = *text;
        if (c >= '0' && c <= '9')
            value = value * 16 + static_cast<std::uint64_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            value = value * 16 + static_cast<std::uint64_t>(c - 'a' + 10);
        else
            return value;
    }
}

// Moves `text` past the spaces and then the field that follow.
void skipField(const char*& text) {
    while (*text == ' ')
        ++text;
    while (*text && *text != ' ')
        ++text;
}

// Parses one line; false when it is not a mapping line.
bool parseLine(const char* line, Mapping& out) {
    const char* at = line;
    out.start = readHex(at);
    if (*at++ != '-')
        return false;
    out.end = readHex(at);
    skipField(at); // perms
    while (*at == ' ')
        ++at;
    out.offset = readHex(at);
    skipField(at); // dev
    skipField(at); // inode
    while (*at == ' ')
        ++at;
    std::size_t length = std::strlen(at);
    if (length >= sizeof out.path)
        length = sizeof out.path - 1;
    std::memcpy(out.path, at, length);
    out.path[length] = '\0';
    return true;
}

// The mapping that holds `address`; false when none does.
bool findMapping(std::uintptr_t address, Mapping& out) {
    const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    static char line[8192]; // guarded by g_handling
    std::size_t used = 0;
    char chunk[4096];
    bool found = false;
    ssize_t n = 0;
    while (!found && (n = ::read(fd, chunk, sizeof chunk)) > 0) {
        for (ssize_t i = 0; i < n && !found; ++i) {
            if (chunk[i] != '\n') {
                if (used + 1 < sizeof line)
                    line[used++] = chunk[i];
                continue;
            }
            line[used] = '\0';
            used = 0;
            found = parseLine(line, out) && address >= out.start && address < out.end;
        }
    }
    ::close(fd);
    return found;
}

bool isWalIndex(const char* path) {
    const std::size_t length = std::strlen(path);
    return length > 4 && std::strcmp(path + length - 4, "-shm") == 0;
}

void say(const char* text) {
    const ssize_t written = ::write(STDERR_FILENO, text, std::strlen(text));
    static_cast<void>(written);
}

// Replaces the page at `page` of `mapping` by a private copy of what the file holds there.
bool replacePage(std::uintptr_t page, const Mapping& mapping) {
    void* copy = ::mmap(nullptr, g_pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (copy == MAP_FAILED)
        return false;
    const int fd = ::open(mapping.path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        // Zeros where the file cannot be read: SQLite then sees an index to rebuild.
        const ssize_t n =
            ::pread(fd, copy, g_pageSize, static_cast<off_t>(mapping.offset + (page - mapping.start)));
        static_cast<void>(n);
        ::close(fd);
    }
    if (::mremap(copy, g_pageSize, g_pageSize, MREMAP_MAYMOVE | MREMAP_FIXED,
                 reinterpret_cast<void*>(page)) == MAP_FAILED) {
        ::munmap(copy, g_pageSize);
        return false;
    }
    return true;
}

void onBusError(int, siginfo_t* info, void*) {
    const int savedErrno = errno;
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    while (g_handling.test_and_set(std::memory_order_acquire)) {
    }
    static Mapping mapping; // guarded by g_handling
    bool handled = false;
    if (findMapping(address, mapping)) {
        if (isWalIndex(mapping.path)) {
            handled = replacePage(address & ~(g_pageSize - 1), mapping);
            if (handled && !g_occurred.exchange(true))
                say("jobdeckd: the database's WAL index (-shm file) can no longer be written or read; every "
                    "request now gets an error until jobdeckd is restarted\n");
        } else {
            // Another thread replaced the page meanwhile: the access just has to be made again.
            handled = g_occurred.load() && mapping.path[0] == '\0';
        }
    }
    g_handling.clear(std::memory_order_release);
    if (!handled) {
        // Not a WAL index: the fault is what it always was. The access is made again and kills.
        struct sigaction fallback {};
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        ::sigaction(SIGBUS, &fallback, nullptr);
    }
    errno = savedErrno;
}

} // namespace

void WalIndexFaults::install() {
    static std::once_flag once;
    std::call_once(once, [] {
        g_pageSize = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        struct sigaction action {};
        action.sa_sigaction = &onBusError;
        action.sa_flags = SA_SIGINFO;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, nullptr);
    });
}

bool WalIndexFaults::occurred() {
    return g_occurred.load(std::memory_order_relaxed);
}

std::string WalIndexFaults::message() {
    return walIndexFaultMessage();
}

} // namespace jobdeck
