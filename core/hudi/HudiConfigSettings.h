#pragma once

#include <string>
#include <vector>

namespace jobdeck {

// The project's --hudi-conf settings: all HudiConfigPolicy decides a key's status from. ProjectSettings
// (core/policy) is these with the project's other switches.
struct HudiConfigSettings {
    bool hudiConfigsEnabled = false;
    // Entries ending in '.' are families (every key under that prefix); others are exact keys.
    std::vector<std::string> hudiConfigAllowlist;
    bool operator==(const HudiConfigSettings&) const = default;
};

} // namespace jobdeck
