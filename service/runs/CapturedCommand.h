#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace jobdeck {

// What a short command printed and how it ended.
struct CommandResult final {
    int exitCode = -1;  // -1 when it did not exit normally (signal, timeout, not started)
    std::string output; // stdout and stderr, interleaved as written, cut at the cap
    std::string error;  // non-empty when it could not be started or was stopped at the timeout
};

// Runs a short command (spark-submit --status / --kill) from the multi-threaded service and
// collects its output: posix_spawn (no code runs between fork and exec), stdin /dev/null, stdout and
// stderr into one pipe, every other descriptor closed, signals at their defaults, its own process
// group, which is killed when it outlives the timeout.
class CapturedCommand final {
public:
    static CommandResult run(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                             std::size_t maxOutputBytes = std::size_t{1} << 20);
};

} // namespace jobdeck
