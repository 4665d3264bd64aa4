#pragma once

#include "core/ApiStatus.h"
#include "core/AuditEntry.h"
#include "core/Cluster.h"
#include "core/Project.h"
#include "core/ProjectEvent.h"
#include "core/ProjectSettings.h"
#include "core/SparkJob.h"
#include "core/SparkJobSummary.h"
#include "core/Timestamp.h"
#include "service/DeferredWrites.h"
#include "service/Principal.h"
#include "service/SqliteDatabase.h"
#include "service/StatusJson.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace jobdeck {

// What `jobdeckd keys create` prints once; only a salted hash of the secret is stored.
struct CreatedKey final {
    std::string projectUid;
    std::string projectName;
    std::string apiKey;
    std::string apiSecret;
    Role role = Role::Viewer;
};

// The jobdeckd database: projects, API keys, jobs, clusters, runs, request statuses, audit, events.
// Every method that reads or writes project data takes the project's uid and is scoped by it, so one
// project never sees another's rows. Methods are thread-safe (see SqliteDatabase); combine several
// in one atomic step with database().transaction(...). Errors are DatabaseError.
//
// Connections: one writer (database(), synchronous=FULL) and a pool of read-only connections that
// the reading methods use, so reads run in parallel with each other and with a write being committed
// (WAL). A thread inside database().transaction() reads through the writer, so it sees its own
// uncommitted changes. Writes that need not be durable before the answer (deferAudit,
// deferRequestStatus, deferPendingRequest) are committed in groups by DeferredWrites.
//
// Schema (version schemaVersion(), migrated at open; the runs table is written by RunManager):
//   projects(uid PK, name UNIQUE, hudi_configs_enabled, concurrent_runs_enabled,
//            max_concurrent_runs_limit, created_at)
//   project_allowlist(project_uid, entry, added_at)              PK(project_uid, entry)
//   api_keys(id PK, project_uid, key UNIQUE, role, salt, secret_hash, revoked, created_at)
//   clusters(id PK, cluster_id UNIQUE, project_uid, name, type, max_ocu, min_ocu,
//            with_pairs JSON [[k,v],...], created_at, updated_at)  UNIQUE(project_uid, name)
//   jobs(id PK, job_id UNIQUE, project_uid, name, type 'JAR'|'PYTHON', parameters JSON array,
//        cluster -> clusters(project_uid, name), max_concurrent_runs, created_at, updated_at)
//                                                                 UNIQUE(project_uid, name)
//   runs(id PK (insertion order), run_id UNIQUE, project_uid, job_id -> jobs(job_id) ON DELETE CASCADE,
//        job_name, cluster, status (jobRunStatusName(): 'SPARK_JOB_RUN_STATUS_QUEUED', ...),
//        queue_reason, idempotency_key, argument_overrides JSON [[name,value],...],
//        arguments JSON array, queued_at, started_at, ended_at, exit_code, message,
//        driver_pid, monitor_pid, driver_start_ticks, run_dir, log_path, cancel_requested,
//        launch_spec JSON)
//   requests(request_id PK, project_uid, status JSON (ApiStatus), created_at, updated_at)
//   key_changes(id PK = 1, generation): bumped by triggers whenever api_keys rows change or go, so
//            the cache of verified keys notices a revocation made by any process
//   audit(seq PK AUTOINCREMENT, at, project_uid, key_id, role, statement, outcome, error_message,
//         request_id, headers JSON)
//   events(seq PK AUTOINCREMENT, project_uid, type, job_name, job_run_id, status, at)
//   write_keys(project_uid, idempotency_key, statement_hash, request_id, created_at)
//                                                                 PK(project_uid, idempotency_key)
// Times are ISO-8601 UTC text with milliseconds (formatTimestamp), so they sort as text.
class Storage final {
public:
    // `databaseUrl` is "sqlite:<path>" or a plain file path. postgresql:// URLs are refused in this
    // build. Runs the schema migrations; a database whose schema is newer than this binary is refused
    // and left untouched. Throws DatabaseError with one clear line.
    static std::unique_ptr<Storage> open(const std::string& databaseUrl);
    // The schema version this binary creates and understands.
    static int schemaVersion();

    SqliteDatabase& database() { return *m_db; }

    // While it lives, this thread's reads share one read transaction on one read-only connection: one
    // snapshot, and the connection's locks taken once rather than per query. Inside a transaction of
    // database() it does nothing (reads go through the writer there).
    class ReadScope final {
    public:
        explicit ReadScope(Storage& storage);
        ~ReadScope();
        ReadScope(const ReadScope&) = delete;
        ReadScope& operator=(const ReadScope&) = delete;

    private:
        Storage& m_storage;
        SqliteDatabase* m_reader = nullptr;
    };

    // --- API keys ---------------------------------------------------------------------------------
    // nullopt for an unknown project or key, a wrong secret or a revoked key; the secret is always
    // hashed and compared in constant time, whichever of these applies. Keys that verified once are
    // cached (salt, hash, principal; never the secret), so a known key costs one hash and no lookup
    // of the key; the cache is dropped whenever key_changes moves (a revocation, by any process),
    // which is read again only when changeStamp() moved. `changeStampRead`, when given, gets the
    // changeStamp() read before anything else (for the request's Caller; never kept with the key).
    std::optional<Principal> authenticate(std::string_view projectUid, std::string_view apiKey,
                                          std::string_view apiSecret,
                                          std::uint64_t* changeStampRead = nullptr);
    // Creates the project when it does not exist yet.
    CreatedKey createKey(const std::string& projectName, Role role);
    // false when there is no such key.
    bool revokeKey(const std::string& apiKey);
    // How many secret comparisons authenticate() has made; lets tests check that every path compares.
    std::uint64_t secretComparisons() const { return m_secretComparisons.load(); }
    // How many times authenticate() looked a key up in the database: an unknown key and a known key
    // with a wrong secret each cost one, so that neither answers sooner than the other.
    std::uint64_t keyLookups() const { return m_keyLookups.load(); }

    // --- Request statuses -------------------------------------------------------------------------
    // Durable (joins the caller's transaction, if any).
    void saveRequestStatus(const std::string& projectUid, const std::string& requestId,
                           const StatusJson& status);
    // Committed with the next group (see DeferredWrites); `committed`, when given, is called with the
    // outcome of that group, which then starts at once.
    void deferRequestStatus(std::string projectUid, std::string requestId, StatusJson status,
                            std::function<void(bool committed)> committed = {});
    // Records the request as PENDING unless a status is stored already (durable / with the next group).
    void savePendingRequest(const std::string& projectUid, const std::string& requestId);
    void deferPendingRequest(const std::string& projectUid, const std::string& requestId,
                             std::function<void(bool committed)> committed = {});
    // Commits queued statuses first, so a status deferred a moment ago is found.
    std::optional<ApiStatus> findRequestStatus(const std::string& projectUid, const std::string& requestId);
    // What is committed now, without committing the queue (no fsync; may run on an IO thread). A
    // final status found this way is the request's last word; a PENDING one may have a final one
    // queued.
    std::optional<ApiStatus> findCommittedRequestStatus(const std::string& projectUid,
                                                        const std::string& requestId,
                                                        TimePoint* writtenAt = nullptr);
    // Statuses written longer ago than this are not found any more (default 24 hours); the sweep
    // below deletes them.
    void setStatusRetention(std::chrono::seconds retention);

    // --- Retention: deletes expired rows a small batch at a time ----------------------------------
    // A table swept in the order its rows were made (`key`), with the time each was made, the time
    // it expires by, and a further condition for deleting it (SQL, may be empty).
    struct SweepTable {
        std::string name;
        std::string key;
        std::string madeAt;
        std::string expiresBy;
        std::string alsoRequired;
    };
    static const SweepTable& statusTable(); // final statuses, by updated_at
    static const SweepTable& auditTable();  // audit entries, by at
    struct SweepStep {
        int deleted = 0;
        std::int64_t last = 0; // where the next step starts (`after`)
        bool done = false;     // nothing older than the cutoff follows
    };
    // Deletes the rows of the next batch after key `after` that expired by `cutoff`, in one short
    // transaction.
    SweepStep sweepBatch(const SweepTable& table, TimePoint cutoff, std::int64_t after);
    // At start: every request still PENDING in the database gets FAILED with `message` (its process
    // ended before it finished). Returns how many.
    int failUnfinishedRequests(const std::string& message);

    // --- Keyed writes (see RepeatedWrites) ---------------------------------------------------------
    struct WriteKey final {
        std::string idempotencyKey;
        std::string statementHash;
        std::string requestId; // the first request sent with the key
        TimePoint at{};
    };
    // Durable (joins the caller's transaction, if any); drops the keys recorded before `expiredBefore`.
    void saveWriteKey(const std::string& projectUid, const WriteKey& key, TimePoint expiredBefore);
    // The key as recorded at or after `notBefore`, committed now (no fsync; may run on an IO thread).
    std::optional<WriteKey> findWriteKey(const std::string& projectUid, const std::string& idempotencyKey,
                                         TimePoint notBefore);

    // --- Projects ---------------------------------------------------------------------------------
    // The project and its settings, without recentAudit.
    std::optional<Project> findProject(const std::string& projectUid);
    std::optional<std::string> findProjectUidByName(const std::string& projectName);
    ProjectSettings projectSettings(const std::string& projectUid);
    void saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings);

    // --- Jobs (stored fields only: jobId, name, type, cluster, parameters, maxConcurrentRuns, times;
    //     activeRuns is filled from the runs table) -------------------------------------------------
    std::optional<SparkJob> findJob(const std::string& projectUid, const std::string& name);
    // Every job of the project by name, one at a time (100,000 jobs are not held at once).
    void forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each);
    // Every job's summary (SHOW JOBS SUMMARY) by name, one at a time, the first `limit` (-1: all);
    // parameters are not read.
    void forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                           const std::function<void(SparkJobSummary&&)>& each);
    // How many jobs the project has, and the length of all their stored parameters (JSON text).
    std::pair<std::int64_t, std::int64_t> jobsSize(const std::string& projectUid);
    void insertJob(const std::string& projectUid, const SparkJob& job);
    void updateJob(const std::string& projectUid, const SparkJob& job); // by jobId
    void deleteJob(const std::string& projectUid, const std::string& jobId);
    // Runs of the job in QUEUED or RUNNING.
    int activeRunCount(const std::string& projectUid, const std::string& jobId);
    // Names of the jobs that use the cluster, sorted.
    std::vector<std::string> jobNamesOnCluster(const std::string& projectUid, const std::string& cluster);

    // --- Clusters ---------------------------------------------------------------------------------
    std::optional<Cluster> findCluster(const std::string& projectUid, const std::string& name);
    std::vector<Cluster> listClusters(const std::string& projectUid); // by name
    void insertCluster(const std::string& projectUid, const Cluster& cluster);
    void updateCluster(const std::string& projectUid, const Cluster& cluster); // by clusterId
    void deleteCluster(const std::string& projectUid, const std::string& clusterId);

    // --- Audit ------------------------------------------------------------------------------------
    // Appends the entry durably, after the deferred ones (so seq follows the order of the answers),
    // and returns its seq. Joins the caller's transaction, if any.
    std::int64_t appendAudit(const AuditEntry& entry);
    // Appends the entry with the next group commit.
    void deferAudit(AuditEntry entry);
    // Newest first; deferred entries are committed first, so they are included.
    std::vector<AuditEntry> recentAudit(const std::string& projectUid, int limit);

    // Why the database does not answer (GET /v1/health), or nullopt when it does: its file is gone or
    // was replaced under the open connections (whose writes would then go to a file nobody sees), or
    // a query on it fails.
    std::optional<std::string> unavailableReason();

    // Commits every deferred write now (the destructor does too).
    void flushDeferred();

    // Moves whenever anything was committed to the database since the last call, by this process or
    // any other (SQLite's PRAGMA data_version, read on a connection of its own that never writes). Read it
    // before what is to be cached: an entry tagged with the stamp of its time is current while the
    // stamp stays. One small read; thread-safe.
    std::uint64_t changeStamp();

    // --- Events (see EventBus) --------------------------------------------------------------------
    // Stores the event with the next seq and returns it.
    std::int64_t appendEvent(const std::string& projectUid, const ProjectEvent& event);
    // Events with seq > after, oldest first, at most `limit`.
    std::vector<ProjectEvent> eventsAfter(const std::string& projectUid, std::int64_t after, int limit);
    // The highest seq of the project's events (0 when none), and the highest ever handed out by
    // this database.
    std::int64_t latestEventSeq(const std::string& projectUid);
    std::int64_t latestEventSeqOverall();
    // Drops the project's oldest events so that at most `keep` remain; the dropped range is
    // remembered so a client asking from inside it is told to reload.
    void pruneEvents(const std::string& projectUid, int keep);
    // The highest seq that was dropped for the project (0 when none).
    std::int64_t prunedEventSeq(const std::string& projectUid);

    // Random identifiers: a UUID (v4) and `bytes` random bytes as lower-case hex.
    static std::string randomUuid();
    // A UUID v7 (RFC 9562): the time in milliseconds, then 74 random bits. Ids that are stored as
    // they come (request ids) then land at the end of their index instead of on a random page of it,
    // so a group commit of thousands writes a few pages, not one each.
    static std::string timeOrderedUuid();
    static std::string randomHex(std::size_t bytes);

    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

private:
    class Reader;
    struct CachedKey {
        std::string salt;
        std::string secretHash;
        Principal principal;
    };
    // The key's row: salt and hash (stand-ins when unknown), and whether it may authenticate.
    struct KeyRow {
        std::string salt;
        std::string secretHash;
        bool usable = false; // found, with a known role and a well-formed hash, and not revoked
        Principal principal;
    };
    KeyRow lookUpKey(std::string_view projectUid, std::string_view apiKey);

    explicit Storage(std::unique_ptr<SqliteDatabase> db);
    void migrate();
    // A read-only connection for this thread's next reads (the writer inside a transaction, the
    // scope's inside a ReadScope).
    Reader reader();
    // The same, but outside any ReadScope: for reads that must see what was committed just now.
    Reader freshReader();
    SqliteDatabase* leaseReader();
    void returnReader(SqliteDatabase* reader);
    // Rows in multi-row INSERTs, joining the caller's transaction, if any. Queued rows skip a row that
    // fails (logged); durable ones throw.
    enum class RowErrors { Throw, Skip };
    void insertAudit(const std::vector<AuditEntry>& entries, RowErrors errors);
    void insertStatuses(const std::vector<DeferredWrites::StatusRow>& rows, RowErrors errors);

    std::unique_ptr<SqliteDatabase> m_db;
    std::atomic<std::uint64_t> m_secretComparisons{0};
    std::pair<std::uint64_t, std::uint64_t> m_fileIdentity{}; // device and inode of the file at open
    std::atomic<std::uint64_t> m_keyLookups{0};

    std::mutex m_readersMutex;
    std::condition_variable m_readerReturned;
    std::vector<std::unique_ptr<SqliteDatabase>> m_readers;
    std::vector<SqliteDatabase*> m_idleReaders;

    // Connections that read data_version for changeStamp().
    struct Watch;
    std::mutex m_watchesMutex;
    std::vector<std::unique_ptr<Watch>> m_watches;
    std::size_t m_stampLooks = 0; // spreads waiting looks over the watches when all are busy
    std::atomic<std::uint64_t> m_stamp{0};
    std::atomic<std::chrono::seconds> m_statusRetention{std::chrono::hours(24)};

    std::mutex m_keysMutex;
    std::uint64_t m_keysStamp = 0; // the changeStamp() at which m_keysGeneration was read
    std::int64_t m_keysGeneration = -1;
    std::unordered_map<std::string, std::shared_ptr<const CachedKey>>
        m_keys; // by project uid + '\n' + api key

    // Last: destroyed (and so flushed) first, while the connections still exist.
    std::unique_ptr<DeferredWrites> m_deferred;
};

} // namespace jobdeck
