#include "service/stores/postgres/PgConnection.h"

#include "core/wire/DatabaseFaults.h"
#include "service/stores/DatabaseFaultError.h"
#include "service/stores/DatabaseTimeouts.h"
#include "service/stores/StatementTimer.h"
#include "service/stores/postgres/PgWaitGuard.h"

#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace jobdeck {

namespace {

// SQLSTATE classes: 23 integrity constraint violation, 08 connection exception, 57P01..03 the server
// shuts down or cannot accept connections now.
DatabaseError::Cause causeOf(const char* sqlState) {
    if (!sqlState)
        return DatabaseError::Cause::Unavailable; // no answer from the server at all
    const std::string_view state(sqlState);
    if (state.starts_with("23"))
        return DatabaseError::Cause::ConstraintViolation;
    if (state.starts_with("08") || state.starts_with("57P"))
        return DatabaseError::Cause::Unavailable;
    return DatabaseError::Cause::Other;
}

std::string firstLine(const char* text) {
    std::string line = text ? text : "";
    if (const auto end = line.find('\n'); end != std::string::npos)
        line.resize(end);
    return line.empty() ? std::string("no answer from the server") : line;
}

// Tells the StatementTimer, if any, how long the server took for `sql` (its round trip).
void timeStatement(std::string_view sql, std::chrono::steady_clock::time_point started) {
    StatementTimer* timer = StatementTimer::current();
    if (!timer)
        return;
    using Kind = StatementTimer::Kind;
    // A locking read (FOR UPDATE, FOR SHARE, ...) is a SELECT, but it is what waits for other writers.
    const bool locking =
        sql.find(" FOR ") != std::string_view::npos &&
        (sql.find(" UPDATE") != std::string_view::npos || sql.find(" SHARE") != std::string_view::npos);
    const Kind kind = sql == "COMMIT"                         ? Kind::Commit
                      : sql.starts_with("SELECT") && !locking ? Kind::Read
                                                              : Kind::Write;
    timer->statementTimed(kind, std::chrono::steady_clock::now() - started);
}

// A statement's parameters as libpq takes them, pointing into the query's own copies.
struct SentParameters {
    std::vector<const char*> values;
    std::vector<int> lengths;
};

SentParameters sentParameters(const std::vector<std::optional<std::string>>& parameters) {
    SentParameters sent;
    sent.values.reserve(parameters.size());
    sent.lengths.reserve(parameters.size());
    for (const auto& parameter : parameters) {
        sent.values.push_back(parameter ? parameter->c_str() : nullptr);
        sent.lengths.push_back(parameter ? static_cast<int>(parameter->size()) : 0);
    }
    return sent;
}

// A failure a client is told the cause of (DatabaseFaultError): SQLSTATE 53100 disk_full, 57014
// query_canceled (statement_timeout) and 55P03 lock_not_available (lock_timeout). `result` stays with its
// owner, which frees it as the exception leaves.
void throwIfClientFault(const PGresult* result, std::string_view sql) {
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    const std::string_view code = state ? state : "";
    const DatabaseFault fault = code == "53100"                      ? DatabaseFault::DiskFull
                                : code == "57014" || code == "55P03" ? DatabaseFault::TimedOut
                                                                     : DatabaseFault::Other;
    if (fault == DatabaseFault::Other)
        return;
    const char* primary = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
    const std::string message = "Database error (" + std::string(sql.substr(0, sql.find_first_of(" \n"))) +
                                "): " + (primary ? primary : "no message");
    throw DatabaseFaultError(message, fault);
}

// SQLite's `?` and `?NNN` parameters as PostgreSQL's $1..$n, so both backends' stores share their SQL
// text; a `?` inside a quoted literal or identifier stays.
std::string numberedParameters(std::string_view sql) {
    std::string numbered;
    numbered.reserve(sql.size() + 16);
    int next = 0;
    char quote = 0;
    for (std::size_t i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        if (quote) {
            quote = c == quote ? '\0' : quote;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '?') {
            std::size_t end = i + 1;
            while (end < sql.size() && sql[end] >= '0' && sql[end] <= '9')
                ++end;
            int number = ++next;
            if (end > i + 1) {
                std::from_chars(sql.data() + i + 1, sql.data() + end, number);
                next = std::max(next - 1, number);
            }
            numbered += '$';
            numbered += std::to_string(number);
            i = end - 1;
            continue;
        }
        numbered += c;
    }
    return numbered;
}

} // namespace

void PgConnection::ResultDeleter::operator()(PGresult* result) const {
    PQclear(result);
}

PgConnection::Query::Query(PgConnection& connection, std::string_view sql)
    : m_connection(&connection)
    , m_sql(numberedParameters(sql)) {}

void PgConnection::Query::setParameter(int index, std::optional<std::string> value, bool binary) {
    const auto slot = static_cast<std::size_t>(index - 1);
    if (m_parameters.size() <= slot) {
        m_parameters.resize(slot + 1);
        m_formats.resize(slot + 1, 0);
    }
    m_parameters[slot] = std::move(value);
    m_formats[slot] = binary ? 1 : 0;
}

PgConnection::Query& PgConnection::Query::bind(int index, std::int64_t value) {
    setParameter(index, std::to_string(value), false);
    return *this;
}

PgConnection::Query& PgConnection::Query::bind(int index, double value) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    setParameter(index, std::string(text, end), false);
    return *this;
}

PgConnection::Query& PgConnection::Query::bind(int index, std::string_view value) {
    setParameter(index, std::string(value), false);
    return *this;
}

PgConnection::Query& PgConnection::Query::bind(int index, std::nullptr_t) {
    setParameter(index, std::nullopt, false);
    return *this;
}

PgConnection::Query& PgConnection::Query::bindBlob(int index, const void* data, std::size_t size) {
    setParameter(index, std::string(static_cast<const char*>(data), size), true);
    return *this;
}

void PgConnection::Query::execute() {
    const SentParameters sent = sentParameters(m_parameters);
    const auto started = std::chrono::steady_clock::now();
    const PgWaitGuard bounded(PQsocket(m_connection->m_connection), DatabaseTimeouts::current().clientWait());
    const bool sentBefore = m_prefetched != nullptr; // its time is the statement's it was sent with
    ResultPtr result =
        obtainResult(static_cast<int>(sent.values.size()), sent.values.data(), sent.lengths.data());
    if (!sentBefore)
        timeStatement(m_sql, started);
    const auto status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        if (bounded.expired())
            throw pgServerTimedOut(m_sql);
        throwIfClientFault(result.get(), m_sql);
        m_connection->fail(std::move(result), m_sql);
    }
    m_rows = PQntuples(result.get());
    m_result = std::move(result);
}

bool PgConnection::Query::step() {
    if (!m_result)
        execute();
    if (m_row < m_rows)
        ++m_row;
    return m_row < m_rows;
}

PgConnection::ResultPtr PgConnection::Query::obtainResult(int count, const char* const* values,
                                                          const int* lengths) {
    if (m_prefetched) {
        m_connection->outdatedPlan(m_prefetched.get(), m_sql); // forgotten, so its next use prepares it again
        return std::move(m_prefetched);
    }
    ResultPtr result;
    for (int attempt = 0; attempt < 2; ++attempt) {
        result.reset();
        const std::string name =
            m_customPlanned ? std::string() : m_connection->preparedName(m_sql, count, result);
        if (!name.empty() || !result) // else the PREPARE failed, and its result is the statement's
            result = m_connection->run(name, m_sql, count, values, lengths, m_formats.data(), m_next);
        // A table's column changed type since the statement was prepared (a newer replica migrated the
        // schema): prepared again, and run again where no transaction was aborted by it.
        if (name.empty() || !m_connection->outdatedPlan(result.get(), m_sql) ||
            m_connection->inTransactionBlock())
            break;
    }
    m_next = nullptr;
    return result;
}

PgConnection::Query& PgConnection::Query::thenRead(Query& next) {
    m_next = &next;
    return *this;
}

int PgConnection::Query::run() {
    if (!m_result)
        execute();
    const char* changed = PQcmdTuples(m_result.get());
    return changed && *changed ? std::atoi(changed) : 0;
}

void PgConnection::Query::runLater() {
    if (!m_connection->m_beginPending && !m_connection->inTransactionBlock()) {
        run();
        return;
    }
    m_connection->m_heldBack.push_back(std::move(*this));
}

const char* PgConnection::Query::value(int column) const {
    if (!m_result || m_row < 0 || m_row >= m_rows || column >= PQnfields(m_result.get()))
        throw DatabaseError(resultFieldMissingMessage());
    return PQgetvalue(m_result.get(), m_row, column);
}

bool PgConnection::Query::isNull(int column) const {
    value(column); // checks the position
    return PQgetisnull(m_result.get(), m_row, column) != 0;
}

std::int64_t PgConnection::Query::int64(int column) const {
    const char* text = value(column);
    std::int64_t number = 0;
    std::from_chars(text, text + std::strlen(text), number);
    return number;
}

double PgConnection::Query::real(int column) const {
    return std::strtod(value(column), nullptr);
}

std::string PgConnection::Query::text(int column) const {
    return std::string(value(column), static_cast<std::size_t>(PQgetlength(m_result.get(), m_row, column)));
}

std::string PgConnection::Query::blob(int column) const {
    std::size_t length = 0;
    unsigned char* bytes = PQunescapeBytea(reinterpret_cast<const unsigned char*>(value(column)), &length);
    if (!bytes)
        throw DatabaseError(databaseStatementFailedMessage("reading a result", databaseOutOfMemoryReason()));
    std::string data(reinterpret_cast<const char*>(bytes), length);
    PQfreemem(bytes);
    return data;
}

std::optional<std::string> PgConnection::Query::optionalText(int column) const {
    return isNull(column) ? std::nullopt : std::optional<std::string>(text(column));
}

std::optional<std::int64_t> PgConnection::Query::optionalInt64(int column) const {
    return isNull(column) ? std::nullopt : std::optional<std::int64_t>(int64(column));
}

TimePoint PgConnection::Query::timestamp(int column) const {
    return parseTimestamp(text(column)).value_or(TimePoint{});
}

namespace {

// Connects with jobdeckd's timeouts and TCP keepalives (DatabaseTimeouts) unless the URL (or libpq
// keyword string) sets its own: libpq keeps the last value of a keyword, and the URL is expanded last.
PGconn* connectWithTimeouts(const std::string& url, const DatabaseTimeouts& timeouts) {
    const std::string connect = std::to_string(timeouts.connect.count());
    const std::string idle = std::to_string(timeouts.keepalivesIdle.count());
    const std::string interval = std::to_string(timeouts.keepalivesInterval.count());
    const std::string count = std::to_string(timeouts.keepalivesCount);
    const char* const keywords[] = {
        "connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
        "dbname",          nullptr};
    const char* const values[] = {connect.c_str(), "1",         idle.c_str(), interval.c_str(),
                                  count.c_str(),   url.c_str(), nullptr};
    return PQconnectdbParams(keywords, values, 1);
}

} // namespace

std::unique_ptr<PgConnection> PgConnection::open(const std::string& url) {
    const DatabaseTimeouts timeouts = DatabaseTimeouts::current();
    PGconn* connection = connectWithTimeouts(url, timeouts);
    if (!connection)
        throw DatabaseError(postgresNotConnectedMessage(databaseOutOfMemoryReason()),
                            DatabaseError::Cause::Unavailable);
    if (PQstatus(connection) != CONNECTION_OK) {
        // libpq's message names host and port, never the password.
        const std::string message = postgresNotConnectedMessage(firstLine(PQerrorMessage(connection)));
        PQfinish(connection);
        throw DatabaseError(message, DatabaseError::Cause::Unavailable);
    }
    auto opened = std::unique_ptr<PgConnection>(new PgConnection(connection));
    // Quiet notices (they would go to stderr), and the same text form of values everywhere. A statement
    // or a lock waited for longer than the database timeout fails rather than hanging the request, and a
    // transaction left idle (DatabaseTimeouts::idleInTransaction) ends.
    PQsetNoticeProcessor(
        connection, [](void*, const char*) {}, nullptr);
    const PgWaitGuard bounded(PQsocket(connection), timeouts.clientWait());
    opened->executeScript(
        "SET client_encoding = 'UTF8'; SET synchronous_commit = on; SET statement_timeout = '" +
        std::to_string(timeouts.statement.count()) + "s'; SET lock_timeout = '" +
        std::to_string(timeouts.lockWait().count()) + "s'; SET idle_in_transaction_session_timeout = '" +
        std::to_string(timeouts.idleInTransaction().count()) + "s'");
    return opened;
}

PgConnection::PgConnection(PGconn* connection)
    : m_connection(connection) {}

PgConnection::~PgConnection() {
    PQfinish(m_connection);
}

int PgConnection::socket() const {
    return PQsocket(m_connection);
}

std::vector<PgConnection::Notification> PgConnection::takeNotifications() {
    if (!PQconsumeInput(m_connection))
        throw DatabaseError(postgresConnectionLostMessage(firstLine(PQerrorMessage(m_connection))),
                            DatabaseError::Cause::Unavailable);
    std::vector<Notification> notifications;
    while (PGnotify* notification = PQnotifies(m_connection)) {
        notifications.push_back({notification->relname, notification->extra});
        PQfreemem(notification);
    }
    return notifications;
}

PgConnection::ResultPtr PgConnection::run(const std::string& name, const std::string& sql, int count,
                                          const char* const* values, const int* lengths, const int* formats,
                                          Query* next) {
    if (m_beginPending || !m_heldBack.empty() || next)
        return runPipelined(name, &sql, count, values, lengths, formats, next);
    if (!name.empty())
        return ResultPtr(PQexecPrepared(m_connection, name.c_str(), count, values, lengths, formats, 0));
    return ResultPtr(PQexecParams(m_connection, sql.c_str(), count, nullptr, values, lengths, formats, 0));
}

namespace {

bool sendStatement(PGconn* connection, const std::string& name, const std::string& sql, int count,
                   const char* const* values, const int* lengths, const int* formats) {
    return (name.empty()
                ? PQsendQueryParams(connection, sql.c_str(), count, nullptr, values, lengths, formats, 0)
                : PQsendQueryPrepared(connection, name.c_str(), count, values, lengths, formats, 0)) == 1;
}

bool succeeded(const PGresult* result) {
    const auto status = PQresultStatus(result);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

} // namespace

std::string PgConnection::preparedNameOrFail(const Query& query) {
    ResultPtr prepareResult;
    std::string name = preparedName(query.m_sql, static_cast<int>(query.m_parameters.size()), prepareResult);
    if (prepareResult)
        fail(std::move(prepareResult), query.m_sql);
    return name;
}

bool PgConnection::sendQuery(const std::string& name, const Query& query) {
    const SentParameters parameters = sentParameters(query.m_parameters);
    return sendStatement(m_connection, name, query.m_sql, static_cast<int>(query.m_parameters.size()),
                         parameters.values.data(), parameters.lengths.data(), query.m_formats.data());
}

PgConnection::ResultPtr PgConnection::runPipelined(const std::string& name, const std::string* sql, int count,
                                                   const char* const* values, const int* lengths,
                                                   const int* formats, Query* next) {
    std::vector<Query> writes = std::move(m_heldBack);
    m_heldBack.clear();
    // Their server-side statements first: PREPARE is not sent inside a pipeline here.
    std::vector<std::string> names;
    names.reserve(writes.size());
    for (const Query& write : writes)
        names.push_back(preparedNameOrFail(write));
    const std::string nextName = next ? preparedNameOrFail(*next) : std::string();
    if (PQenterPipelineMode(m_connection) != 1) {
        m_pipelineStuck = true; // busy with something else: not to be trusted again
        return nullptr;
    }
    const bool begin = std::exchange(m_beginPending, false);
    bool sent =
        !begin || PQsendQueryParams(m_connection, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
    for (std::size_t i = 0; sent && i < writes.size(); ++i)
        sent = sendQuery(names[i], writes[i]);
    sent = sent && (!sql || sendStatement(m_connection, name, *sql, count, values, lengths, formats)) &&
           (!next || sendQuery(nextName, *next)) && PQpipelineSync(m_connection) == 1;
    const std::size_t upToStatement = (begin ? 1 : 0) + writes.size() + (sql ? 1 : 0);
    const std::size_t statements = upToStatement + (next ? 1 : 0);
    std::vector<ResultPtr> results;
    if (sent)
        results = readPipeline(m_connection, statements);
    if (PQexitPipelineMode(m_connection) != 1 || !sent)
        m_pipelineStuck = true;
    if (m_pipelineStuck)
        return nullptr; // the connection's error message says why
    const std::size_t firstWrite = begin ? 1 : 0;
    for (std::size_t i = 0; i < std::min(upToStatement, results.size()); ++i) {
        if (succeeded(results[i].get()))
            continue;
        // The first failure: the ones after it did not run. A held-back write's is reported as its own.
        if (i >= firstWrite && i < firstWrite + writes.size())
            failWrite(std::move(results[i]), writes[i - firstWrite].m_sql);
        return std::move(results[i]);
    }
    if (results.size() < statements)
        return nullptr; // the connection was lost: its error message says why
    if (next)
        next->m_prefetched = std::move(results.back());
    return sql ? std::move(results[upToStatement - 1]) : nullptr;
}

// Each statement's results end with a null; the sync point ends the pipeline. A lost connection
// ends it early.
std::vector<PgConnection::ResultPtr> PgConnection::readPipeline(PGconn* connection, std::size_t statements) {
    std::vector<ResultPtr> results;
    std::size_t ended = 0;
    for (;;) {
        ResultPtr result(PQgetResult(connection));
        if (!result) {
            if (++ended > statements || PQstatus(connection) != CONNECTION_OK)
                break;
            continue;
        }
        if (PQresultStatus(result.get()) == PGRES_PIPELINE_SYNC)
            break;
        if (results.size() == ended) // the statement's own result
            results.push_back(std::move(result));
    }
    return results;
}

void PgConnection::failWrite(ResultPtr result, const std::string& sql) {
    outdatedPlan(result.get(), sql); // forgotten, so its next use prepares it again
    throwIfClientFault(result.get(), sql);
    fail(std::move(result), sql);
}

void PgConnection::sendHeldBack() {
    if (m_heldBack.empty())
        return;
    ResultPtr failed = runPipelined({}, nullptr, 0, nullptr, nullptr, nullptr);
    if (failed || !isUsable())
        fail(std::move(failed), "held-back write");
}

void PgConnection::executeScript(const std::string& sql) {
    sendHeldBack();
    if (std::exchange(m_beginPending, false))
        executeScript("BEGIN");
    const auto started = std::chrono::steady_clock::now();
    ResultPtr result(PQexec(m_connection, sql.c_str()));
    timeStatement(sql, started);
    const auto status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        fail(std::move(result), "script");
}

bool PgConnection::isUsable() const {
    return !m_pipelineStuck && PQstatus(m_connection) == CONNECTION_OK;
}

bool PgConnection::inTransactionBlock() const {
    return PQtransactionStatus(m_connection) != PQTRANS_IDLE;
}

bool PgConnection::transactionAborted() const {
    return PQtransactionStatus(m_connection) == PQTRANS_INERROR;
}

void PgConnection::onTransactionEnd(std::function<void(bool committed)> action) {
    m_endActions.push_back(std::move(action));
}

void PgConnection::transactionEnded(bool committed) noexcept {
    auto actions = std::move(m_endActions);
    m_endActions.clear();
    for (auto it = actions.rbegin(); it != actions.rend(); ++it)
        (*it)(committed);
}

namespace {

// Statements worth a server-side plan of their own: the row statements the stores run again and again.
// Transaction control and scripts are not (PREPARE takes neither), and the bound keeps a connection
// that meets many one-off texts from holding them all.
bool worthPreparing(std::string_view sql, std::size_t alreadyPrepared) {
    constexpr std::size_t kMostPrepared = 256;
    if (alreadyPrepared >= kMostPrepared)
        return false;
    for (const std::string_view verb : {"SELECT", "INSERT", "UPDATE", "DELETE", "WITH"})
        if (sql.starts_with(verb))
            return true;
    return false;
}

} // namespace

// Parsing and planning a statement costs the server more than running most of the stores' statements:
// each is prepared once per connection and then only bound and run (docs/performance.md, "Replicas").
std::string PgConnection::preparedName(const std::string& sql, int parameters, ResultPtr& prepareResult) {
    if (const auto it = m_prepared.find(sql); it != m_prepared.end())
        return it->second;
    if (!worthPreparing(sql, m_prepared.size()))
        return {};
    std::string name = "jobdeck_" + std::to_string(++m_preparedNames);
    ResultPtr prepared(PQprepare(m_connection, name.c_str(), sql.c_str(), parameters, nullptr));
    if (PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) {
        prepareResult = std::move(prepared); // reported as the statement's own failure
        return {};
    }
    return m_prepared.emplace(sql, std::move(name)).first->second;
}

bool PgConnection::outdatedPlan(const PGresult* result, const std::string& sql) {
    // SQLSTATE 0A000, feature_not_supported: "cached plan must not change result type".
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    if (!state || std::string_view(state) != "0A000")
        return false;
    m_prepared.erase(sql); // its server-side statement stays unused until the connection closes
    return true;
}

void PgConnection::fail(ResultPtr result, std::string_view sql) {
    const char* state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
    const char* primary = result ? PQresultErrorField(result.get(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    auto cause = causeOf(state);
    if (!isUsable())
        cause = DatabaseError::Cause::Unavailable;
    const std::string message = primary ? std::string(primary) : firstLine(PQerrorMessage(m_connection));
    const std::string verb(sql.substr(0, sql.find_first_of(" \n")));
    throw DatabaseError(databaseStatementFailedMessage(verb, message), cause);
}

} // namespace jobdeck
