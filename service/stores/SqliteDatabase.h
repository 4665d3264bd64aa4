#pragma once

#include "core/wire/Timestamp.h"
#include "service/stores/DatabaseError.h"
#include "service/stores/StatementTimer.h"

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace jobdeck {

// A thin RAII wrapper over one sqlite3 connection, opened with WAL, foreign_keys=ON, a busy timeout and
// synchronous=FULL (a committed write survives kill -9 and power loss right after the answer). A
// read-only connection (Mode::ReadOnly, query_only) reads the last committed state in parallel with the
// writer, which WAL allows.
//
// Thread safety: one connection guarded by a recursive mutex. A Query holds the mutex for its lifetime
// and transaction() holds it for the whole transaction, so a thread that is inside either owns the
// connection; other threads wait. Keep Query objects short-lived (a block scope). Prepared statements
// are kept per SQL text and reused, so a query costs no parse after its first use.
class SqliteDatabase final {
public:
    // A prepared statement; bind parameters are 1-based, columns 0-based.
    class Query final {
    public:
        Query(Query&&) noexcept;
        Query& operator=(Query&&) = delete;
        ~Query();

        Query& bind(int index, std::int64_t value);
        Query& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
        Query& bind(int index, bool value) { return bind(index, static_cast<std::int64_t>(value ? 1 : 0)); }
        Query& bind(int index, double value);
        Query& bind(int index, std::string_view value);
        Query& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
        Query& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
        // Binds without a copy: `value` must stay as it is until the query is done.
        Query& bindStatic(int index, std::string_view value);
        Query& bind(int index, std::nullptr_t);
        Query& bindBlob(int index, const void* data, std::size_t size);
        template <class T> Query& bind(int index, const std::optional<T>& value) {
            return value ? bind(index, *value) : bind(index, nullptr);
        }
        // Binds the arguments to parameters 1..n in order.
        template <class... Args> Query& bindAll(const Args&... args) {
            int index = 0;
            (bind(++index, args), ...);
            return *this;
        }

        // Advances to the next row; false when there is none (the statement is done).
        bool step();
        // Runs the statement to completion; returns sqlite3_changes() of the connection.
        int run();
        // run(), for a write whose outcome is not read (PgConnection::Query::runLater); here at once.
        void runLater() { run(); }
        // Nothing to send ahead (PgConnection::Query::thenRead): `next` runs when first stepped, after
        // this one, in the same step.
        Query& thenRead(Query& /*next*/) { return *this; }

        bool isNull(int column) const;
        std::int64_t int64(int column) const;
        int integer(int column) const { return static_cast<int>(int64(column)); }
        double real(int column) const;
        std::string text(int column) const;
        std::string blob(int column) const;
        std::optional<std::string> optionalText(int column) const;
        std::optional<std::int64_t> optionalInt64(int column) const;
        // A time stored as formatTimestamp() text; the epoch when it does not parse.
        TimePoint timestamp(int column) const;

    private:
        friend class SqliteDatabase;
        Query(SqliteDatabase& db, std::unique_lock<std::recursive_mutex> lock, std::string sql,
              sqlite3_stmt* stmt);
        Query& bindText(int index, std::string_view value, sqlite3_destructor_type lifetime);
        SqliteDatabase* m_db;
        std::unique_lock<std::recursive_mutex> m_lock;
        std::string m_sql;
        sqlite3_stmt* m_stmt;
        std::chrono::nanoseconds m_spent{0}; // in sqlite3_step, while a StatementTimer is set
    };

    enum class Mode { ReadWrite, ReadOnly };

    // Opens (creating if missing) the database file at `path`; throws DatabaseError. ReadOnly needs
    // a database that a ReadWrite connection has created (and switched to WAL) already.
    static std::unique_ptr<SqliteDatabase> open(const std::string& path, Mode mode = Mode::ReadWrite);
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    const std::string& path() const { return m_path; }
    // The database file's full name as SQLite resolved it (its -wal and -shm files sit beside it).
    std::string fileName() const;

    Query prepare(std::string_view sql);
    // The same as prepare(): SQLite plans a statement as it is prepared, from the schema, not from
    // the table's size.
    Query prepareCustomPlanned(std::string_view sql) { return prepare(sql); }
    // prepare + bindAll.
    template <class... Args> Query query(std::string_view sql, const Args&... args) {
        Query q = prepare(sql);
        q.bindAll(args...);
        return q;
    }
    // Runs one statement with arguments; returns the number of rows changed.
    template <class... Args> int execute(std::string_view sql, const Args&... args) {
        return query(sql, args...).run();
    }
    // Runs SQL text that may hold several statements and takes no arguments (schema scripts).
    void executeScript(const std::string& sql);

    // Runs fn inside BEGIN IMMEDIATE ... COMMIT (ROLLBACK and rethrow when fn throws). A transaction()
    // called inside another on the same thread joins the outer one. Returns what fn returns.
    template <class Fn> auto transaction(Fn&& fn) -> std::invoke_result_t<Fn&> {
        std::unique_lock lock(m_mutex);
        if (m_transactionDepth > 0) {
            ++m_transactionDepth;
            struct Leave {
                int& depth;
                ~Leave() { --depth; }
            } leave{m_transactionDepth};
            return fn();
        }
        begin();
        ++m_transactionDepth;
        struct Owner {
            std::atomic<std::thread::id>& owner;
            explicit Owner(std::atomic<std::thread::id>& o)
                : owner(o) {
                owner.store(std::this_thread::get_id());
            }
            ~Owner() { owner.store(std::thread::id()); }
        } owner{m_transactionThread};
        try {
            if constexpr (std::is_void_v<std::invoke_result_t<Fn&>>) {
                fn();
                --m_transactionDepth;
                commit();
                ended(true);
            } else {
                auto result = fn();
                --m_transactionDepth;
                commit();
                ended(true);
                return result;
            }
        } catch (...) {
            if (m_transactionDepth > 0)
                --m_transactionDepth;
            rollback();
            ended(false);
            throw;
        }
    }
    // Inside a transaction on this thread: `action` runs when the outermost transaction ends, with
    // true when it committed and false when it rolled back (what a step took out of memory into the
    // transaction goes back then). Actions run in the reverse order of their registration and must
    // not throw.
    void onTransactionEnd(std::function<void(bool committed)> action);

    // False when no transaction is open on the connection: outside transaction(), or inside one that an
    // error (disk full, I/O) has rolled back already, so that nothing more can be written in it.
    bool transactionActive();

    // Locks the connection for a sequence of calls that must not interleave with other threads.
    std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock(m_mutex); }

    // True on the thread that is inside transaction(): its reads must go through this connection to
    // see what the transaction wrote so far.
    bool inTransactionOnThisThread() const {
        return m_transactionThread.load() == std::this_thread::get_id();
    }

private:
    using Clock = std::chrono::steady_clock;

    SqliteDatabase(sqlite3* db, std::string path);
    // SQLite's busy handler: whether to try again for a lock held by another process.
    static int onBusy(void* self, int attempt);
    void begin();
    void commit();
    void rollback() noexcept;
    void ended(bool committed) noexcept;
    [[noreturn]] void fail(std::string_view what, int code);
    // Throws once WalIndexFaults saw a fault: the database is not touched again (see WalIndexFaults).
    static void refuseAfterWalIndexFault();
    // Called by a finished Query, which still holds the mutex.
    void release(std::string sql, sqlite3_stmt* stmt);

    sqlite3* m_db;
    std::string m_path;
    std::recursive_mutex m_mutex;
    int m_transactionDepth = 0;
    std::atomic<std::thread::id> m_transactionThread;
    std::vector<std::function<void(bool)>> m_endActions; // of the transaction under way
    // A lock held by another process is waited for m_lockWait (onBusy).
    std::chrono::milliseconds m_lockWait{0};
    Clock::time_point m_firstBusy;       // of the statement waiting now
    Clock::time_point m_lockWaitGivenUp; // the last wait given up, until the write lock is got again
    // Idle prepared statements by SQL text; several when the same SQL runs nested on one thread.
    std::unordered_map<std::string, std::vector<sqlite3_stmt*>> m_statements;
};

} // namespace jobdeck
