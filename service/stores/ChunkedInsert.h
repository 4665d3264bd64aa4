#pragma once

#include "service/stores/SqlConnection.h"
#include "service/stores/SqliteDatabase.h"
#include "service/stores/postgres/PgConnection.h"

#include <spdlog/spdlog.h>

#include <array>
#include <cstddef>
#include <exception>
#include <string>
#include <string_view>

namespace jobdeck::chunked_insert {

// What a failing row does: a queued row is skipped (logged), a durable one throws.
enum class RowErrors { Throw, Skip };

// Multi-row INSERTs of up to kChunkRows rows: the database then runs one statement, and updates the
// audit's seq counter once, per chunk rather than per row. Chunks of a few
// sizes only, so each connection keeps a few prepared statements.
inline constexpr std::array<std::size_t, 3> kChunkRows{64, 8, 1};

// "<head>(<row 0>),(<row 1>)...<tail>": `row(i, firstParameter)` gives the placeholders of row i.
template <class RowText>
std::string chunkSql(std::string_view head, std::size_t rows, int shared, int perRow, const RowText& row,
                     std::string_view tail) {
    std::string sql(head);
    for (std::size_t i = 0; i < rows; ++i) {
        sql += i == 0 ? "(" : ",(";
        sql += row(shared + 1 + static_cast<int>(i) * perRow);
        sql += ')';
    }
    sql += tail;
    return sql;
}

// Writes `count` rows through the chunk statements `sql` (one per kChunkRows size): `bindShared(query)`
// binds the parameters every row shares (1..shared), `bindRow(query, first, row)` row number `row`
// from parameter `first`. With `skipFailedRows` (queued rows), a chunk that fails is written again
// row by row, so a bad row loses only itself (logged), unless the failure ended the transaction;
// otherwise the first failure is thrown.
// Runs `write` in the transaction under way; true when it wrote, false when it failed and the
// transaction can go on without it (logged), and rethrows when the failure ended the transaction (disk
// full, I/O, a lost connection). SQLite keeps a transaction after a failed statement; PostgreSQL needs
// a savepoint for that.
template <class Write> bool writeOrSkip(SqliteDatabase& db, const Write& write, std::string_view what) {
    try {
        write();
        return true;
    } catch (const std::exception& e) {
        if (!db.transactionActive())
            throw;
        spdlog::error("{}: {}", what, e.what());
        return false;
    }
}
template <class Write> bool writeOrSkip(PgConnection& db, const Write& write, std::string_view what) {
    db.executeScript("SAVEPOINT queued_rows");
    try {
        write();
    } catch (const std::exception& e) {
        if (!db.isUsable())
            throw;
        db.executeScript("ROLLBACK TO SAVEPOINT queued_rows");
        spdlog::error("{}: {}", what, e.what());
        return false;
    }
    db.executeScript("RELEASE SAVEPOINT queued_rows");
    return true;
}

// Writes `count` rows through the chunk statements `sql` (one per kChunkRows size): `bindShared(query)`
// binds the parameters every row shares (1..shared), `bindRow(query, first, row)` row number `row`
// from parameter `first`. With `skipFailedRows` (queued rows), a chunk that fails is written again
// row by row, so a bad row loses only itself (logged), unless the failure ended the transaction;
// otherwise the first failure is thrown.
template <SqlConnection Db, class BindShared, class BindRow>
void insertChunked(Db& db, std::size_t count, const std::array<std::string, 3>& sql, int shared, int perRow,
                   bool skipFailedRows, const BindShared& bindShared, const BindRow& bindRow) {
    // A failure that is thrown anyway may surface with the transaction's next statement: the write is
    // held back for that round trip (runLater). One that is skipped must surface here.
    auto write = [&](std::size_t statement, std::size_t from, std::size_t rows) {
        auto q = db.prepare(sql[statement]);
        bindShared(q);
        for (std::size_t i = 0; i < rows; ++i)
            bindRow(q, shared + 1 + static_cast<int>(i) * perRow, from + i);
        if (skipFailedRows)
            q.run();
        else
            q.runLater();
    };
    auto writeRow = [&](std::size_t row) {
        writeOrSkip(
            db, [&] { write(kChunkRows.size() - 1, row, 1); },
            "a queued audit entry or status could not be written");
    };
    std::size_t next = 0;
    for (std::size_t statement = 0; statement < kChunkRows.size(); ++statement) {
        const std::size_t rows = kChunkRows[statement];
        for (; count - next >= rows; next += rows) {
            if (!skipFailedRows) {
                write(statement, next, rows);
            } else if (rows == 1) {
                writeRow(next);
            } else if (!writeOrSkip(
                           db, [&] { write(statement, next, rows); },
                           "queued rows could not be written together; writing them one by one")) {
                for (std::size_t row = next; row < next + rows; ++row)
                    writeRow(row);
            }
        }
    }
}

// The statements for chunks of every kChunkRows size.
template <class RowText>
std::array<std::string, 3> chunkStatements(std::string_view head, int shared, int perRow, const RowText& row,
                                           std::string_view tail) {
    std::array<std::string, 3> sql;
    for (std::size_t s = 0; s < kChunkRows.size(); ++s)
        sql[s] = chunkSql(head, kChunkRows[s], shared, perRow, row, tail);
    return sql;
}

} // namespace jobdeck::chunked_insert
