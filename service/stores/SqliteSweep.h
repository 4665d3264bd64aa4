#pragma once

#include "core/wire/Timestamp.h"
#include "service/stores/SqliteDatabase.h"
#include "service/stores/SweepStep.h"

#include <cstdint>
#include <string>

namespace jobdeck {

// Deletes the expired rows of a table swept in the order its rows were made, a small batch at a time.
class SqliteSweep final {
public:
    // The table, the column its rows are swept in the order of (`key`), the time each was made, the
    // time it expires by, and a further condition for deleting it (SQL, may be empty).
    struct Table {
        std::string name;
        std::string key;
        std::string madeAt;
        std::string expiresBy;
        std::string alsoRequired;
    };
    // Deletes the rows of the next batch after key `after` that expired by `cutoff`, in one short
    // transaction.
    static SweepStep batch(SqliteDatabase& db, const Table& table, TimePoint cutoff, std::int64_t after);
};

} // namespace jobdeck
