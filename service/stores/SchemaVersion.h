#pragma once

#include "service/stores/DatabaseError.h"

#include <string>

namespace jobdeck {

// The refusal of a database whose schema a newer jobdeckd wrote, for either backend.
inline DatabaseError newerSchemaRefusal(const std::string& database, int found, int known) {
    return DatabaseError("The database " + database + " has schema version " + std::to_string(found) +
                         ", newer than this jobdeckd understands (" + std::to_string(known) +
                         "); use a newer jobdeckd. The database was not changed.");
}

} // namespace jobdeck
