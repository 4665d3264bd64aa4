#include "service/stores/SqliteDatabase.h"

#include "core/wire/DatabaseFaults.h"
#include "service/stores/DatabaseFaultError.h"
#include "service/stores/DatabaseTimeouts.h"
#include "service/stores/WalIndexFaults.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <thread>
#include <utility>

namespace jobdeck {

namespace {

// Distinct SQL texts kept prepared per connection; the service has a few dozen.
constexpr std::size_t statementCacheLimit = 256;

// What SQLite says of the last failure on `db`.
std::string sqliteError(sqlite3* db) {
    return db ? sqlite3_errmsg(db) : databaseOutOfMemoryReason();
}

// SQLite's result code says whether a constraint refused the write, the disk is full (SQLITE_FULL, or an
// I/O error of ENOSPC) or a lock held elsewhere outlasted the busy timeout; a client is told the last two.
[[noreturn]] void throwSqliteError(const std::string& message, int code, sqlite3* db = nullptr) {
    switch (code & 0xff) {
    case SQLITE_CONSTRAINT:
        throw DatabaseError(message, DatabaseError::Cause::ConstraintViolation);
    case SQLITE_FULL:
        throw DatabaseFaultError(message, DatabaseFault::DiskFull);
    case SQLITE_IOERR:
        if (db && sqlite3_system_errno(db) == ENOSPC)
            throw DatabaseFaultError(message, DatabaseFault::DiskFull);
        break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        throw DatabaseFaultError(message, DatabaseFault::TimedOut);
    default:
        break;
    }
    throw DatabaseError(message, DatabaseError::Cause::Other);
}

} // namespace

SqliteDatabase::Query::Query(SqliteDatabase& db, std::unique_lock<std::recursive_mutex> lock, std::string sql,
                             sqlite3_stmt* stmt)
    : m_db(&db)
    , m_lock(std::move(lock))
    , m_sql(std::move(sql))
    , m_stmt(stmt) {}

SqliteDatabase::Query::Query(Query&& other) noexcept
    : m_db(other.m_db)
    , m_lock(std::move(other.m_lock))
    , m_sql(std::move(other.m_sql))
    , m_stmt(other.m_stmt)
    , m_spent(other.m_spent) {
    other.m_stmt = nullptr;
}

SqliteDatabase::Query::~Query() {
    if (!m_stmt)
        return;
    if (m_spent.count() > 0)
        if (StatementTimer* timer = StatementTimer::current()) {
            using Kind = StatementTimer::Kind;
            // BEGIN IMMEDIATE counts as readonly to SQLite, but it is what waits for the write lock.
            const Kind kind = m_sql == "COMMIT"                                              ? Kind::Commit
                              : sqlite3_stmt_readonly(m_stmt) && !m_sql.starts_with("BEGIN") ? Kind::Read
                                                                                             : Kind::Write;
            timer->statementTimed(kind, m_spent);
        }
    try {
        m_db->release(std::move(m_sql), m_stmt);
    } catch (...) {
        sqlite3_finalize(m_stmt); // out of memory: just do not keep it
    }
}

SqliteDatabase::Query& SqliteDatabase::Query::bind(int index, std::int64_t value) {
    if (const int rc = sqlite3_bind_int64(m_stmt, index, value); rc != SQLITE_OK)
        m_db->fail("bind", rc);
    return *this;
}

SqliteDatabase::Query& SqliteDatabase::Query::bind(int index, double value) {
    if (const int rc = sqlite3_bind_double(m_stmt, index, value); rc != SQLITE_OK)
        m_db->fail("bind", rc);
    return *this;
}

SqliteDatabase::Query& SqliteDatabase::Query::bindText(int index, std::string_view value,
                                                       sqlite3_destructor_type lifetime) {
    if (const int rc = sqlite3_bind_text64(m_stmt, index, value.data(), value.size(), lifetime, SQLITE_UTF8);
        rc != SQLITE_OK)
        m_db->fail("bind", rc);
    return *this;
}

SqliteDatabase::Query& SqliteDatabase::Query::bind(int index, std::string_view value) {
    return bindText(index, value, SQLITE_TRANSIENT);
}

SqliteDatabase::Query& SqliteDatabase::Query::bindStatic(int index, std::string_view value) {
    return bindText(index, value, SQLITE_STATIC);
}

SqliteDatabase::Query& SqliteDatabase::Query::bind(int index, std::nullptr_t) {
    if (const int rc = sqlite3_bind_null(m_stmt, index); rc != SQLITE_OK)
        m_db->fail("bind", rc);
    return *this;
}

SqliteDatabase::Query& SqliteDatabase::Query::bindBlob(int index, const void* data, std::size_t size) {
    if (const int rc = sqlite3_bind_blob64(m_stmt, index, data, size, SQLITE_TRANSIENT); rc != SQLITE_OK)
        m_db->fail("bind", rc);
    return *this;
}

bool SqliteDatabase::Query::step() {
    int rc = SQLITE_OK;
    if (StatementTimer::current()) {
        const auto started = std::chrono::steady_clock::now();
        rc = sqlite3_step(m_stmt);
        m_spent += std::chrono::steady_clock::now() - started;
    } else {
        rc = sqlite3_step(m_stmt);
    }
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    m_db->fail("query", rc);
}

int SqliteDatabase::Query::run() {
    while (step()) {
    }
    return sqlite3_changes(m_db->m_db);
}

bool SqliteDatabase::Query::isNull(int column) const {
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t SqliteDatabase::Query::int64(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteDatabase::Query::real(int column) const {
    return sqlite3_column_double(m_stmt, column);
}

std::string SqliteDatabase::Query::text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

std::string SqliteDatabase::Query::blob(int column) const {
    const auto* data = static_cast<const char*>(sqlite3_column_blob(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

std::optional<std::string> SqliteDatabase::Query::optionalText(int column) const {
    if (isNull(column))
        return std::nullopt;
    return text(column);
}

std::optional<std::int64_t> SqliteDatabase::Query::optionalInt64(int column) const {
    if (isNull(column))
        return std::nullopt;
    return int64(column);
}

TimePoint SqliteDatabase::Query::timestamp(int column) const {
    return parseTimestamp(text(column)).value_or(TimePoint{});
}

std::unique_ptr<SqliteDatabase> SqliteDatabase::open(const std::string& path, Mode mode) {
    if (path.empty())
        throw DatabaseError(databasePathMissingMessage());
    const std::filesystem::path file(path);
    if (file.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(file.parent_path(), ec);
        if (ec)
            throw DatabaseError(
                databaseDirectoryNotCreatedMessage(file.parent_path().string(), ec.message()));
    }
    // Created 0600 whatever the umask: jobs' parameters may hold passwords. SQLite gives the -wal and
    // -shm files the database file's permissions.
    if (mode == Mode::ReadWrite) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            ::fchmod(fd, 0600);
            ::close(fd);
        }
    }
    // SQLite's memory statistics take a global mutex on every allocation, which the parallel
    // readers contend for; nothing here reads them. Only possible before SQLite initialises.
    static const bool memoryStatisticsOff = [] {
        return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
    }();
    static_cast<void>(memoryStatisticsOff);
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw,
                                   mode == Mode::ReadOnly
                                       ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
                                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                   nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = databaseNotOpenedMessage(path, sqliteError(raw));
        sqlite3_close_v2(raw);
        throwSqliteError(message, rc);
    }
    sqlite3_extended_result_codes(raw, 1);
    std::unique_ptr<SqliteDatabase> db(new SqliteDatabase(raw, path));
    // A lock held by another connection or process is waited for this long (serve --database-timeout).
    db->m_lockWait = DatabaseTimeouts::current().lockWait();
    sqlite3_busy_handler(raw, &SqliteDatabase::onBusy, db.get());
    if (mode == Mode::ReadOnly) {
        // Opened read-write (a WAL reader updates the shared-memory index) but refusing any change.
        // Pages are read with pread(), not through a mapping of the file (mmap_size stays 0): an I/O
        // error then is an error SQLite returns, not a SIGBUS that kills the process.
        db->executeScript("PRAGMA query_only=1;");
        return db;
    }
    // journal_mode answers with the mode it ended up in; anything but WAL means the file system
    // cannot do it, and we would silently lose the concurrency and durability we rely on.
    {
        Query q = db->prepare("PRAGMA journal_mode=WAL");
        if (!q.step() || q.text(0) != "wal")
            throw DatabaseError(databaseNotOpenedMessage(path, writeAheadLogUnavailableReason()));
    }
    db->executeScript("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
    return db;
}

SqliteDatabase::SqliteDatabase(sqlite3* db, std::string path)
    : m_db(db)
    , m_path(std::move(path)) {}

SqliteDatabase::~SqliteDatabase() {
    for (auto& [sql, statements] : m_statements)
        for (sqlite3_stmt* stmt : statements)
            sqlite3_finalize(stmt);
    sqlite3_close_v2(m_db);
}

SqliteDatabase::Query SqliteDatabase::prepare(std::string_view sql) {
    refuseAfterWalIndexFault();
    std::unique_lock lock(m_mutex);
    std::string text(sql);
    if (const auto it = m_statements.find(text); it != m_statements.end() && !it->second.empty()) {
        sqlite3_stmt* stmt = it->second.back();
        it->second.pop_back();
        return Query(*this, std::move(lock), std::move(text), stmt);
    }
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(m_db, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK)
        fail("prepare", rc);
    return Query(*this, std::move(lock), std::move(text), stmt);
}

void SqliteDatabase::release(std::string sql, sqlite3_stmt* stmt) {
    // Resetting ends the statement's read, so a reader never pins an old snapshot of the WAL.
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        if (m_statements.size() >= statementCacheLimit) {
            sqlite3_finalize(stmt);
            return;
        }
        it = m_statements.emplace(std::move(sql), std::vector<sqlite3_stmt*>{}).first;
    }
    it->second.push_back(stmt);
}

void SqliteDatabase::executeScript(const std::string& sql) {
    refuseAfterWalIndexFault();
    std::unique_lock lock(m_mutex);
    char* error = nullptr;
    const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        const std::string message = databaseStatementFailedMessage(sql.substr(0, sql.find_first_of(" \n")),
                                                                   error ? error : sqlite3_errstr(rc));
        sqlite3_free(error);
        throwSqliteError(message, rc, m_db);
    }
}

// A lock held by another process (a locked or stalled database) is waited for m_lockWait. Once a wait
// was given up, the statements behind it try only briefly, until the write lock is got again or a
// lock wait has passed: steps queued behind one that waited out the lock are then each answered at once
// instead of each waiting the whole timeout again in turn, so all of them are answered within about
// one timeout. Called with the connection's mutex held.
int SqliteDatabase::onBusy(void* self, int attempt) {
    auto& db = *static_cast<SqliteDatabase*>(self);
    const auto now = Clock::now();
    if (attempt == 0)
        db.m_firstBusy = now;
    const bool givenUpLately =
        db.m_lockWaitGivenUp != Clock::time_point() && now - db.m_lockWaitGivenUp < db.m_lockWait;
    // Long enough for a brief lock of another process (a command-line tool's write) to pass.
    const auto budget =
        givenUpLately ? Clock::duration(std::chrono::milliseconds(50)) : Clock::duration(db.m_lockWait);
    const auto left = db.m_firstBusy + budget - now;
    if (left <= Clock::duration::zero()) {
        db.m_lockWaitGivenUp = now;
        return 0;
    }
    // Short sleeps first, as SQLite's own busy timeout does: most locks held elsewhere are brief.
    constexpr std::array<std::chrono::milliseconds, 6> pauses{
        std::chrono::milliseconds(1),  std::chrono::milliseconds(2),  std::chrono::milliseconds(5),
        std::chrono::milliseconds(10), std::chrono::milliseconds(20), std::chrono::milliseconds(50)};
    const auto pause = pauses[static_cast<std::size_t>(std::min<int>(attempt, pauses.size() - 1))];
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, left));
    return 1;
}

std::string SqliteDatabase::fileName() const {
    const char* name = sqlite3_db_filename(m_db, "main");
    return name && *name ? std::string(name) : m_path;
}

// Prepared once and reused, like every statement: sqlite3_exec would parse them on every transaction.
void SqliteDatabase::begin() {
    execute("BEGIN IMMEDIATE");
    m_lockWaitGivenUp = Clock::time_point(); // the write lock is ours: the database moves again
}

void SqliteDatabase::commit() {
    execute("COMMIT");
}

void SqliteDatabase::onTransactionEnd(std::function<void(bool committed)> action) {
    if (!inTransactionOnThisThread())
        throw std::logic_error("onTransactionEnd() outside a transaction");
    m_endActions.push_back(std::move(action));
}

void SqliteDatabase::ended(bool committed) noexcept {
    auto actions = std::exchange(m_endActions, {});
    for (auto it = actions.rbegin(); it != actions.rend(); ++it)
        (*it)(committed);
}

void SqliteDatabase::rollback() noexcept {
    // Some errors (disk full, I/O) roll the transaction back already; then there is nothing to undo.
    if (!sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteDatabase::refuseAfterWalIndexFault() {
    if (WalIndexFaults::occurred())
        throw DatabaseError(WalIndexFaults::message());
}

bool SqliteDatabase::transactionActive() {
    std::unique_lock lock(m_mutex);
    return sqlite3_get_autocommit(m_db) == 0;
}

void SqliteDatabase::fail(std::string_view what, int code) {
    throwSqliteError(databaseStatementFailedMessage(what, sqliteError(m_db)), code, m_db);
}

} // namespace jobdeck
