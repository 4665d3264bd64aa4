#pragma once

#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

// The environment every child that runs a job's code or spark-submit is started with: jobdeckd's own
// environment filtered by core's passesToDriver (an allow-list, the admin's --driver-env names, never
// PG*), then the child's own variables.
class DriverEnvironment final {
public:
    // Once, at start-up, before any thread starts a child: the names given with --driver-env.
    static void setAdminNames(std::vector<std::string> names);
    // "NAME=value" entries: the allowed part of jobdeckd's environment, then `own` (which replaces a
    // variable of the same name).
    static std::vector<std::string> build(const std::vector<std::pair<std::string, std::string>>& own = {});
};

} // namespace jobdeck
