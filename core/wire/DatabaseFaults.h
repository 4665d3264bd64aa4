#pragma once

#include "core/wire/ApiStatus.h"

#include <chrono>
#include <string>
#include <string_view>

namespace jobdeck {

// What went wrong with the service's database, as far as a client or an operator is told (the service
// log has the database's own message).
enum class DatabaseFault {
    Other,       // any other failure to read or write
    DiskFull,    // no room left where the database is written (SQLITE_FULL, ENOSPC, SQLSTATE 53100)
    TimedOut,    // no answer within the database timeout (a frozen server, a lock held elsewhere)
    Unavailable, // the database cannot be reached now
};

// Why, as a clause that follows "the service could not read or write its database": "the disk
// holding it is full"; empty for DatabaseFault::Other.
std::string databaseFaultReason(DatabaseFault fault);

// The FAILED status of a statement the database failed, naming the fault when it is one the client (or
// its admin) can act on: ApiStatus::internalError's message with ": <databaseFaultReason>" added.
ApiStatus databaseFailure(std::string_view requestId, DatabaseFault fault);

// The 503 answer to a statement whose request could not be put on disk (no id is handed out).
std::string requestNotRecordedMessage(DatabaseFault fault);

// GET /v1/health while a probe of the database has waited `waited` without an answer.
std::string databaseNotAnsweringMessage(std::chrono::seconds waited);
// Why GET /v1/health fails when the PostgreSQL database the service started on was dropped and created
// again, or lost its schema (`schemaGone`), under it.
std::string databaseReplacedReason(bool schemaGone);

// Why the database cannot be used when a probe of it failed with `error` (the database's message).
std::string databaseNoAnswerReason(std::string_view error);
// The SQLite database file `file` is gone (`error`: the system's), or another file is at its path.
std::string databaseFileMissingReason(std::string_view file, std::string_view error);
std::string databaseFileReplacedReason(std::string_view file);
// The service's database files can no longer be written or read (SIGBUS on SQLite's WAL index): the
// service stops answering statements until it is restarted.
std::string walIndexFaultMessage();
// A new id or secret could not be drawn: the system's random number generator failed.
std::string randomSourceUnavailableMessage();

// `jobdeckd serve` or `keys create` on a data directory whose marker says a database was created there,
// while the database file `databasePath` is gone.
std::string missingDatabaseMessage(std::string_view databasePath, std::string_view dataDir);

} // namespace jobdeck
