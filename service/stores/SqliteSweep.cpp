#include "service/stores/SqliteSweep.h"

namespace jobdeck {

namespace {

// Rows looked at per sweep step: one short transaction each, so a request waits for the writer a
// millisecond or so at most.
constexpr int kSweepBatch = 500;

} // namespace

SweepStep SqliteSweep::batch(SqliteDatabase& db, const Table& table, TimePoint cutoff, std::int64_t after) {
    const std::string before = formatTimestamp(cutoff);
    SweepStep step;
    db.transaction([&] {
        std::int64_t rows = 0;
        {
            auto q =
                db.query("SELECT count(*), max(k) FROM (SELECT " + table.key + " AS k FROM " + table.name +
                             " WHERE " + table.key + " > ? ORDER BY " + table.key + " LIMIT ?)",
                         after, kSweepBatch);
            q.step();
            rows = q.int64(0);
            step.last = rows > 0 ? q.int64(1) : after;
        }
        if (rows == 0) {
            step.done = true;
            return;
        }
        // Rows come in the order they were made: once one is younger than the cutoff, so are the next.
        {
            auto q = db.query("SELECT " + table.madeAt + " >= ? FROM " + table.name + " WHERE " + table.key +
                                  " = ?",
                              before, step.last);
            step.done = rows < kSweepBatch || (q.step() && q.int64(0) != 0);
        }
        step.deleted =
            db.execute("DELETE FROM " + table.name + " WHERE " + table.key + " > ? AND " + table.key +
                           " <= ? AND " + table.expiresBy + " < ?" + table.alsoRequired,
                       after, step.last, before);
    });
    return step;
}

} // namespace jobdeck
