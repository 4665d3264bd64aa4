#include "service/Storage.h"

#include "core/Timestamp.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace jobdeck {

namespace {

// Each entry upgrades the schema by one version; never edit an entry once released, append one.
const char* const migrations[] = {
    // 1: everything jobdeckd 0.1 stores.
    R"sql(
CREATE TABLE projects (
    uid TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    hudi_configs_enabled INTEGER NOT NULL DEFAULT 0,
    concurrent_runs_enabled INTEGER NOT NULL DEFAULT 0,
    max_concurrent_runs_limit INTEGER NOT NULL DEFAULT 1,
    events_pruned_through INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE TABLE project_allowlist (
    project_uid TEXT NOT NULL REFERENCES projects(uid) ON DELETE CASCADE,
    entry TEXT NOT NULL,
    added_at TEXT NOT NULL,
    PRIMARY KEY (project_uid, entry)
);
CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    project_uid TEXT NOT NULL REFERENCES projects(uid) ON DELETE CASCADE,
    key TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
    salt BLOB NOT NULL,
    secret_hash BLOB NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE TABLE clusters (
    id INTEGER PRIMARY KEY,
    cluster_id TEXT NOT NULL UNIQUE,
    project_uid TEXT NOT NULL REFERENCES projects(uid) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    max_ocu INTEGER NOT NULL,
    min_ocu INTEGER NOT NULL,
    with_pairs TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_uid, name)
);
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    job_id TEXT NOT NULL UNIQUE,
    project_uid TEXT NOT NULL REFERENCES projects(uid) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('JAR', 'PYTHON')),
    parameters TEXT NOT NULL,
    cluster TEXT NOT NULL,
    max_concurrent_runs INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_uid, name),
    FOREIGN KEY (project_uid, cluster) REFERENCES clusters(project_uid, name)
);
CREATE INDEX jobs_by_cluster ON jobs(project_uid, cluster);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL UNIQUE,
    project_uid TEXT NOT NULL REFERENCES projects(uid) ON DELETE CASCADE,
    job_id TEXT NOT NULL REFERENCES jobs(job_id) ON DELETE CASCADE,
    job_name TEXT NOT NULL,
    cluster TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING',
        'SPARK_JOB_RUN_STATUS_COMPLETED', 'SPARK_JOB_RUN_STATUS_FAILED', 'SPARK_JOB_RUN_STATUS_CANCELED')),
    queue_reason TEXT,
    idempotency_key TEXT,
    argument_overrides TEXT NOT NULL DEFAULT '[]',
    arguments TEXT NOT NULL DEFAULT '[]',
    queued_at TEXT NOT NULL,
    started_at TEXT,
    ended_at TEXT,
    exit_code INTEGER,
    message TEXT,
    driver_pid INTEGER,
    monitor_pid INTEGER,
    driver_start_ticks INTEGER,
    run_dir TEXT,
    log_path TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    launch_spec TEXT
);
CREATE INDEX runs_by_job ON runs(project_uid, job_id, status);
CREATE INDEX runs_by_status ON runs(status);
CREATE INDEX runs_by_idempotency_key ON runs(project_uid, job_id, idempotency_key);
CREATE TABLE requests (
    request_id TEXT PRIMARY KEY,
    project_uid TEXT NOT NULL REFERENCES projects(uid) ON DELETE CASCADE,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    project_uid TEXT NOT NULL,
    key_id TEXT NOT NULL,
    role TEXT NOT NULL,
    statement TEXT NOT NULL,
    outcome TEXT NOT NULL,
    error_message TEXT,
    request_id TEXT NOT NULL,
    headers TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_by_project ON audit(project_uid, seq);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project_uid TEXT NOT NULL,
    type TEXT NOT NULL,
    job_name TEXT NOT NULL,
    job_run_id TEXT,
    status TEXT,
    at TEXT NOT NULL
);
CREATE INDEX events_by_project ON events(project_uid, seq);
)sql",
    // 2: a counter that moves whenever a key changes, for the cache of verified keys.
    R"sql(
CREATE TABLE key_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL
);
INSERT INTO key_changes(id, generation) VALUES (1, 0);
CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys
BEGIN
    UPDATE key_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
BEGIN
    UPDATE key_changes SET generation = generation + 1 WHERE id = 1;
END;
)sql",
    // 3: writes other than RUN JOB sent with an Idempotency-Key, so a repeat is answered with the first
    // request's status (HttpStatementRoutes, RepeatedWrites).
    R"sql(
CREATE TABLE write_keys (
    project_uid TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    statement_hash TEXT NOT NULL,
    request_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_uid, idempotency_key)
);
CREATE INDEX write_keys_by_age ON write_keys(created_at);
)sql",
};

constexpr int knownVersion = static_cast<int>(std::size(migrations));

constexpr std::size_t saltBytes = 16;
// Read-only connections; more than the worker threads, so a reader is rarely waited for.
constexpr std::size_t readerLimit = 16;
// Connections that watch for commits (changeStamp); about one per IO thread.
constexpr std::size_t watchLimit = 4;
// Verified keys kept; beyond it the cache starts over.
constexpr std::size_t keyCacheLimit = 10'000;
// Deferred writes are committed this often, or as soon as this many wait.
constexpr std::chrono::milliseconds deferredInterval{50};
constexpr std::size_t deferredBatch = 512;
constexpr std::size_t keyBytes = 16;
constexpr std::size_t secretBytes = 32;

void randomBytes(unsigned char* out, std::size_t size) {
    if (RAND_bytes(out, static_cast<int>(size)) != 1)
        throw DatabaseError("The system's random number generator is not available");
}

std::string toHex(const unsigned char* data, std::size_t size) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        hex += digits[data[i] >> 4];
        hex += digits[data[i] & 0xf];
    }
    return hex;
}

std::array<unsigned char, SHA256_DIGEST_LENGTH> hashSecret(std::string_view salt, std::string_view secret) {
    // Every request hashes its secret: the algorithm is fetched once (EVP_sha256() would look it up
    // on every init) and each thread reuses its context.
    static const std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> sha256(
        EVP_MD_fetch(nullptr, "SHA256", nullptr), &EVP_MD_free);
    thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                                   &EVP_MD_CTX_free);
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    unsigned int size = 0;
    if (!sha256 || !ctx || EVP_DigestInit_ex(ctx.get(), sha256.get(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx.get(), salt.data(), salt.size()) != 1 ||
        EVP_DigestUpdate(ctx.get(), secret.data(), secret.size()) != 1 ||
        EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1)
        throw DatabaseError("Cannot hash the API secret (OpenSSL SHA-256 failed)");
    return digest;
}

std::string now() {
    return formatTimestamp(timestampNow());
}

TimePoint readTime(const SqliteDatabase::Query& q, int column) {
    return parseTimestamp(q.text(column)).value_or(TimePoint{});
}

const ProjectSettings defaultSettings{};

} // namespace

// A read-only connection lent to one thread for a few queries (or the writer, inside a transaction).
class Storage::Reader final {
public:
    Reader(Storage& storage, SqliteDatabase* db, bool pooled)
        : m_storage(storage)
        , m_db(db)
        , m_pooled(pooled) {}
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    ~Reader() {
        if (m_pooled)
            m_storage.returnReader(m_db);
    }
    SqliteDatabase* operator->() const { return m_db; }

private:
    Storage& m_storage;
    SqliteDatabase* m_db;
    bool m_pooled;
};

namespace {
// The ReadScope of this thread, if any.
thread_local const Storage* t_scopeStorage = nullptr;
thread_local SqliteDatabase* t_scopeReader = nullptr;
} // namespace

Storage::Reader Storage::reader() {
    if (m_db->inTransactionOnThisThread())
        return Reader(*this, m_db.get(), false);
    if (t_scopeStorage == this)
        return Reader(*this, t_scopeReader, false);
    return Reader(*this, leaseReader(), true);
}

Storage::Reader Storage::freshReader() {
    if (m_db->inTransactionOnThisThread())
        return Reader(*this, m_db.get(), false);
    return Reader(*this, leaseReader(), true);
}

SqliteDatabase* Storage::leaseReader() {
    std::unique_lock lock(m_readersMutex);
    if (m_idleReaders.empty() && m_readers.size() < readerLimit) {
        m_readers.push_back(SqliteDatabase::open(m_db->path(), SqliteDatabase::Mode::ReadOnly));
        return m_readers.back().get();
    }
    m_readerReturned.wait(lock, [this] { return !m_idleReaders.empty(); });
    SqliteDatabase* db = m_idleReaders.back();
    m_idleReaders.pop_back();
    return db;
}

void Storage::returnReader(SqliteDatabase* reader) {
    {
        const std::lock_guard lock(m_readersMutex);
        m_idleReaders.push_back(reader);
    }
    m_readerReturned.notify_one();
}

Storage::ReadScope::ReadScope(Storage& storage)
    : m_storage(storage) {
    if (storage.m_db->inTransactionOnThisThread() || t_scopeStorage)
        return;
    m_reader = storage.leaseReader();
    try {
        m_reader->execute("BEGIN");
    } catch (...) {
        storage.returnReader(m_reader);
        throw;
    }
    t_scopeStorage = &storage;
    t_scopeReader = m_reader;
}

Storage::ReadScope::~ReadScope() {
    if (!m_reader)
        return;
    t_scopeStorage = nullptr;
    t_scopeReader = nullptr;
    try {
        m_reader->execute("COMMIT");
    } catch (const std::exception&) {
        // A read transaction has nothing to lose; the connection is reset by its next BEGIN anyway.
    }
    m_storage.returnReader(m_reader);
}

std::unique_ptr<Storage> Storage::open(const std::string& databaseUrl) {
    std::string path = databaseUrl;
    if (databaseUrl.starts_with("postgresql://") || databaseUrl.starts_with("postgres://"))
        throw DatabaseError(
            "PostgreSQL databases are not supported in this build; use --database sqlite:<path>");
    if (databaseUrl.starts_with("sqlite:"))
        path = databaseUrl.substr(std::strlen("sqlite:"));
    else if (databaseUrl.find("://") != std::string::npos)
        throw DatabaseError("Unsupported database URL (expected sqlite:<path> or a file path)");
    if (path.empty())
        throw DatabaseError("The database URL names no file (expected sqlite:<path>)");
    std::unique_ptr<Storage> storage(new Storage(SqliteDatabase::open(path)));
    storage->migrate();
    struct stat file {};
    if (::stat(storage->m_db->fileName().c_str(), &file) == 0)
        storage->m_fileIdentity = {file.st_dev, file.st_ino};
    return storage;
}

int Storage::schemaVersion() {
    return knownVersion;
}

Storage::Storage(std::unique_ptr<SqliteDatabase> db)
    : m_db(std::move(db))
    , m_deferred(std::make_unique<DeferredWrites>(
          *m_db,
          [this](const DeferredWrites::Batch& rows) {
              insertAudit(rows.audit, RowErrors::Skip);
              insertStatuses(rows.statuses, RowErrors::Skip);
          },
          deferredInterval, deferredBatch)) {}

Storage::~Storage() {
    m_deferred.reset(); // commits what is queued while the writer is still open
}

void Storage::flushDeferred() {
    m_deferred->flush();
}

// A connection that only ever reads data_version, and the value it last saw.
struct Storage::Watch {
    std::mutex mutex;
    std::unique_ptr<SqliteDatabase> db;
    std::int64_t version = -1;
};

std::uint64_t Storage::changeStamp() {
    // Any idle watch will do: each moves the stamp when it sees a commit it had not seen, and the
    // first look of every watch after a commit comes after it, so a stamp read after a commit always
    // differs from one read before it. Several watches let the IO threads look at once.
    std::unique_lock<std::mutex> lock;
    Watch* watch = nullptr;
    {
        const std::lock_guard watches(m_watchesMutex);
        for (const auto& candidate : m_watches) {
            lock = std::unique_lock(candidate->mutex, std::try_to_lock);
            if (lock.owns_lock()) {
                watch = candidate.get();
                break;
            }
        }
        if (!watch && m_watches.size() < watchLimit) {
            auto fresh = std::make_unique<Watch>();
            fresh->db = SqliteDatabase::open(m_db->path(), SqliteDatabase::Mode::ReadOnly);
            watch = fresh.get();
            m_watches.push_back(std::move(fresh));
        } else if (!watch) {
            watch = m_watches[m_stampLooks++ % m_watches.size()].get();
        }
    }
    if (!lock.owns_lock())
        lock = std::unique_lock(watch->mutex);
    auto q = watch->db->query("PRAGMA data_version");
    if (!q.step())
        throw DatabaseError("PRAGMA data_version returned nothing");
    if (const std::int64_t version = q.int64(0); version != watch->version) {
        watch->version = version;
        return m_stamp.fetch_add(1) + 1;
    }
    return m_stamp.load();
}

void Storage::migrate() {
    m_db->transaction([&] {
        // Read the version before creating anything, so a newer database is never altered.
        int version = 0;
        {
            auto q = m_db->query(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'");
            q.step();
            if (q.int64(0) > 0) {
                auto v = m_db->query("SELECT max(version) FROM schema_version");
                if (v.step() && !v.isNull(0))
                    version = v.integer(0);
            }
        }
        if (version > knownVersion)
            throw DatabaseError("The database " + m_db->path() + " has schema version " +
                                std::to_string(version) + ", newer than this jobdeckd understands (" +
                                std::to_string(knownVersion) +
                                "); use a newer jobdeckd. The database was not changed.");
        if (version == knownVersion)
            return;
        if (version == 0)
            m_db->executeScript("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
        for (int next = version + 1; next <= knownVersion; ++next)
            m_db->executeScript(migrations[next - 1]);
        m_db->execute("DELETE FROM schema_version");
        m_db->execute("INSERT INTO schema_version(version) VALUES (?)", knownVersion);
    });
}

std::string Storage::randomHex(std::size_t bytes) {
    std::vector<unsigned char> buffer(bytes);
    randomBytes(buffer.data(), buffer.size());
    return toHex(buffer.data(), buffer.size());
}

namespace {

// 16 random bytes. Ids are drawn per request: from the generator a few kilobytes at a time, since each
// call into it costs far more than the bytes. The buffer is per thread and its bytes are used once.
std::array<unsigned char, 16> randomBlock() {
    thread_local std::array<unsigned char, 4096> pool{};
    thread_local std::size_t used = pool.size();
    std::array<unsigned char, 16> b{};
    if (used + b.size() > pool.size()) {
        randomBytes(pool.data(), pool.size());
        used = 0;
    }
    std::copy_n(pool.begin() + static_cast<std::ptrdiff_t>(used), b.size(), b.begin());
    OPENSSL_cleanse(pool.data() + used, b.size());
    used += b.size();
    return b;
}

// The RFC 9562 text form, with the version nibble and the variant bits set.
std::string uuidText(std::array<unsigned char, 16> b, unsigned version) {
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | (version << 4));
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
    const std::string hex = toHex(b.data(), b.size());
    std::string text;
    text.reserve(hex.size() + 4);
    for (std::size_t i = 0; i < hex.size(); ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20)
            text += '-';
        text += hex[i];
    }
    return text;
}

} // namespace

std::string Storage::randomUuid() {
    return uuidText(randomBlock(), 4);
}

std::string Storage::timeOrderedUuid() {
    auto b = randomBlock();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    for (int i = 0; i < 6; ++i)
        b[static_cast<std::size_t>(i)] =
            static_cast<unsigned char>(static_cast<std::uint64_t>(millis) >> (40 - 8 * i));
    return uuidText(b, 7);
}

// --- API keys -------------------------------------------------------------------------------------

std::optional<Principal> Storage::authenticate(std::string_view projectUid, std::string_view apiKey,
                                               std::string_view apiSecret, std::uint64_t* changeStampRead) {
    // key_changes is read again only when something was committed since it was last read.
    const std::uint64_t stamp = changeStamp();
    if (changeStampRead)
        *changeStampRead = stamp;
    std::int64_t generation = 0;
    bool current = false;
    {
        const std::lock_guard lock(m_keysMutex);
        current = stamp == m_keysStamp && m_keysGeneration >= 0;
        generation = m_keysGeneration;
    }
    if (!current) {
        auto r = reader();
        auto q = r->query("SELECT generation FROM key_changes WHERE id = 1");
        if (q.step())
            generation = q.int64(0);
    }
    // Built in a buffer of the thread's: a cached key costs no allocation to look up.
    thread_local std::string cacheKey;
    cacheKey.assign(projectUid);
    cacheKey += '\n';
    cacheKey += apiKey;
    std::shared_ptr<const CachedKey> cached;
    {
        const std::lock_guard lock(m_keysMutex);
        if (generation != m_keysGeneration) {
            m_keys.clear();
            m_keysGeneration = generation;
        }
        if (!current)
            m_keysStamp = stamp;
        if (const auto it = m_keys.find(cacheKey); it != m_keys.end())
            cached = it->second;
    }
    if (cached) {
        const auto digest = hashSecret(cached->salt, apiSecret);
        ++m_secretComparisons;
        if (CRYPTO_memcmp(digest.data(), cached->secretHash.data(), digest.size()) == 0)
            return cached->principal;
        // The lookup an unknown key costs, so that a wrong secret does not answer sooner and tell
        // that the key exists.
        lookUpKey(projectUid, apiKey);
        return std::nullopt;
    }

    const KeyRow row = lookUpKey(projectUid, apiKey);
    const auto digest = hashSecret(row.salt, apiSecret);
    ++m_secretComparisons;
    const bool matches = CRYPTO_memcmp(digest.data(), row.secretHash.data(), digest.size()) == 0;
    if (!row.usable || !matches)
        return std::nullopt;
    const std::string& salt = row.salt;
    const std::string& storedHash = row.secretHash;
    const Principal& principal = row.principal;
    {
        // Only under the generation read before the lookup: a key revoked since is never cached.
        const std::lock_guard lock(m_keysMutex);
        if (m_keysGeneration == generation) {
            if (m_keys.size() >= keyCacheLimit)
                m_keys.clear();
            m_keys[cacheKey] = std::make_shared<const CachedKey>(CachedKey{salt, storedHash, principal});
        }
    }
    return principal;
}

Storage::KeyRow Storage::lookUpKey(std::string_view projectUid, std::string_view apiKey) {
    // A fixed stand-in so that an unknown key costs the same hash and comparison as a known one.
    static const std::string dummySalt(saltBytes, '\0');
    static const std::string dummyHash(SHA256_DIGEST_LENGTH, '\0');
    ++m_keyLookups;
    KeyRow row{dummySalt, dummyHash, false, {}};
    auto r = reader();
    auto q = r->query("SELECT k.role, k.salt, k.secret_hash, k.revoked, p.name, k.key FROM api_keys k "
                      "JOIN projects p ON p.uid = k.project_uid WHERE k.key = ? AND k.project_uid = ?",
                      apiKey, projectUid);
    if (!q.step())
        return row;
    const auto role = roleFromName(q.text(0));
    row.salt = q.blob(1);
    row.secretHash = q.blob(2);
    const bool wellFormed = role.has_value() && row.secretHash.size() == SHA256_DIGEST_LENGTH;
    if (!wellFormed)
        row.secretHash = dummyHash;
    row.usable = wellFormed && q.int64(3) == 0;
    row.principal = Principal{std::string(projectUid), q.text(4), q.text(5), role.value_or(Role::Viewer)};
    return row;
}

CreatedKey Storage::createKey(const std::string& projectName, Role role) {
    if (projectName.empty())
        throw DatabaseError("The project name must not be empty");
    CreatedKey created;
    created.projectName = projectName;
    created.role = role;
    created.apiKey = randomHex(keyBytes);
    created.apiSecret = randomHex(secretBytes);
    std::array<unsigned char, saltBytes> salt{};
    randomBytes(salt.data(), salt.size());
    const std::string saltText(reinterpret_cast<const char*>(salt.data()), salt.size());
    const auto digest = hashSecret(saltText, created.apiSecret);

    m_db->transaction([&] {
        if (auto uid = findProjectUidByName(projectName)) {
            created.projectUid = *uid;
        } else {
            created.projectUid = randomUuid();
            m_db->execute("INSERT INTO projects(uid, name, created_at) VALUES (?, ?, ?)", created.projectUid,
                          projectName, now());
        }
        m_db->prepare("INSERT INTO api_keys(project_uid, key, role, salt, secret_hash, created_at) "
                      "VALUES (?, ?, ?, ?, ?, ?)")
            .bind(1, created.projectUid)
            .bind(2, created.apiKey)
            .bind(3, roleName(role))
            .bindBlob(4, salt.data(), salt.size())
            .bindBlob(5, digest.data(), digest.size())
            .bind(6, now())
            .run();
    });
    return created;
}

bool Storage::revokeKey(const std::string& apiKey) {
    return m_db->execute("UPDATE api_keys SET revoked = 1 WHERE key = ?", apiKey) > 0;
}

// --- Request statuses -----------------------------------------------------------------------------

void Storage::saveRequestStatus(const std::string& projectUid, const std::string& requestId,
                                const StatusJson& status) {
    insertStatuses({{projectUid, requestId, status, {}}}, RowErrors::Throw);
}

void Storage::deferRequestStatus(std::string projectUid, std::string requestId, StatusJson status,
                                 std::function<void(bool committed)> committed) {
    m_deferred->addStatus(
        {std::move(projectUid), std::move(requestId), std::move(status), std::move(committed)});
}

void Storage::savePendingRequest(const std::string& projectUid, const std::string& requestId) {
    insertStatuses({{projectUid, requestId, std::nullopt, {}}}, RowErrors::Throw);
}

void Storage::deferPendingRequest(const std::string& projectUid, const std::string& requestId,
                                  std::function<void(bool committed)> committed) {
    m_deferred->addStatus({projectUid, requestId, std::nullopt, std::move(committed)});
}

int Storage::failUnfinishedRequests(const std::string& message) {
    return m_db->execute("UPDATE requests SET status = ?, updated_at = ? "
                         "WHERE json_extract(status, '$.apiStatus') = ?",
                         nlohmann::json(ApiStatus::failed(message)).dump(), now(),
                         apiOperationStatusName(ApiOperationStatus::Pending));
}

std::optional<ApiStatus> Storage::findRequestStatus(const std::string& projectUid,
                                                    const std::string& requestId) {
    m_deferred->flush();
    return findCommittedRequestStatus(projectUid, requestId);
}

std::optional<ApiStatus> Storage::findCommittedRequestStatus(const std::string& projectUid,
                                                             const std::string& requestId,
                                                             TimePoint* writtenAt) {
    const std::string notBefore = formatTimestamp(timestampNow() - m_statusRetention.load());
    auto r = freshReader();
    auto q = r->query("SELECT status, updated_at FROM requests WHERE request_id = ? AND project_uid = ? AND "
                      "updated_at >= ?",
                      requestId, projectUid, notBefore);
    if (!q.step())
        return std::nullopt;
    if (writtenAt)
        *writtenAt = readTime(q, 1);
    return nlohmann::json::parse(q.text(0)).get<ApiStatus>();
}

// --- Keyed writes -----------------------------------------------------------------------------------

void Storage::saveWriteKey(const std::string& projectUid, const WriteKey& key, TimePoint expiredBefore) {
    m_db->execute("DELETE FROM write_keys WHERE created_at < ?", formatTimestamp(expiredBefore));
    m_db->execute(
        "INSERT OR REPLACE INTO write_keys(project_uid, idempotency_key, statement_hash, request_id, "
        "created_at) VALUES (?, ?, ?, ?, ?)",
        projectUid, key.idempotencyKey, key.statementHash, key.requestId, formatTimestamp(key.at));
}

std::optional<Storage::WriteKey>
Storage::findWriteKey(const std::string& projectUid, const std::string& idempotencyKey, TimePoint notBefore) {
    auto r = freshReader();
    auto q = r->query("SELECT statement_hash, request_id, created_at FROM write_keys "
                      "WHERE project_uid = ? AND idempotency_key = ? AND created_at >= ?",
                      projectUid, idempotencyKey, formatTimestamp(notBefore));
    if (!q.step())
        return std::nullopt;
    return WriteKey{idempotencyKey, q.text(0), q.text(1), parseTimestamp(q.text(2)).value_or(notBefore)};
}

void Storage::setStatusRetention(std::chrono::seconds retention) {
    m_statusRetention = retention;
}

namespace {

// Rows looked at per sweep step: one short transaction each, so a request waits for the writer a
// millisecond or so at most.
constexpr int kSweepBatch = 500;

} // namespace

Storage::SweepStep Storage::sweepBatch(const SweepTable& table, TimePoint cutoff, std::int64_t after) {
    const std::string before = formatTimestamp(cutoff);
    SweepStep step;
    m_db->transaction([&] {
        std::int64_t rows = 0;
        {
            auto q =
                m_db->query("SELECT count(*), max(k) FROM (SELECT " + table.key + " AS k FROM " + table.name +
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
            auto q = m_db->query("SELECT " + table.madeAt + " >= ? FROM " + table.name + " WHERE " +
                                     table.key + " = ?",
                                 before, step.last);
            step.done = rows < kSweepBatch || (q.step() && q.int64(0) != 0);
        }
        step.deleted =
            m_db->execute("DELETE FROM " + table.name + " WHERE " + table.key + " > ? AND " + table.key +
                              " <= ? AND " + table.expiresBy + " < ?" + table.alsoRequired,
                          after, step.last, before);
    });
    return step;
}

const Storage::SweepTable& Storage::statusTable() {
    // A PENDING row belongs to a request that is still running (or to a process that died: the next
    // start makes it FAILED, and so new).
    static const SweepTable table{
        "requests", "rowid", "created_at", "updated_at",
        " AND json_extract(status, '$.apiStatus') <> 'API_OPERATION_STATUS_PENDING'"};
    return table;
}

const Storage::SweepTable& Storage::auditTable() {
    static const SweepTable table{"audit", "seq", "at", "at", ""};
    return table;
}

// --- Projects -------------------------------------------------------------------------------------

std::optional<Project> Storage::findProject(const std::string& projectUid) {
    std::string name;
    {
        auto r = reader();
        auto q = r->query("SELECT name FROM projects WHERE uid = ?", projectUid);
        if (!q.step())
            return std::nullopt;
        name = q.text(0);
    }
    return Project{projectUid, name, projectSettings(projectUid), std::nullopt, {}};
}

std::optional<std::string> Storage::findProjectUidByName(const std::string& projectName) {
    auto r = reader();
    auto q = r->query("SELECT uid FROM projects WHERE name = ?", projectName);
    if (!q.step())
        return std::nullopt;
    return q.text(0);
}

ProjectSettings Storage::projectSettings(const std::string& projectUid) {
    // One statement, so the settings and the allow-list come from the same snapshot.
    auto r = reader();
    auto q = r->query("SELECT hudi_configs_enabled, concurrent_runs_enabled, max_concurrent_runs_limit, "
                      "(SELECT json_group_array(entry) FROM (SELECT entry FROM project_allowlist "
                      "WHERE project_uid = p.uid ORDER BY entry)) FROM projects p WHERE uid = ?",
                      projectUid);
    if (!q.step())
        return defaultSettings;
    ProjectSettings settings;
    settings.hudiConfigsEnabled = q.int64(0) != 0;
    settings.concurrentRunsEnabled = q.int64(1) != 0;
    settings.maxConcurrentRunsLimit = q.integer(2);
    settings.hudiConfigAllowlist = nlohmann::json::parse(q.text(3)).get<std::vector<std::string>>();
    return settings;
}

void Storage::saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) {
    m_db->transaction([&] {
        m_db->execute("UPDATE projects SET hudi_configs_enabled = ?, concurrent_runs_enabled = ?, "
                      "max_concurrent_runs_limit = ? WHERE uid = ?",
                      settings.hudiConfigsEnabled, settings.concurrentRunsEnabled,
                      settings.maxConcurrentRunsLimit, projectUid);
        // Keep added_at of entries that stay.
        std::vector<std::string> existing;
        {
            auto q = m_db->query("SELECT entry FROM project_allowlist WHERE project_uid = ?", projectUid);
            while (q.step())
                existing.push_back(q.text(0));
        }
        for (const auto& entry : existing)
            if (std::find(settings.hudiConfigAllowlist.begin(), settings.hudiConfigAllowlist.end(), entry) ==
                settings.hudiConfigAllowlist.end())
                m_db->execute("DELETE FROM project_allowlist WHERE project_uid = ? AND entry = ?", projectUid,
                              entry);
        const std::string at = now();
        for (const auto& entry : settings.hudiConfigAllowlist)
            m_db->execute(
                "INSERT OR IGNORE INTO project_allowlist(project_uid, entry, added_at) VALUES (?, ?, ?)",
                projectUid, entry, at);
    });
}

// --- Jobs -----------------------------------------------------------------------------------------

namespace {

#define JOBDECK_ACTIVE_RUNS_COLUMN                                                                           \
    "(SELECT count(*) FROM runs r WHERE r.job_id = j.job_id AND r.status IN "                                \
    "('SPARK_JOB_RUN_STATUS_QUEUED', "                                                                       \
    "'SPARK_JOB_RUN_STATUS_RUNNING'))"
constexpr const char* jobColumns =
    "j.job_id, j.name, j.type, j.cluster, j.parameters, j.max_concurrent_runs, j.created_at, "
    "j.updated_at, " JOBDECK_ACTIVE_RUNS_COLUMN;
constexpr const char* jobSummaryColumns =
    "j.name, j.type, j.cluster, j.max_concurrent_runs, j.updated_at, " JOBDECK_ACTIVE_RUNS_COLUMN;

SparkJob readJob(const SqliteDatabase::Query& q) {
    SparkJob job;
    job.jobId = q.text(0);
    job.name = q.text(1);
    job.type = jobTypeFromName(q.text(2)).value_or(JobType::Jar);
    job.cluster = q.text(3);
    job.parameters = nlohmann::json::parse(q.text(4)).get<std::vector<std::string>>();
    job.maxConcurrentRuns = q.integer(5);
    job.createdAt = readTime(q, 6);
    job.updatedAt = readTime(q, 7);
    job.activeRuns = q.integer(8);
    return job;
}

} // namespace

std::optional<SparkJob> Storage::findJob(const std::string& projectUid, const std::string& name) {
    auto r = reader();
    auto q =
        r->query(std::string("SELECT ") + jobColumns + " FROM jobs j WHERE j.project_uid = ? AND j.name = ?",
                 projectUid, name);
    if (!q.step())
        return std::nullopt;
    return readJob(q);
}

std::pair<std::int64_t, std::int64_t> Storage::jobsSize(const std::string& projectUid) {
    auto r = reader();
    auto q = r->query("SELECT count(*), coalesce(sum(length(parameters)), 0) FROM jobs WHERE project_uid = ?",
                      projectUid);
    q.step();
    return {q.int64(0), q.int64(1)};
}

void Storage::forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each) {
    auto r = reader();
    auto q =
        r->query(std::string("SELECT ") + jobColumns + " FROM jobs j WHERE j.project_uid = ? ORDER BY j.name",
                 projectUid);
    while (q.step())
        each(readJob(q));
}

void Storage::forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                                const std::function<void(SparkJobSummary&&)>& each) {
    auto r = reader();
    auto q = r->query(std::string("SELECT ") + jobSummaryColumns +
                          " FROM jobs j WHERE j.project_uid = ? ORDER BY j.name LIMIT ?",
                      projectUid, limit);
    while (q.step())
        each({q.text(0), jobTypeFromName(q.text(1)).value_or(JobType::Jar), q.text(2), q.integer(3),
              q.integer(5), readTime(q, 4)});
}

void Storage::insertJob(const std::string& projectUid, const SparkJob& job) {
    m_db->execute(
        "INSERT INTO jobs(job_id, project_uid, name, type, parameters, cluster, max_concurrent_runs, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        job.jobId, projectUid, job.name, jobTypeName(job.type), nlohmann::json(job.parameters).dump(),
        job.cluster, job.maxConcurrentRuns, formatTimestamp(job.createdAt), formatTimestamp(job.updatedAt));
}

void Storage::updateJob(const std::string& projectUid, const SparkJob& job) {
    m_db->execute(
        "UPDATE jobs SET type = ?, parameters = ?, cluster = ?, max_concurrent_runs = ?, updated_at = ? "
        "WHERE job_id = ? AND project_uid = ?",
        jobTypeName(job.type), nlohmann::json(job.parameters).dump(), job.cluster, job.maxConcurrentRuns,
        formatTimestamp(job.updatedAt), job.jobId, projectUid);
}

void Storage::deleteJob(const std::string& projectUid, const std::string& jobId) {
    m_db->execute("DELETE FROM jobs WHERE job_id = ? AND project_uid = ?", jobId, projectUid);
}

int Storage::activeRunCount(const std::string& projectUid, const std::string& jobId) {
    auto r = reader();
    auto q = r->query("SELECT count(*) FROM runs WHERE project_uid = ? AND job_id = ? AND status IN "
                      "('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')",
                      projectUid, jobId);
    q.step();
    return q.integer(0);
}

std::vector<std::string> Storage::jobNamesOnCluster(const std::string& projectUid,
                                                    const std::string& cluster) {
    auto r = reader();
    auto q = r->query("SELECT name FROM jobs WHERE project_uid = ? AND cluster = ? ORDER BY name", projectUid,
                      cluster);
    std::vector<std::string> names;
    while (q.step())
        names.push_back(q.text(0));
    return names;
}

// --- Clusters -------------------------------------------------------------------------------------

namespace {

constexpr const char* clusterColumns =
    "cluster_id, name, type, max_ocu, min_ocu, with_pairs, created_at, updated_at";

Cluster readCluster(const SqliteDatabase::Query& q) {
    Cluster c;
    c.clusterId = q.text(0);
    c.name = q.text(1);
    c.type = q.text(2);
    c.maxOcu = q.integer(3);
    c.minOcu = q.integer(4);
    c.with = nlohmann::json::parse(q.text(5)).get<std::vector<std::pair<std::string, std::string>>>();
    for (const auto& [key, value] : c.with) {
        if (key.starts_with("spark."))
            c.sparkConfigs[key] = value;
        else if (key.starts_with("hoodie."))
            c.hudiConfigs[key] = value;
    }
    c.createdAt = readTime(q, 6);
    c.updatedAt = readTime(q, 7);
    return c;
}

} // namespace

std::optional<Cluster> Storage::findCluster(const std::string& projectUid, const std::string& name) {
    auto r = reader();
    auto q = r->query(std::string("SELECT ") + clusterColumns +
                          " FROM clusters WHERE project_uid = ? AND name = ?",
                      projectUid, name);
    if (!q.step())
        return std::nullopt;
    return readCluster(q);
}

std::vector<Cluster> Storage::listClusters(const std::string& projectUid) {
    auto r = reader();
    auto q = r->query(std::string("SELECT ") + clusterColumns +
                          " FROM clusters WHERE project_uid = ? ORDER BY name",
                      projectUid);
    std::vector<Cluster> clusters;
    while (q.step())
        clusters.push_back(readCluster(q));
    return clusters;
}

void Storage::insertCluster(const std::string& projectUid, const Cluster& cluster) {
    m_db->execute("INSERT INTO clusters(cluster_id, project_uid, name, type, max_ocu, min_ocu, with_pairs, "
                  "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  cluster.clusterId, projectUid, cluster.name, cluster.type, cluster.maxOcu, cluster.minOcu,
                  nlohmann::json(cluster.with).dump(), formatTimestamp(cluster.createdAt),
                  formatTimestamp(cluster.updatedAt));
}

void Storage::updateCluster(const std::string& projectUid, const Cluster& cluster) {
    m_db->execute("UPDATE clusters SET type = ?, max_ocu = ?, min_ocu = ?, with_pairs = ?, updated_at = ? "
                  "WHERE cluster_id = ? AND project_uid = ?",
                  cluster.type, cluster.maxOcu, cluster.minOcu, nlohmann::json(cluster.with).dump(),
                  formatTimestamp(cluster.updatedAt), cluster.clusterId, projectUid);
}

void Storage::deleteCluster(const std::string& projectUid, const std::string& clusterId) {
    m_db->execute("DELETE FROM clusters WHERE cluster_id = ? AND project_uid = ?", clusterId, projectUid);
}

// --- Audit ----------------------------------------------------------------------------------------

std::int64_t Storage::appendAudit(const AuditEntry& entry) {
    return m_db->transaction([&] {
        m_deferred->flush(); // joins this transaction
        insertAudit({entry}, RowErrors::Throw);
        return m_db->lastInsertRowId();
    });
}

void Storage::deferAudit(AuditEntry entry) {
    m_deferred->addAudit(std::move(entry));
}

namespace {

// Multi-row INSERTs of up to kChunkRows rows: SQLite then runs (and resets) one statement, and
// updates the audit's AUTOINCREMENT counter once, per chunk rather than per row. Chunks of a few
// sizes only, so each connection keeps a few prepared statements.
constexpr std::array<std::size_t, 3> kChunkRows{64, 8, 1};

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
template <class BindShared, class BindRow>
void insertChunked(SqliteDatabase& db, std::size_t count, const std::array<std::string, 3>& sql, int shared,
                   int perRow, bool skipFailedRows, const BindShared& bindShared, const BindRow& bindRow) {
    auto write = [&](std::size_t statement, std::size_t from, std::size_t rows) {
        auto q = db.prepare(sql[statement]);
        bindShared(q);
        for (std::size_t i = 0; i < rows; ++i)
            bindRow(q, shared + 1 + static_cast<int>(i) * perRow, from + i);
        q.run();
    };
    auto writeRow = [&](std::size_t row) {
        try {
            write(kChunkRows.size() - 1, row, 1);
        } catch (const std::exception& e) {
            if (!db.transactionActive())
                throw; // the error (disk full, I/O) rolled the whole group back: nothing more can be written
            spdlog::error("a queued audit entry or status could not be written: {}", e.what());
        }
    };
    std::size_t next = 0;
    for (std::size_t statement = 0; statement < kChunkRows.size(); ++statement) {
        const std::size_t rows = kChunkRows[statement];
        for (; count - next >= rows; next += rows) {
            if (!skipFailedRows) {
                write(statement, next, rows);
            } else if (rows == 1) {
                writeRow(next);
            } else {
                try {
                    write(statement, next, rows);
                } catch (const std::exception& e) {
                    if (!db.transactionActive())
                        throw;
                    spdlog::error("queued rows could not be written together: {}; writing them one by one",
                                  e.what());
                    for (std::size_t row = next; row < next + rows; ++row)
                        writeRow(row);
                }
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

} // namespace

void Storage::insertAudit(const std::vector<AuditEntry>& audit, RowErrors errors) {
    static const auto auditSql = chunkStatements(
        "INSERT INTO audit(at, project_uid, key_id, role, statement, outcome, error_message, request_id, "
        "headers) VALUES ",
        0, 9, [](int) { return "?,?,?,?,?,?,?,?,?"; }, "");
    // Entries made in the same millisecond (most of them, under load) share one formatted time.
    std::vector<std::string> times;
    times.reserve(audit.size());
    for (std::size_t i = 0; i < audit.size(); ++i) {
        const auto at = std::chrono::floor<std::chrono::milliseconds>(audit[i].at);
        times.push_back(i > 0 && at == std::chrono::floor<std::chrono::milliseconds>(audit[i - 1].at)
                            ? times.back()
                            : formatTimestamp(at));
    }
    std::vector<std::string> headers;
    headers.reserve(audit.size());
    // Never throws on a byte that is not UTF-8: one entry's header must not lose the group.
    for (const auto& entry : audit)
        headers.push_back(entry.headers.empty()
                              ? "{}"
                              : nlohmann::json(entry.headers)
                                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    insertChunked(
        *m_db, audit.size(), auditSql, 0, 9, errors == RowErrors::Skip, [](SqliteDatabase::Query&) {},
        [&](SqliteDatabase::Query& q, int first, std::size_t i) {
            const AuditEntry& entry = audit[i];
            q.bindStatic(first, times[i])
                .bindStatic(first + 1, entry.projectUid)
                .bindStatic(first + 2, entry.keyId)
                .bindStatic(first + 3, entry.role)
                .bindStatic(first + 4, entry.statement)
                .bindStatic(first + 5, apiOperationStatusName(entry.outcome))
                .bindStatic(first + 7, entry.requestId)
                .bindStatic(first + 8, headers[i]);
            if (entry.errorMessage)
                q.bindStatic(first + 6, *entry.errorMessage);
            else
                q.bind(first + 6, nullptr);
        });
}

void Storage::insertStatuses(const std::vector<DeferredWrites::StatusRow>& rows, RowErrors errors) {
    // PENDING rows first: one never replaces a status, so the order of the two does not matter.
    static const auto pendingSql = chunkStatements(
        "INSERT INTO requests(request_id, project_uid, status, created_at, updated_at) VALUES ", 2, 2,
        [](int first) {
            return "?" + std::to_string(first) + ",?" + std::to_string(first + 1) + ",?2,?1,?1";
        },
        " ON CONFLICT(request_id) DO NOTHING");
    static const auto statusSql = chunkStatements(
        "INSERT INTO requests(request_id, project_uid, status, created_at, updated_at) VALUES ", 1, 3,
        [](int first) {
            return "?" + std::to_string(first) + ",?" + std::to_string(first + 1) + ",?" +
                   std::to_string(first + 2) + ",?1,?1";
        },
        " ON CONFLICT(request_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at "
        "WHERE requests.project_uid = excluded.project_uid");
    std::vector<const DeferredWrites::StatusRow*> pending;
    std::vector<const DeferredWrites::StatusRow*> done;
    for (const auto& row : rows)
        (row.status ? done : pending).push_back(&row);
    const std::string at = now(); // the group's time
    static const std::string pendingText = nlohmann::json(ApiStatus::pending()).dump();
    insertChunked(
        *m_db, pending.size(), pendingSql, 2, 2, errors == RowErrors::Skip,
        [&](SqliteDatabase::Query& q) { q.bindStatic(1, at).bindStatic(2, pendingText); },
        [&](SqliteDatabase::Query& q, int first, std::size_t i) {
            q.bindStatic(first, pending[i]->requestId).bindStatic(first + 1, pending[i]->projectUid);
        });
    insertChunked(
        *m_db, done.size(), statusSql, 1, 3, errors == RowErrors::Skip,
        [&](SqliteDatabase::Query& q) { q.bindStatic(1, at); },
        [&](SqliteDatabase::Query& q, int first, std::size_t i) {
            q.bindStatic(first, done[i]->requestId)
                .bindStatic(first + 1, done[i]->projectUid)
                .bindStatic(first + 2, done[i]->status->text());
        });
}

std::vector<AuditEntry> Storage::recentAudit(const std::string& projectUid, int limit) {
    m_deferred->flush();
    auto r = freshReader(); // a snapshot taken before the flush would miss what it wrote
    auto q =
        r->query("SELECT seq, at, project_uid, key_id, role, statement, outcome, error_message, request_id, "
                 "headers FROM audit WHERE project_uid = ? ORDER BY seq DESC LIMIT ?",
                 projectUid, limit);
    std::vector<AuditEntry> entries;
    while (q.step()) {
        AuditEntry e;
        e.seq = q.int64(0);
        e.at = readTime(q, 1);
        e.projectUid = q.text(2);
        e.keyId = q.text(3);
        e.role = q.text(4);
        e.statement = q.text(5);
        e.outcome = apiOperationStatusFromName(q.text(6)).value_or(ApiOperationStatus::Failed);
        e.errorMessage = q.optionalText(7);
        e.requestId = q.text(8);
        e.headers = nlohmann::json::parse(q.text(9)).get<std::map<std::string, std::string>>();
        entries.push_back(std::move(e));
    }
    return entries;
}

// --- Events ---------------------------------------------------------------------------------------

std::int64_t Storage::appendEvent(const std::string& projectUid, const ProjectEvent& event) {
    auto lock = m_db->lock();
    std::optional<std::string> status;
    if (event.status)
        status = std::string(jobRunStatusName(*event.status));
    m_db->execute(
        "INSERT INTO events(project_uid, type, job_name, job_run_id, status, at) VALUES (?, ?, ?, ?, ?, ?)",
        projectUid, event.type, event.jobName, event.jobRunId, status, formatTimestamp(event.at));
    return m_db->lastInsertRowId();
}

std::vector<ProjectEvent> Storage::eventsAfter(const std::string& projectUid, std::int64_t after, int limit) {
    auto r = reader();
    auto q = r->query("SELECT seq, type, job_name, job_run_id, status, at FROM events "
                      "WHERE project_uid = ? AND seq > ? ORDER BY seq LIMIT ?",
                      projectUid, after, limit);
    std::vector<ProjectEvent> events;
    while (q.step()) {
        ProjectEvent e;
        e.seq = q.int64(0);
        e.type = q.text(1);
        e.jobName = q.text(2);
        e.jobRunId = q.optionalText(3);
        if (const auto status = q.optionalText(4))
            e.status = jobRunStatusFromName(*status);
        e.at = readTime(q, 5);
        events.push_back(std::move(e));
    }
    return events;
}

std::int64_t Storage::latestEventSeq(const std::string& projectUid) {
    auto r = reader();
    auto q = r->query("SELECT coalesce(max(seq), 0) FROM events WHERE project_uid = ?", projectUid);
    q.step();
    return q.int64(0);
}

std::optional<std::string> Storage::unavailableReason() {
    const std::string file = m_db->fileName();
    struct stat now {};
    if (::stat(file.c_str(), &now) != 0)
        return "the database file " + file + " cannot be found: " + std::strerror(errno);
    if (std::pair<std::uint64_t, std::uint64_t>{now.st_dev, now.st_ino} != m_fileIdentity)
        return "the database file " + file + " was replaced while jobdeckd had it open; restart jobdeckd";
    try {
        auto r = freshReader();
        auto q = r->query("SELECT COUNT(*) FROM sqlite_master");
        q.step();
    } catch (const std::exception& e) {
        return std::string("the database does not answer: ") + e.what();
    }
    return std::nullopt;
}

std::int64_t Storage::latestEventSeqOverall() {
    // sqlite_sequence remembers the highest seq even after pruning.
    auto r = reader();
    auto q = r->query("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)");
    q.step();
    return q.int64(0);
}

void Storage::pruneEvents(const std::string& projectUid, int keep) {
    m_db->transaction([&] {
        std::int64_t cutoff = 0;
        {
            auto q =
                m_db->query("SELECT seq FROM events WHERE project_uid = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
                            projectUid, keep);
            if (!q.step())
                return;
            cutoff = q.int64(0);
        }
        m_db->execute("DELETE FROM events WHERE project_uid = ? AND seq <= ?", projectUid, cutoff);
        m_db->execute(
            "UPDATE projects SET events_pruned_through = max(events_pruned_through, ?) WHERE uid = ?", cutoff,
            projectUid);
    });
}

std::int64_t Storage::prunedEventSeq(const std::string& projectUid) {
    auto r = reader();
    auto q = r->query("SELECT events_pruned_through FROM projects WHERE uid = ?", projectUid);
    return q.step() ? q.int64(0) : 0;
}

} // namespace jobdeck
