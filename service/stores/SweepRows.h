#pragma once

#include "core/wire/Timestamp.h"
#include "service/stores/SqlConnection.h"
#include "service/stores/SweepStep.h"

#include <cstdint>
#include <string>

// Deletes the expired rows of a table swept in the order its rows were made, a small batch at a time,
// with SQL that is the same on both backends, over either backend's connection (`Db`: SqliteDatabase
// or PgConnection).
namespace jobdeck::sweep_rows {

// Rows looked at per sweep step: one short step each, so a request waits for the writer a millisecond
// or so at most.
inline constexpr int batchRows = 500;

// The table, the column its rows are swept in the order of (`key`), the time each was made, the time it
// expires by, and a further condition for deleting it (SQL, may be empty).
struct Table {
    std::string name;
    std::string key;
    std::string madeAt;
    std::string expiresBy;
    std::string alsoRequired;
};

// Deletes the rows of the next batch after key `after` that expired by `cutoff`; inside the caller's
// step.
template <SqlConnection Db>
SweepStep batch(Db& db, const Table& table, TimePoint cutoff, std::int64_t after) {
    const std::string before = formatTimestamp(cutoff);
    SweepStep step;
    std::int64_t rows = 0;
    {
        auto q = db.query("SELECT count(*), max(k) FROM (SELECT " + table.key + " AS k FROM " + table.name +
                              " WHERE " + table.key + " > ? ORDER BY " + table.key + " LIMIT ?) AS batch",
                          after, batchRows);
        q.step();
        rows = q.int64(0);
        step.last = rows > 0 ? q.int64(1) : after;
    }
    if (rows == 0) {
        step.done = true;
        return step;
    }
    // Rows come in the order they were made: once one is younger than the cutoff, so are the next.
    {
        auto q = db.query("SELECT CASE WHEN " + table.madeAt + " >= ? THEN 1 ELSE 0 END FROM " + table.name +
                              " WHERE " + table.key + " = ?",
                          before, step.last);
        step.done = rows < batchRows || (q.step() && q.int64(0) != 0);
    }
    step.deleted = db.execute("DELETE FROM " + table.name + " WHERE " + table.key + " > ? AND " + table.key +
                                  " <= ? AND " + table.expiresBy + " < ?" + table.alsoRequired,
                              after, step.last, before);
    return step;
}

} // namespace jobdeck::sweep_rows
