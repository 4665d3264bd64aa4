#pragma once

#include <string>

namespace jobdeck {

// One configuration parsed from a Job's parameters: `--conf key=value` or `--hudi-conf key=value`.
// tokenIndex is the index of the "key=value" token in the parameter list, so a finding can point at it
// and a fix can replace exactly that token.
struct ConfigSetting final {
    std::string key;
    std::string value;
    int tokenIndex = -1;
    bool operator==(const ConfigSetting&) const = default;
};

} // namespace jobdeck
