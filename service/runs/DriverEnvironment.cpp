#include "service/runs/DriverEnvironment.h"

#include "core/deploy/DriverEnvironment.h"

#include <algorithm>
#include <string_view>

extern char** environ;

namespace jobdeck {

namespace {

std::vector<std::string>& adminNames() {
    static std::vector<std::string> names;
    return names;
}

} // namespace

void DriverEnvironment::setAdminNames(std::vector<std::string> names) {
    adminNames() = std::move(names);
}

std::vector<std::string>
DriverEnvironment::build(const std::vector<std::pair<std::string, std::string>>& own) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        const std::string_view name = entry.substr(0, entry.find('='));
        const bool replaced =
            std::any_of(own.begin(), own.end(), [&](const auto& variable) { return variable.first == name; });
        if (!replaced && passesToDriver(name, adminNames()))
            env.emplace_back(entry);
    }
    for (const auto& [name, value] : own)
        env.push_back(name + "=" + value);
    return env;
}

} // namespace jobdeck
