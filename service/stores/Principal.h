#pragma once

#include "core/policy/Role.h"

#include <string>

namespace jobdeck {

// Who is calling: the project the key belongs to and the key's role. Every query is scoped by
// projectUid, so nothing of another project is ever visible.
struct Principal final {
    std::string projectUid;
    std::string projectName;
    std::string keyId;
    Role role = Role::Viewer;
};

} // namespace jobdeck
