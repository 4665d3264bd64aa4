#pragma once

#include "core/parameters/Diagnostic.h"

#include <string_view>

namespace jobdeck {

// The description of one advice or catalogue finding: its stable code, the severity it is always
// reported with, and when it fires. docs/advice.md documents the same list.
struct AdviceRule final {
    std::string_view code;
    Severity severity = Severity::Info;
    std::string_view when;
};

} // namespace jobdeck
