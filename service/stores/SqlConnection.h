#pragma once

#include "core/wire/Timestamp.h"

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// A row of a query's result as both backends read it (SqliteDatabase::Query, PgConnection::Query);
// columns are 0-based.
template <class Row>
concept SqlRow = requires(const Row& row, int column) {
    { row.isNull(column) } -> std::same_as<bool>;
    { row.int64(column) } -> std::same_as<std::int64_t>;
    { row.integer(column) } -> std::same_as<int>;
    { row.real(column) } -> std::same_as<double>;
    { row.text(column) } -> std::same_as<std::string>;
    { row.blob(column) } -> std::same_as<std::string>;
    { row.optionalText(column) } -> std::same_as<std::optional<std::string>>;
    { row.optionalInt64(column) } -> std::same_as<std::optional<std::int64_t>>;
    { row.timestamp(column) } -> std::same_as<TimePoint>;
};

// A statement of either backend: `?` parameters bound 1-based, then stepped through its rows or run.
template <class Query>
concept SqlQuery = SqlRow<Query> &&
    requires(Query& q, int index, std::string_view text, std::int64_t number) {
    { q.bind(index, number) } -> std::same_as<Query&>;
    { q.bind(index, text) } -> std::same_as<Query&>;
    { q.bind(index, nullptr) } -> std::same_as<Query&>;
    { q.bindStatic(index, text) } -> std::same_as<Query&>;
    { q.bindBlob(index, text.data(), text.size()) } -> std::same_as<Query&>;
    { q.step() } -> std::same_as<bool>;
    { q.run() } -> std::same_as<int>;
    { q.runLater() } -> std::same_as<void>;
    { q.thenRead(q) } -> std::same_as<Query&>;
};

// The connection API the shared SQL of the stores (*Rows.h) is written against: what SqliteDatabase
// and PgConnection both offer.
template <class Db>
concept SqlConnection = requires(Db& db, std::string_view sql, const std::string& text, std::int64_t number) {
    { db.prepare(sql) } -> SqlQuery;
    { db.prepareCustomPlanned(sql) } -> SqlQuery;
    { db.query(sql, text, number) } -> SqlQuery;
    { db.execute(sql, text, number) } -> std::same_as<int>;
};

} // namespace jobdeck
