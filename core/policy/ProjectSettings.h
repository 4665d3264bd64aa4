#pragma once

#include <string>
#include <vector>

namespace jobdeck {

// What a project allows: the switches support staff flip and the --hudi-conf allow-list.
// Shared by the service (stored per project) and the console (read from DESCRIBE PROJECT).
struct ProjectSettings final {
    bool hudiConfigsEnabled = false;
    // Entries ending in '.' are families (every key under that prefix); others are exact keys.
    std::vector<std::string> hudiConfigAllowlist;
    bool concurrentRunsEnabled = false;
    int maxConcurrentRunsLimit = 1;
    bool operator==(const ProjectSettings&) const = default;
};

} // namespace jobdeck
