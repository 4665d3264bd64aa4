#include "service/stores/SqliteConnections.h"

#include "core/wire/DatabaseFaults.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace jobdeck {

namespace {

// Read-only connections; more than the worker threads, so a reader is rarely waited for.
constexpr std::size_t readerLimit = 16;

// The snapshot of this thread, if any.
thread_local const SqliteConnections* t_snapshotOwner = nullptr;
thread_local SqliteDatabase* t_snapshotReader = nullptr;

} // namespace

// One read transaction on one read-only connection: one snapshot, and the connection's locks taken
// once rather than per query.
class SqliteConnections::Snapshot final : public ReadSnapshot {
public:
    Snapshot(SqliteConnections& connections, SqliteDatabase* reader)
        : m_connections(connections)
        , m_reader(reader) {
        t_snapshotOwner = &connections;
        t_snapshotReader = reader;
    }
    ~Snapshot() override {
        t_snapshotOwner = nullptr;
        t_snapshotReader = nullptr;
        try {
            m_reader->execute("COMMIT");
        } catch (const std::exception&) {
            // A read transaction has nothing to lose; the connection is reset by its next BEGIN anyway.
        }
        m_connections.returnReader(m_reader);
    }
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;

private:
    SqliteConnections& m_connections;
    SqliteDatabase* m_reader;
};

SqliteConnections::Reader::~Reader() {
    if (m_pooled)
        m_connections.returnReader(m_db);
}

SqliteConnections::SqliteConnections(const std::string& path)
    : m_writer(SqliteDatabase::open(path)) {}

SqliteConnections::~SqliteConnections() = default;

void SqliteConnections::rememberFileIdentity() {
    struct stat file {};
    if (::stat(m_writer->fileName().c_str(), &file) == 0)
        m_fileIdentity = {file.st_dev, file.st_ino};
}

SqliteConnections::Reader SqliteConnections::reader() {
    if (m_writer->inTransactionOnThisThread())
        return Reader(*this, m_writer.get(), false);
    if (t_snapshotOwner == this)
        return Reader(*this, t_snapshotReader, false);
    return Reader(*this, leaseReader(), true);
}

SqliteConnections::Reader SqliteConnections::freshReader() {
    if (m_writer->inTransactionOnThisThread())
        return Reader(*this, m_writer.get(), false);
    return Reader(*this, leaseReader(), true);
}

SqliteDatabase* SqliteConnections::leaseReader() {
    std::unique_lock lock(m_readersMutex);
    if (m_idleReaders.empty() && m_readers.size() < readerLimit) {
        m_readers.push_back(SqliteDatabase::open(m_writer->path(), SqliteDatabase::Mode::ReadOnly));
        return m_readers.back().get();
    }
    m_readerReturned.wait(lock, [this] { return !m_idleReaders.empty(); });
    SqliteDatabase* db = m_idleReaders.back();
    m_idleReaders.pop_back();
    return db;
}

void SqliteConnections::returnReader(SqliteDatabase* reader) {
    {
        const std::lock_guard lock(m_readersMutex);
        m_idleReaders.push_back(reader);
    }
    m_readerReturned.notify_one();
}

std::unique_ptr<ReadSnapshot> SqliteConnections::snapshot() {
    if (m_writer->inTransactionOnThisThread() || t_snapshotOwner)
        return nullptr;
    SqliteDatabase* reader = leaseReader();
    try {
        reader->execute("BEGIN");
    } catch (...) {
        returnReader(reader);
        throw;
    }
    return std::make_unique<Snapshot>(*this, reader);
}

void SqliteConnections::runAtomically(const std::function<void()>& work) {
    m_writer->transaction(work);
}

std::optional<std::string> SqliteConnections::unavailableReason() {
    const std::string file = m_writer->fileName();
    struct stat now {};
    if (::stat(file.c_str(), &now) != 0)
        return databaseFileMissingReason(file, std::strerror(errno));
    if (std::pair<std::uint64_t, std::uint64_t>{now.st_dev, now.st_ino} != m_fileIdentity)
        return databaseFileReplacedReason(file);
    try {
        auto r = freshReader();
        auto q = r->query("SELECT COUNT(*) FROM sqlite_master");
        q.step();
    } catch (const std::exception& e) {
        return databaseNoAnswerReason(e.what());
    }
    return std::nullopt;
}

} // namespace jobdeck
