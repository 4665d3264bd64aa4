#pragma once

#include "core/wire/ApiStatus.h"

#include <exception>
#include <string_view>

namespace jobdeck {

struct RequestContext;

// Logs an unexpected exception of a statement (`auditText` names it) and gives the FAILED status that
// answers it, naming no internals: a database fault (full disk, timeout) is named, since the client or
// its admin can act on it. Shared by the statements and the run statements, which sit below them.
ApiStatus failedInternally(const RequestContext& context, std::string_view auditText,
                           const std::exception& e);

} // namespace jobdeck
