#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace jobdeck {

// What a short command printed and how it ended.
struct CommandResult final {
    int exitCode = -1;    // -1 when it did not exit normally (signal, timeout, not started)
    std::string output;   // stdout and stderr, interleaved as written, cut at the cap
    std::string error;    // non-empty when it could not be started or was stopped at the timeout
    bool stopped = false; // ended by CommandStop (the service shuts down), not by itself or its timeout
};

// Lets another thread bring forward the end of every command run with it: from stopBy() on, a command
// still running at that deadline is killed (the service shuts down and gives commands its grace).
class CommandStop final {
public:
    void stopBy(std::chrono::steady_clock::time_point deadline) {
        m_deadline.store(deadline.time_since_epoch());
    }
    // The deadline stopBy() set, or time_point::max() when none was.
    std::chrono::steady_clock::time_point deadline() const {
        return std::chrono::steady_clock::time_point(m_deadline.load());
    }

private:
    std::atomic<std::chrono::steady_clock::duration> m_deadline{std::chrono::steady_clock::duration::max()};
};

// Runs a short command (spark-submit --status / --kill) from the multi-threaded service and
// collects its output: posix_spawn (no code runs between fork and exec), stdin /dev/null, stdout and
// stderr into one pipe, every other descriptor closed, signals at their defaults, its own process
// group. The timeout bounds the whole command, its exit included: a command that closes its output
// but does not exit, or leaves a process holding its output open, has its process group killed when
// the timeout (or the CommandStop's deadline) passes, so run() never waits longer.
class CapturedCommand final {
public:
    static CommandResult run(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                             std::size_t maxOutputBytes = std::size_t{1} << 20,
                             const CommandStop* stop = nullptr);
};

} // namespace jobdeck
