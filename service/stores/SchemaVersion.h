#pragma once

#include "service/stores/DatabaseError.h"

#include "core/wire/DatabaseFaults.h"
#include <string>

namespace jobdeck {

// The refusal of a database whose schema a newer jobdeckd wrote, for either backend.
inline DatabaseError newerSchemaRefusal(const std::string& database, int found, int known) {
    return DatabaseError(newerSchemaMessage(database, found, known));
}

} // namespace jobdeck
