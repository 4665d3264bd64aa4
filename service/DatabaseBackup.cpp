#include "service/DatabaseBackup.h"

#include "core/deploy/DatabaseUrl.h"
#include "core/text/AsciiText.h"
#include "service/ServiceApp.h"
#include "service/stores/DataDirLock.h"
#include "service/stores/DatabaseMarker.h"
#include "service/stores/Migrations.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace jobdeck {
namespace {

namespace fs = std::filesystem;

struct SqliteCloser {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using SqliteHandle = std::unique_ptr<sqlite3, SqliteCloser>;

[[noreturn]] void refuse(const std::string& message) {
    throw std::runtime_error(message);
}

// The database URL of `source`, refused when it is not SQLite's.
std::string sqliteUrl(const BackupSource& source, const char* command) {
    const std::string dataDir = source.dataDir.empty() ? defaultDataDir() : source.dataDir;
    const std::string url = databaseUrlFor(dataDir, source.databaseUrl);
    if (isPostgres(databaseKind(url)))
        refuse(std::string("jobdeckd ") + command +
               " is for a SQLite database; back up and restore PostgreSQL with pg_dump and pg_restore "
               "(docs/service.md, \"Backup and restore\")");
    return url;
}

// The data directory's SQLite database file, which must exist.
std::string existingDatabase(const BackupSource& source, const char* command) {
    const std::string url = sqliteUrl(source, command);
    refuseMissingSqliteDatabase(url);
    refuseOtherUsersDatabase(url);
    return DatabaseMarker::sqlitePath(url);
}

SqliteHandle openSqlite(const std::string& path, int flags) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    SqliteHandle db(raw);
    if (rc != SQLITE_OK)
        refuse("cannot open " + path + ": " + (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
    sqlite3_busy_timeout(db.get(), 10000);
    return db;
}

// VACUUM INTO a bound file name: the file is taken as given, whatever characters it holds.
void vacuumInto(sqlite3* db, const std::string& target, const std::string& what) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, "VACUUM INTO ?", -1, &stmt, nullptr);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(stmt, 1, target.c_str(), static_cast<int>(target.size()), SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(stmt);
    const std::string message = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE)
        refuse(what + ": " + message);
}

// The first column of the first row of `sql`, as text ("" when there is none).
std::string firstValue(sqlite3* db, const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
        return {};
    std::string value;
    if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0))
        value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    return value;
}

// A copy is restorable when SQLite reads it whole and it is a Jobdeck database this jobdeckd can serve
// (its schema version not newer than this build's). Returns the shared schema version.
int checkedCopy(const std::string& path) {
    const SqliteHandle db = openSqlite(path, SQLITE_OPEN_READONLY);
    const std::string check = firstValue(db.get(), "PRAGMA quick_check");
    if (check != "ok")
        refuse(path + " is not a whole SQLite database (" +
               (check.empty() ? sqlite3_errmsg(db.get()) : check) + ")");
    const std::string recorded = firstValue(db.get(), "SELECT max(version) FROM schema_version");
    if (recorded.empty())
        refuse(path + " is not a Jobdeck database (it has no schema version)");
    const int version = schema::sharedVersion(schema::Dialect::Sqlite, std::stoi(recorded));
    const int latest = schema::latestVersion(schema::migrations());
    if (version > latest)
        refuse(path + " has schema version " + std::to_string(version) + ", newer than this jobdeckd's " +
               std::to_string(latest) + ": restore it with the jobdeckd that made it");
    return version;
}

// A new, empty file of mode 0600 (it will hold API key hashes and the Jobs' parameters).
void createPrivateFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        const std::error_code ec(errno, std::generic_category());
        if (ec == std::errc::file_exists)
            refuse(path + " exists: give a new file name (nothing was overwritten)");
        refuse("cannot create " + path + ": " + ec.message());
    }
    ::close(fd);
}

// The file's contents, then its directory's entry for it, on disk.
void syncToDisk(const std::string& path) {
    for (const fs::path& p : {fs::path(path), fs::absolute(path).parent_path()}) {
        const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0 || ::fsync(fd) != 0) {
            const std::error_code ec(errno, std::generic_category());
            if (fd >= 0)
                ::close(fd);
            refuse("cannot write " + p.string() + " to disk: " + ec.message());
        }
        ::close(fd);
    }
}

std::string localTimeSuffix() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm local{};
    localtime_r(&now, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%dT%H%M%S", &local);
    return text;
}

// Keeps `database` whole as <database>.replaced-<time> beside it, as a second name of the same file
// (or a copy where the file system has no hard links); returns that name. The database stays in place
// until the restored one is renamed over it.
std::string keepAside(const std::string& database, const std::string& incoming) {
    // Closing the last connection folds the write-ahead log into the file, so the file alone is whole.
    openSqlite(database, SQLITE_OPEN_READWRITE).reset();
    std::error_code ec;
    if (fs::exists(database + "-wal", ec) && fs::file_size(database + "-wal", ec) > 0) {
        fs::remove(incoming, ec);
        refuse("the write-ahead log " + database +
               "-wal could not be folded into the database (is "
               "another program using it?): nothing was changed");
    }
    for (const char* suffix : {"-wal", "-shm"})
        fs::remove(database + suffix, ec);
    std::string replaced = database + ".replaced-" + localTimeSuffix();
    fs::create_hard_link(database, replaced, ec);
    if (ec) {
        std::error_code copyError;
        fs::copy_file(database, replaced, copyError);
        if (copyError) {
            fs::remove(replaced, ec);
            fs::remove(incoming, ec);
            refuse("cannot keep " + database + " as " + replaced + ": " + copyError.message() +
                   " (nothing was changed)");
        }
        syncToDisk(replaced);
    }
    return replaced;
}

} // namespace

void backupDatabase(const BackupSource& source, const std::string& target, std::ostream& out) {
    const std::string database = existingDatabase(source, "backup");
    if (target.empty())
        refuse("give the backup file with --to FILE");
    createPrivateFile(target);
    try {
        {
            // A read transaction: the service writes on meanwhile, the copy is the state at its start.
            const SqliteHandle db = openSqlite(database, SQLITE_OPEN_READWRITE);
            vacuumInto(db.get(), target, "cannot copy " + database + " to " + target);
        }
        syncToDisk(target);
        const int version = checkedCopy(target);
        out << "Backed up " << database << " to " << target << " (" << fs::file_size(target)
            << " bytes, schema version " << version << ")." << std::endl;
    } catch (...) {
        std::error_code ignored;
        fs::remove(target, ignored);
        throw;
    }
}

void restoreDatabase(const BackupSource& source, const std::string& from, std::ostream& out) {
    const std::string dataDir = source.dataDir.empty() ? defaultDataDir() : source.dataDir;
    const std::string url = sqliteUrl(source, "restore");
    // Whether a service uses the database is told by its data directory's lock: guessing it is not.
    if (source.dataDir.empty() && !source.databaseUrl.empty())
        refuse("jobdeckd restore --database needs the --data-dir of the jobdeckd serve that uses the "
               "database too: its lock tells whether the service is running (nothing was changed)");
    const std::string database = DatabaseMarker::sqlitePath(url);
    std::error_code ec;
    if (database.empty() || !fs::is_directory(fs::absolute(database).parent_path(), ec))
        refuse("there is no data directory for " + (database.empty() ? url : database) +
               ": give the --data-dir (or --database) that jobdeckd serve uses");
    refuseOtherUsersDatabase(url);
    if (from.empty() || !fs::is_regular_file(from, ec))
        refuse("there is no backup file " + quoted(from));
    const int version = checkedCopy(from);
    std::unique_ptr<DataDirLock> lock;
    try {
        lock = std::make_unique<DataDirLock>(dataDir);
    } catch (const std::exception& e) {
        refuse(std::string(e.what()) + "; stop it before restoring (nothing was changed)");
    }
    const std::string incoming = database + ".restoring";
    fs::remove(incoming, ec);
    createPrivateFile(incoming);
    {
        std::error_code copyError;
        fs::copy_file(from, incoming, fs::copy_options::overwrite_existing, copyError);
        if (copyError) {
            fs::remove(incoming, ec);
            refuse("cannot copy " + from + " to " + incoming + ": " + copyError.message());
        }
        fs::permissions(incoming, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
    }
    syncToDisk(incoming);
    const std::string replaced = fs::exists(database, ec) ? keepAside(database, incoming) : std::string();
    // One rename: at every moment there is a whole database under the name, the old or the restored.
    fs::rename(incoming, database);
    syncToDisk(database);
    DatabaseMarker::record(database);
    out << "Restored " << from << " (schema version " << version << ") as " << database << "."
        << (replaced.empty() ? std::string() : " The database it replaced is kept as " + replaced + ".")
        << " Start jobdeckd serve." << std::endl;
}

} // namespace jobdeck
