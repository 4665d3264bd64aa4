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

// An operator's texts about the database itself (jobdeckd's start, its log, GET /v1/health's reason).
// The database's or the system's own words (`error`) are passed on after them.
std::string databasePathMissingMessage();
std::string databaseDirectoryNotCreatedMessage(std::string_view directory, std::string_view error);
// "Cannot open the database <path>: <error>".
std::string databaseNotOpenedMessage(std::string_view path, std::string_view error);
std::string writeAheadLogUnavailableReason();
std::string unsupportedDatabaseUrlMessage();
std::string databaseUrlWithoutFileMessage();
// A database written by a newer jobdeckd (schema `found`; this one knows up to `known`).
std::string newerSchemaMessage(std::string_view database, int found, int known);
std::string postgresNotConnectedMessage(std::string_view error);
std::string postgresConnectionLostMessage(std::string_view error);
// A statement the database refused or failed: "Database error (<verb>): <error>"; `verb` is the
// statement's first word (SELECT, COMMIT) or what the service was doing.
std::string databaseStatementFailedMessage(std::string_view verb, std::string_view error);
std::string transactionAbortedMessage();
// The server did not answer `verb` within the client's wait, `waited`, and the connection was closed.
std::string serverNotAnsweringMessage(std::string_view verb, std::chrono::seconds waited);
// Every pooled connection stayed lent for `waited`.
std::string noFreeConnectionMessage(std::chrono::seconds waited);
std::string resultFieldMissingMessage();
std::string databaseOutOfMemoryReason();
// `message` with the database it is about (the URL without its password) when it does not name it.
std::string namingTheDatabase(std::string_view message, std::string_view database);
std::string secretNotHashedMessage();
// The service's own bookkeeping is not as it wrote it (a row or an answer it relies on is missing).
std::string databaseBookkeepingMissingMessage(std::string_view what);

// `jobdeckd serve` or `keys create` on a data directory whose marker says a database was created there,
// while the database file `databasePath` is gone.
std::string missingDatabaseMessage(std::string_view databasePath, std::string_view dataDir);

} // namespace jobdeck
