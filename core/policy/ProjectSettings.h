#pragma once

#include "core/hudi/HudiConfigSettings.h"

namespace jobdeck {

// What a project allows: the switches support staff flip and the --hudi-conf allow-list.
// Shared by the service (stored per project) and the console (read from DESCRIBE PROJECT).
struct ProjectSettings final : HudiConfigSettings {
    bool concurrentRunsEnabled = false;
    int maxConcurrentRunsLimit = 1;
    bool operator==(const ProjectSettings&) const = default;
};

} // namespace jobdeck
