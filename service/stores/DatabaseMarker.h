#pragma once

#include <string>

namespace jobdeck {

// The marker a SQLite database leaves in its directory when it is created: `jobdeckd.created`, one
// line per database file name made there. A database file that is gone while the marker names it was
// deleted, not never made: opening it would silently start an empty database beside the old runs.
class DatabaseMarker final {
public:
    static constexpr const char* kFileName = "jobdeckd.created";

    // The file path of a sqlite:<path> (or plain path) database URL; empty for any other URL.
    static std::string sqlitePath(const std::string& databaseUrl);
    // Throws std::runtime_error (missingDatabaseMessage) when the database file `path` does not exist
    // but its directory's marker names it, or (a directory from before markers) holds run directories;
    // `init` (serve --init) allows creating it.
    static void checkBeforeOpen(const std::string& path, bool init);
    // Adds `path`'s file name to its directory's marker (made 0600) unless it is there: after a new
    // database was created, and for databases made before markers existed.
    static void record(const std::string& path);
};

} // namespace jobdeck
