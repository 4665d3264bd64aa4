#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace jobdeck {

// What an API key may do (CONTRACT §1); each role includes the one before it.
enum class Role { Viewer, Operator, Admin };

inline std::string_view roleName(Role role) {
    switch (role) {
    case Role::Viewer:
        return "viewer";
    case Role::Operator:
        return "operator";
    case Role::Admin:
        return "admin";
    }
    return "viewer";
}

inline std::optional<Role> roleFromName(std::string_view name) {
    for (const Role role : std::array{Role::Viewer, Role::Operator, Role::Admin})
        if (roleName(role) == name)
            return role;
    return std::nullopt;
}

} // namespace jobdeck
