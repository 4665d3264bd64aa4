#include "core/wire/DatabaseFaults.h"

#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

namespace jobdeck {

std::string databaseFaultReason(DatabaseFault fault) {
    switch (fault) {
    case DatabaseFault::DiskFull:
        return "the disk holding it is full; free some space, then try again";
    case DatabaseFault::TimedOut:
        return "it did not answer within the database timeout (a stalled server or disk, or a lock held by "
               "another process); try again later";
    case DatabaseFault::Unavailable:
        return "it cannot be reached; try again later";
    case DatabaseFault::Other:
        break;
    }
    return {};
}

ApiStatus databaseFailure(std::string_view requestId, DatabaseFault fault) {
    ApiStatus status = ApiStatus::internalError(requestId, true);
    const std::string reason = databaseFaultReason(fault);
    const std::string heading = "Internal error: the service could not read or write its database";
    if (!reason.empty() && status.errorMessage && status.errorMessage->starts_with(heading))
        status.errorMessage->insert(heading.size(), ": " + reason);
    return status;
}

std::string requestNotRecordedMessage(DatabaseFault fault) {
    const std::string reason = databaseFaultReason(fault);
    if (reason.empty())
        return "The request could not be recorded: the service cannot write its database (see its log); try "
               "again later";
    return "The request could not be recorded: the service cannot write its database: " + reason;
}

std::string databaseNotAnsweringMessage(std::chrono::seconds waited) {
    return "Database unavailable: the database has not answered for " + std::to_string(waited.count()) +
           " s (a stalled server or disk, or a lock held by another process)";
}

std::string databaseReplacedReason(bool schemaGone) {
    return std::string(schemaGone ? "the database has lost jobdeckd's tables"
                                  : "the database was dropped and created again") +
           " since jobdeckd started, so it no longer holds the service's data; restore it from a backup, or "
           "restart jobdeckd to serve the database as it is now";
}

std::string missingDatabaseMessage(std::string_view databasePath, std::string_view dataDir) {
    return "the database " + std::string(databasePath) + " is missing, but the data directory " +
           quoted(dataDir) +
           " shows that one was there (its marker jobdeckd.created, or run directories); restore it from a "
           "backup, or start jobdeckd serve with --init to create a new, empty database (nothing was "
           "changed)";
}

std::string databaseNoAnswerReason(std::string_view error) {
    return "the database does not answer: " + std::string(error);
}

std::string databaseFileMissingReason(std::string_view file, std::string_view error) {
    return "the database file " + std::string(file) + " cannot be found: " + std::string(error);
}

std::string databaseFileReplacedReason(std::string_view file) {
    return "the database file " + std::string(file) +
           " was replaced while jobdeckd had it open; restart jobdeckd";
}

std::string walIndexFaultMessage() {
    return "The service cannot use its database: its files can no longer be written or read (an I/O error "
           "on the WAL index); restart jobdeckd once the data directory is usable again";
}

std::string randomSourceUnavailableMessage() {
    return "The system's random number generator is not available";
}

std::string databasePathMissingMessage() {
    return "Cannot open the database: no path given";
}

std::string databaseDirectoryNotCreatedMessage(std::string_view directory, std::string_view error) {
    return concat({"Cannot create the directory ", directory, ": ", error});
}

std::string databaseNotOpenedMessage(std::string_view path, std::string_view error) {
    return concat({"Cannot open the database ", path, ": ", error});
}

std::string writeAheadLogUnavailableReason() {
    return "write-ahead logging is not available";
}

std::string unsupportedDatabaseUrlMessage() {
    return "Unsupported database URL (expected sqlite:<path>, a file path or "
           "postgresql://user@host:port/database)";
}

std::string databaseUrlWithoutFileMessage() {
    return "The database URL names no file (expected sqlite:<path>)";
}

std::string newerSchemaMessage(std::string_view database, int found, int known) {
    return concat({"The database ", database, " has schema version ", std::to_string(found),
                   ", newer than this jobdeckd understands (", std::to_string(known),
                   "); use a newer jobdeckd. The database was not changed."});
}

std::string postgresNotConnectedMessage(std::string_view error) {
    return concat({"Cannot connect to PostgreSQL: ", error});
}

std::string postgresConnectionLostMessage(std::string_view error) {
    return concat({"Lost the PostgreSQL connection: ", error});
}

std::string databaseStatementFailedMessage(std::string_view verb, std::string_view error) {
    return concat({"Database error (", verb, "): ", error});
}

std::string transactionAbortedMessage() {
    return databaseStatementFailedMessage("COMMIT",
                                          "a statement of the transaction failed; nothing was written");
}

std::string serverNotAnsweringMessage(std::string_view verb, std::chrono::seconds waited) {
    return databaseStatementFailedMessage(
        verb, concat({"the server did not answer within ", std::to_string(waited.count()),
                      " s; the connection was closed"}));
}

std::string noFreeConnectionMessage(std::chrono::seconds waited) {
    return concat({"Database error: no connection to the database became free within ",
                   std::to_string(waited.count()), " s"});
}

std::string resultFieldMissingMessage() {
    return "Database error (no such row or column in the result)";
}

std::string databaseOutOfMemoryReason() {
    return "out of memory";
}

std::string namingTheDatabase(std::string_view message, std::string_view database) {
    if (message.find(database) != std::string_view::npos)
        return std::string(message);
    return concat({message, " (", database, ")"});
}

std::string secretNotHashedMessage() {
    return "Cannot hash the API secret (OpenSSL SHA-256 failed)";
}

std::string databaseBookkeepingMissingMessage(std::string_view what) {
    return concat({"The database lacks what jobdeckd keeps in it: ", what});
}

} // namespace jobdeck
