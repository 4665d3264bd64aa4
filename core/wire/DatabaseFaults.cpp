#include "core/wire/DatabaseFaults.h"

#include "core/text/AsciiText.h"

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

} // namespace jobdeck
