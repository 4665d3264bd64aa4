#pragma once

#include "service/stores/SqliteDatabase.h"
#include "service/stores/UnitOfWork.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

// The connections of one SQLite database: one writer (synchronous=FULL) and a pool of read-only
// connections, so reads run in parallel with each other and with a write being committed (WAL). A
// thread inside a transaction of the writer reads through the writer, so it sees its own uncommitted
// changes; a thread inside a snapshot() reads through that snapshot's connection. Thread-safe.
class SqliteConnections final : public UnitOfWork {
public:
    // A connection lent to one thread for a few queries: pooled, the snapshot's, or the writer.
    class Reader final {
    public:
        Reader(SqliteConnections& connections, SqliteDatabase* db, bool pooled)
            : m_connections(connections)
            , m_db(db)
            , m_pooled(pooled) {}
        Reader(const Reader&) = delete;
        Reader& operator=(const Reader&) = delete;
        ~Reader();
        SqliteDatabase* operator->() const { return m_db; }
        SqliteDatabase& operator*() const { return *m_db; }

    private:
        SqliteConnections& m_connections;
        SqliteDatabase* m_db;
        bool m_pooled;
    };

    // Opens the writer on the file at `path` (creating it); throws DatabaseError.
    explicit SqliteConnections(const std::string& path);
    ~SqliteConnections() override;
    SqliteConnections(const SqliteConnections&) = delete;
    SqliteConnections& operator=(const SqliteConnections&) = delete;

    SqliteDatabase& writer() { return *m_writer; }
    // A connection for this thread's next reads (the writer inside a transaction, the snapshot's
    // inside a snapshot()).
    Reader reader();
    // The same, but outside any snapshot: for reads that must see what was committed just now.
    Reader freshReader();

    std::unique_ptr<ReadSnapshot> snapshot() override;
    bool inStepOnThisThread() const override { return m_writer->inTransactionOnThisThread(); }
    void onStepEnd(std::function<void(bool committed)> action) override {
        m_writer->onTransactionEnd(std::move(action));
    }

    // Why the database does not answer, or nullopt when it does: its file is gone or was replaced
    // under the open connections (whose writes would then go to a file nobody sees), or a query on it
    // fails.
    std::optional<std::string> unavailableReason();
    // Remembers the file the connections have open, for unavailableReason(); after the schema exists.
    void rememberFileIdentity();

protected:
    void runAtomically(const std::function<void()>& work) override;

private:
    class Snapshot;
    SqliteDatabase* leaseReader();
    void returnReader(SqliteDatabase* reader);

    std::unique_ptr<SqliteDatabase> m_writer;
    std::pair<std::uint64_t, std::uint64_t> m_fileIdentity{}; // device and inode of the file at open
    std::mutex m_readersMutex;
    std::condition_variable m_readerReturned;
    std::vector<std::unique_ptr<SqliteDatabase>> m_readers;
    std::vector<SqliteDatabase*> m_idleReaders;
};

} // namespace jobdeck
