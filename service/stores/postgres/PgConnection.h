#pragma once

#include "core/wire/Timestamp.h"
#include "service/stores/DatabaseError.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

struct pg_conn;
struct pg_result;

namespace jobdeck {

// One libpq connection to a PostgreSQL server, used by one thread at a time (PgConnections lends it).
// Queries take `?`, `?NNN` (or $NNN) parameters, bound 1-based as on SqliteDatabase::Query so the stores of
// both backends share their SQL; columns are 0-based and read as text. Errors throw DatabaseError with the
// server's primary message only (its DETAIL may quote values, which must not reach a log); a lost
// connection is DatabaseError::Cause::Unavailable and marks this connection broken.
class PgConnection final {
    // Every libpq result has exactly one owner, which PQclear()s it.
    struct ResultDeleter {
        void operator()(pg_result* result) const;
    };
    using ResultPtr = std::unique_ptr<pg_result, ResultDeleter>;

public:
    class Query final {
    public:
        Query(PgConnection& connection, std::string_view sql);
        Query(Query&&) noexcept = default;
        Query& operator=(Query&&) = delete;
        ~Query() = default;

        Query& bind(int index, std::int64_t value);
        Query& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
        Query& bind(int index, bool value) { return bind(index, static_cast<std::int64_t>(value ? 1 : 0)); }
        Query& bind(int index, double value);
        Query& bind(int index, std::string_view value);
        Query& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
        Query& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
        Query& bind(int index, std::nullptr_t);
        // The same as bind(): libpq takes the parameters when the query runs, so a copy is kept.
        Query& bindStatic(int index, std::string_view value) { return bind(index, value); }
        // A bytea parameter.
        Query& bindBlob(int index, const void* data, std::size_t size);
        template <class T> Query& bind(int index, const std::optional<T>& value) {
            return value ? bind(index, *value) : bind(index, nullptr);
        }
        template <class... Args> Query& bindAll(const Args&... args) {
            int index = 0;
            (bind(++index, args), ...);
            return *this;
        }

        // Runs the statement on the first call, then advances to the next row; false when there is none.
        bool step();
        // Runs the statement; returns the number of rows it inserted, updated or deleted.
        int run();
        // Runs a write whose outcome is not read (an audit entry, a request's status). Inside a
        // transaction block it is held back and sent with the connection's next statement or COMMIT, in
        // the same round trip: its failure (named by its own statement) is then thrown by that
        // statement's call, which did not run (the transaction is aborted either way). Elsewhere it runs
        // at once. The query is spent.
        void runLater();
        // Sends `next` (a read) right after this statement, in the same round trip, when this one runs:
        // the server runs it once this one is done (under READ COMMITTED with a snapshot taken then, so
        // it sees what this one waited for, such as the commit of a row lock's holder). `next` then
        // steps through its rows without a round trip of its own, or fails with its own error.
        Query& thenRead(Query& next);

        bool isNull(int column) const;
        std::int64_t int64(int column) const;
        int integer(int column) const { return static_cast<int>(int64(column)); }
        double real(int column) const;
        std::string text(int column) const;
        // A bytea column.
        std::string blob(int column) const;
        std::optional<std::string> optionalText(int column) const;
        std::optional<std::int64_t> optionalInt64(int column) const;
        // A time stored as formatTimestamp() text; the epoch when it does not parse.
        TimePoint timestamp(int column) const;

    private:
        friend class PgConnection;
        void execute();
        // The statement's result: the one sent with the statement before it (thenRead), else its own.
        ResultPtr obtainResult(int count, const char* const* values, const int* lengths);
        void setParameter(int index, std::optional<std::string> value, bool binary);
        const char* value(int column) const;

        PgConnection* m_connection;
        std::string m_sql;
        std::vector<std::optional<std::string>> m_parameters;
        std::vector<int> m_formats; // 0: text, 1: binary (bytea)
        ResultPtr m_result;
        Query* m_next = nullptr; // sent with this one (thenRead)
        ResultPtr m_prefetched;  // this one's result, sent with the statement before it
        int m_row = -1;
        int m_rows = 0;
        bool m_customPlanned = false; // never prepared on the server (prepareCustomPlanned)
    };

    // Connects to `url` (postgresql://user@host:port/db, or any libpq connection string); throws
    // DatabaseError (Unavailable when the server cannot be reached).
    static std::unique_ptr<PgConnection> open(const std::string& url);
    ~PgConnection();
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    Query prepare(std::string_view sql) { return Query(*this, sql); }
    // A statement the server plans for its bound values and the table as it is each time it runs, not
    // prepared: for a lookup whose best plan changes as its table grows. A prepared statement's generic
    // plan, once made while the table was small (a scan of it), would stay until the table is analysed.
    Query prepareCustomPlanned(std::string_view sql) {
        Query q(*this, sql);
        q.m_customPlanned = true;
        return q;
    }
    template <class... Args> Query query(std::string_view sql, const Args&... args) {
        Query q(*this, sql);
        q.bindAll(args...);
        return q;
    }
    template <class... Args> int execute(std::string_view sql, const Args&... args) {
        return query(sql, args...).run();
    }
    // Runs SQL text that may hold several statements and takes no arguments (schema scripts).
    void executeScript(const std::string& sql);

    // A transaction block starts with the next statement, in the same round trip to the server (libpq's
    // pipeline mode): a step's BEGIN costs no round trip of its own. A step that ends before any
    // statement ran has nothing to commit or roll back: endPendingBegin() says so and forgets it.
    void beginWithNextStatement() { m_beginPending = true; }
    // True (and forgotten) when the BEGIN is still pending and no write is held back for it.
    bool endPendingBegin() { return m_heldBack.empty() && std::exchange(m_beginPending, false); }
    // Drops the writes held back (Query::runLater) unsent: the transaction is rolled back.
    void dropHeldBackWrites() { m_heldBack.clear(); }

    // False once the server connection was lost; the pool then drops this connection.
    bool isUsable() const;
    // Inside a transaction block (BEGIN ... COMMIT) on the server.
    bool inTransactionBlock() const;
    // Inside a transaction block that a failed statement aborted: its COMMIT would roll back.
    bool transactionAborted() const;

    // The connection's socket, readable when the server sent something (a notification).
    int socket() const;
    // A notification of a channel this connection LISTENs on.
    struct Notification {
        std::string channel;
        std::string payload;
    };
    // Reads what the server sent and returns the notifications it held, in the order sent; throws
    // DatabaseError (Unavailable) when the connection is lost.
    std::vector<Notification> takeNotifications();

    // Runs `action` when the transaction under way on this connection ends: true when it committed.
    void onTransactionEnd(std::function<void(bool committed)> action);
    // Called by PgConnections when the transaction ended; runs the actions in reverse order.
    void transactionEnded(bool committed) noexcept;

private:
    explicit PgConnection(pg_conn* connection);
    // Throws the DatabaseError that `result` (or the connection, when null) reports; frees `result`.
    [[noreturn]] void fail(ResultPtr result, std::string_view sql);
    // The server-side name `sql` is prepared under on this connection, preparing it on first use; empty
    // when it is not worth keeping (not a plain row statement, or the connection keeps enough already).
    // `prepareResult` gets the failed PREPARE's result, if it failed.
    std::string preparedName(const std::string& sql, int parameters, ResultPtr& prepareResult);
    // Whether `result` failed because the prepared `sql` no longer fits the tables; then it is forgotten.
    bool outdatedPlan(const pg_result* result, const std::string& sql);
    // Runs the statement prepared as `name` (or `sql` unprepared when `name` is empty), after the BEGIN
    // asked for by beginWithNextStatement() if there is one.
    // `next`, when not null, is sent right after it (Query::thenRead) and gets its result.
    ResultPtr run(const std::string& name, const std::string& sql, int count, const char* const* values,
                  const int* lengths, const int* formats, Query* next);
    // The pending BEGIN, the writes held back, the statement (when `sql` is not null) and `next` (when not
    // null) in one pipeline. Returns the BEGIN's or the statement's result when it failed (the ones after
    // it did not run), else the statement's; null when they could not be sent, or all succeeded and there
    // is no statement. `next` keeps its own result, failed or not, when the statement's succeeded. Throws
    // when a held-back write failed or could not be prepared, or `next` could not be prepared.
    ResultPtr runPipelined(const std::string& name, const std::string* sql, int count,
                           const char* const* values, const int* lengths, const int* formats,
                           Query* next = nullptr);
    // The server-side name of `query`'s statement (preparedName()); throws when it could not be prepared.
    std::string preparedNameOrFail(const Query& query);
    // Sends `query` as the statement prepared under `name` (its SQL when empty) into the pipeline.
    bool sendQuery(const std::string& name, const Query& query);
    // Throws the DatabaseError (or DatabaseFaultError) of a held-back write that failed, named by its
    // own statement rather than the one it was sent with.
    [[noreturn]] void failWrite(ResultPtr result, const std::string& sql);
    // Sends the pending BEGIN and the writes held back, if any, before a script.
    void sendHeldBack();
    // The results of a pipeline of `statements` up to its sync point, one per statement in their order
    // (PGRES_PIPELINE_ABORTED for those after a failure); fewer when the connection was lost.
    static std::vector<ResultPtr> readPipeline(pg_conn* connection, std::size_t statements);

    pg_conn* m_connection;
    bool m_beginPending = false;
    std::vector<Query> m_heldBack; // writes Query::runLater() held back for the next round trip
    bool m_pipelineStuck = false;  // a pipeline could not be left: the connection is not used again
    std::vector<std::function<void(bool)>> m_endActions;
    std::unordered_map<std::string, std::string> m_prepared; // SQL text -> server-side statement name
    std::uint64_t m_preparedNames = 0;                       // names drawn, so that none is used twice
};

} // namespace jobdeck
