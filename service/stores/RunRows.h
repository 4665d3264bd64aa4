#pragma once

#include "service/stores/ProjectFilter.h"
#include "service/stores/RunStore.h"
#include "service/stores/SqlConnection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

// The SQL of the runs table, the same on both backends (`?` parameters), over either backend's connection
// (`Db`: SqliteDatabase or PgConnection). Every function runs on the connection it is given, so it joins
// the step under way there.
namespace jobdeck::run_rows {

inline constexpr const char* kColumns =
    "run_id, project_uid, job_id, job_name, cluster, status, queue_reason, idempotency_key, "
    "argument_overrides, arguments, queued_at, started_at, ended_at, exit_code, message, driver_pid, "
    "driver_start_ticks, run_dir, log_path, cancel_requested, launch_spec, deploy_mode, spark_master, "
    "submission_id, owner, owner_epoch";
// The column after kColumns in a query that selects more.
inline constexpr int kColumnCount =
    static_cast<int>(std::count(std::string_view(kColumns).begin(), std::string_view(kColumns).end(), ',')) +
    1;

inline std::string overridesJson(const SparkJobRun& run) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto& [name, value] : run.argumentOverrides)
        pairs.push_back({name, value});
    return pairs.dump();
}

inline std::optional<std::string> formatOptional(const std::optional<TimePoint>& t) {
    return t ? std::optional<std::string>(formatTimestamp(*t)) : std::nullopt;
}

inline std::optional<TimePoint> parseOptional(const std::optional<std::string>& text) {
    return text ? parseTimestamp(*text) : std::nullopt;
}

template <SqlRow Row> RunRecord readRow(const Row& q) {
    RunRecord r;
    r.run.jobRunId = q.text(0);
    r.projectUid = q.text(1);
    r.run.jobId = q.text(2);
    r.run.jobName = q.text(3);
    r.cluster = q.text(4);
    r.run.status = jobRunStatusFromName(q.text(5)).value_or(JobRunStatus::Failed);
    r.run.queueReason = q.optionalText(6);
    r.run.idempotencyKey = q.optionalText(7);
    const nlohmann::json overrides = nlohmann::json::parse(q.text(8), nullptr, false);
    for (const auto& pair : overrides)
        if (pair.is_array() && pair.size() == 2)
            r.run.argumentOverrides.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
    const nlohmann::json arguments = nlohmann::json::parse(q.text(9), nullptr, false);
    for (const auto& arg : arguments)
        if (arg.is_string())
            r.run.arguments.push_back(arg.get<std::string>());
    r.run.queuedAt = parseTimestamp(q.text(10)).value_or(TimePoint{});
    r.run.startedAt = parseOptional(q.optionalText(11));
    r.run.endedAt = parseOptional(q.optionalText(12));
    if (const auto code = q.optionalInt64(13))
        r.run.exitCode = static_cast<int>(*code);
    r.run.message = q.optionalText(14);
    r.driverPid = q.optionalInt64(15).value_or(0);
    r.driverStartTicks = static_cast<std::uint64_t>(q.optionalInt64(16).value_or(0));
    r.runDir = q.optionalText(17).value_or("");
    r.logPath = q.optionalText(18).value_or("");
    r.cancelRequested = q.int64(19) != 0;
    if (const auto spec = q.optionalText(20)) {
        const nlohmann::json j = nlohmann::json::parse(*spec, nullptr, false);
        if (j.is_object() && j.contains("canceledBy") && j["canceledBy"].is_string())
            r.canceledBy = j["canceledBy"].get<std::string>();
        if (j.is_object() && j.contains("launchSecrets") && j["launchSecrets"].is_array())
            for (const auto& value : j["launchSecrets"])
                if (value.is_string())
                    r.launchSecrets.push_back(value.get<std::string>());
    }
    r.clusterMode = q.text(21) == "cluster";
    r.sparkMaster = q.optionalText(22).value_or("");
    r.run.submissionId = q.optionalText(23);
    r.owner = q.optionalText(24).value_or("");
    r.ownerEpoch = q.optionalInt64(25).value_or(0);
    return r;
}

inline std::string launchSpecJson(const RunRecord& r) {
    nlohmann::json spec{{"canceledBy", r.canceledBy}};
    if (!r.launchSecrets.empty())
        spec["launchSecrets"] = r.launchSecrets;
    return spec.dump();
}

inline std::string deployModeText(const RunRecord& r) {
    return r.clusterMode ? "cluster" : "client";
}

inline std::optional<std::string> optionalText(const std::string& text) {
    return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

inline std::optional<std::int64_t> optionalEpoch(std::int64_t epoch) {
    return epoch ? std::optional<std::int64_t>(epoch) : std::nullopt;
}

inline constexpr const char* kActive =
    "status IN ('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')";

// The mutable columns update() writes, in its parameters' order.
inline constexpr const char* kMutableColumns =
    "status = ?, queue_reason = ?, arguments = ?, started_at = ?, ended_at = ?, exit_code = ?, message = ?, "
    "driver_pid = ?, driver_start_ticks = ?, run_dir = ?, log_path = ?, cancel_requested = ?, launch_spec = "
    "?, "
    "deploy_mode = ?, spark_master = ?, submission_id = ?";

// The unique index runs_active_by_key (migration 9): one active run per job and Idempotency-Key.
inline constexpr const char* kActiveKeyConflict =
    " ON CONFLICT (project_uid, job_id, idempotency_key) WHERE idempotency_key IS NOT NULL AND status IN "
    "('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING') DO NOTHING";

template <SqlConnection Db> auto insertQuery(Db& db, const RunRecord& r, const char* tail) {
    return db.query(std::string("INSERT INTO runs (") + kColumns +
                        ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" + tail,
                    r.run.jobRunId, r.projectUid, r.run.jobId, r.run.jobName, r.cluster,
                    std::string(jobRunStatusName(r.run.status)), r.run.queueReason, r.run.idempotencyKey,
                    overridesJson(r.run), nlohmann::json(r.run.arguments).dump(),
                    formatTimestamp(r.run.queuedAt), formatOptional(r.run.startedAt),
                    formatOptional(r.run.endedAt),
                    r.run.exitCode ? std::optional<std::int64_t>(*r.run.exitCode) : std::nullopt,
                    r.run.message, r.driverPid ? std::optional<std::int64_t>(r.driverPid) : std::nullopt,
                    static_cast<std::int64_t>(r.driverStartTicks), r.runDir, r.logPath, r.cancelRequested,
                    launchSpecJson(r), deployModeText(r), optionalText(r.sparkMaster), r.run.submissionId,
                    optionalText(r.owner), optionalEpoch(r.ownerEpoch));
}

// false: not inserted, an active run of the job has the record's Idempotency-Key (the index decides,
// so two admissions of one key can never both insert).
template <SqlConnection Db> bool insert(Db& db, const RunRecord& r) {
    return insertQuery(db, r, kActiveKeyConflict).run() > 0;
}

// Sent with the next statement or the commit (RunStore::insertLater): an active run of the job with the
// record's Idempotency-Key makes it fail (runs_active_by_key), and the step with it.
template <SqlConnection Db> void insertLater(Db& db, const RunRecord& r) {
    insertQuery(db, r, "").runLater();
}

template <SqlConnection Db, class... Tail>
int updateWhere(Db& db, const RunRecord& r, const std::string& tail, const Tail&... tailArgs) {
    return db.execute(
        std::string("UPDATE runs SET ") + kMutableColumns + tail, std::string(jobRunStatusName(r.run.status)),
        r.run.queueReason, nlohmann::json(r.run.arguments).dump(), formatOptional(r.run.startedAt),
        formatOptional(r.run.endedAt),
        r.run.exitCode ? std::optional<std::int64_t>(*r.run.exitCode) : std::nullopt, r.run.message,
        r.driverPid ? std::optional<std::int64_t>(r.driverPid) : std::nullopt,
        static_cast<std::int64_t>(r.driverStartTicks), r.runDir, r.logPath, r.cancelRequested,
        launchSpecJson(r), deployModeText(r), optionalText(r.sparkMaster), r.run.submissionId, tailArgs...);
}

template <SqlConnection Db> void update(Db& db, const RunRecord& r) {
    updateWhere(db, r, " WHERE run_id = ?", r.run.jobRunId);
}

// A write of the run that checks its status and who owns it: see RunStore::updateIfOwner.
template <SqlConnection Db>
bool updateIfOwner(Db& db, const RunRecord& r, const RunRecord& seen, bool fenced) {
    const std::string seenStatus(jobRunStatusName(seen.run.status));
    std::string where = ", owner = ?, owner_epoch = ? WHERE run_id = ? AND " + std::string(kActive) +
                        " AND status = ? AND COALESCE(owner, '') = ? AND COALESCE(owner_epoch, 0) = ?";
    if (!fenced)
        return updateWhere(db, r, where, optionalText(r.owner), optionalEpoch(r.ownerEpoch), r.run.jobRunId,
                           seenStatus, seen.owner, seen.ownerEpoch) > 0;
    where +=
        " AND EXISTS (SELECT 1 FROM replica_leases l WHERE l.replica_id = ? AND l.epoch = ? AND l.gone = 0)";
    return updateWhere(db, r, where, optionalText(r.owner), optionalEpoch(r.ownerEpoch), r.run.jobRunId,
                       seenStatus, seen.owner, seen.ownerEpoch, seen.owner, seen.ownerEpoch) > 0;
}

template <SqlConnection Db> int adoptRuns(Db& db, const std::string& owner, std::int64_t epoch) {
    return db.execute(std::string("UPDATE runs SET owner = ?, owner_epoch = ? WHERE (owner = ? AND ") +
                          kActive + ") OR (owner IS NULL AND status = 'SPARK_JOB_RUN_STATUS_RUNNING')",
                      owner, epoch, owner);
}

// `nowMs`: the dialect's expression of the database's clock in milliseconds since the epoch. A lease is
// live while it was renewed less than `leaseMs` ago on that clock and is not forgotten.
template <SqlConnection Db>
bool takeOverRun(Db& db, const char* nowMs, const std::string& runId, const std::string& from,
                 const std::string& to, std::int64_t toEpoch, std::int64_t leaseMs) {
    return db.execute(
               "UPDATE runs SET owner = ?, owner_epoch = ? WHERE run_id = ? AND owner = ? AND status = "
               "'SPARK_JOB_RUN_STATUS_RUNNING' AND NOT EXISTS (SELECT 1 FROM replica_leases l WHERE "
               "l.replica_id = ? AND l.gone = 0 AND l.renewed_ms > " +
                   std::string(nowMs) + " - ?)",
               to, toEpoch, runId, from, from, leaseMs) > 0;
}

template <SqlConnection Db>
std::vector<ReplicaLease> selectLeases(Db& db, const char* nowMs, const std::string& where,
                                       const std::string& replicaId) {
    auto q = db.query("SELECT replica_id, host, data_dir, claim, epoch, " + std::string(nowMs) +
                          " - renewed_ms, gone FROM replica_leases WHERE " + where,
                      replicaId);
    std::vector<ReplicaLease> leases;
    while (q.step()) {
        ReplicaLease& lease = leases.emplace_back();
        lease.replicaId = q.text(0);
        lease.host = q.text(1);
        lease.dataDir = q.text(2);
        lease.claim = q.text(3);
        lease.epoch = q.int64(4);
        lease.ageMs = q.int64(5);
        lease.gone = q.int64(6) != 0;
    }
    return leases;
}

template <SqlConnection Db> std::vector<ReplicaLease> replicaLeases(Db& db, const char* nowMs) {
    return selectLeases(db, nowMs, "replica_id <> ?", std::string());
}

// `lock`: the backend's locking clause for the lease's row (" FOR UPDATE"), or empty.
template <SqlConnection Db>
std::optional<ReplicaLease> findLease(Db& db, const char* nowMs, const std::string& replicaId,
                                      const std::string& lock = {}) {
    auto leases = selectLeases(db, nowMs, "replica_id = ?" + lock, replicaId);
    if (leases.empty())
        return std::nullopt;
    return std::move(leases.front());
}

template <SqlConnection Db> std::int64_t takeLease(Db& db, const char* nowMs, const ReplicaLease& lease) {
    const auto held = findLease(db, nowMs, lease.replicaId);
    const std::int64_t epoch = held ? held->epoch + 1 : 1;
    db.execute(
        "INSERT INTO replica_leases (replica_id, host, data_dir, claim, epoch, renewed_ms, gone) VALUES "
        "(?, ?, ?, ?, ?, " +
            std::string(nowMs) +
            ", 0) ON CONFLICT (replica_id) DO UPDATE SET host = excluded.host, data_dir = "
            "excluded.data_dir, claim = excluded.claim, epoch = excluded.epoch, renewed_ms = "
            "excluded.renewed_ms, gone = 0",
        lease.replicaId, lease.host, lease.dataDir, lease.claim, epoch);
    return epoch;
}

template <SqlConnection Db>
bool renewLease(Db& db, const char* nowMs, const std::string& replicaId, const std::string& claim,
                std::int64_t epoch) {
    return db.execute("UPDATE replica_leases SET renewed_ms = " + std::string(nowMs) +
                          " WHERE replica_id = ? AND claim = ? AND epoch = ? AND gone = 0",
                      replicaId, claim, epoch) > 0;
}

template <SqlConnection Db>
bool forgetReplica(Db& db, const char* nowMs, const std::string& replicaId, std::int64_t epoch,
                   std::int64_t leaseMs) {
    return db.execute(
               "UPDATE replica_leases SET epoch = epoch + 1, gone = 1 WHERE replica_id = ? AND epoch = ? "
               "AND gone = 0 AND renewed_ms <= " +
                   std::string(nowMs) + " - ?",
               replicaId, epoch, leaseMs) > 0;
}

template <SqlConnection Db> bool exists(Db& db, const std::string& runId) {
    return db.query("SELECT 1 FROM runs WHERE run_id = ?", runId).step();
}

template <SqlConnection Db> void remove(Db& db, const std::string& runId) {
    db.execute("DELETE FROM runs WHERE run_id = ?", runId);
}

// The runs `q` selects (kColumns), `args` bound in order.
template <SqlQuery Query> std::vector<RunRecord> readRuns(Query q, const std::vector<std::string>& args) {
    int index = 0;
    for (const auto& arg : args)
        q.bind(++index, arg);
    std::vector<RunRecord> result;
    while (q.step())
        result.push_back(readRow(q));
    return result;
}

template <SqlConnection Db>
std::vector<RunRecord> selectRuns(Db& db, const std::string& where, const std::vector<std::string>& args,
                                  const std::string& tail = {}) {
    return readRuns(db.prepare(std::string("SELECT ") + kColumns + " FROM runs WHERE " + where + " " + tail),
                    args);
}

// `lock`: the backend's locking clause for the run's row (" FOR UPDATE"), or empty.
template <SqlConnection Db>
std::optional<RunRecord> findById(Db& db, const std::string& runId, const std::string& lock = {}) {
    auto rows = selectRuns(db, "run_id = ?", {runId}, lock);
    if (rows.empty())
        return std::nullopt;
    return std::move(rows.front());
}

template <SqlConnection Db>
std::optional<RunRecord> find(Db& db, const std::string& projectUid, const std::string& runId,
                              const std::string& lock = {}) {
    auto rows = selectRuns(db, std::string("run_id = ? AND ") + kOfProject, {runId, projectUid}, lock);
    if (rows.empty())
        return std::nullopt;
    return std::move(rows.front());
}

// The runs with these ids, found through the run id's index, `lock` as find's (a statement locks its
// rows in the index's order). At most 32 ids per statement, the list padded to a power of two by
// repeating its last id, so that SQLite's statement cache holds a handful of texts, not one per count.
// Planned for its ids each time (prepareCustomPlanned): a plan made while `runs` was small scans it.
template <SqlConnection Db>
std::vector<RunRecord> findEach(Db& db, const std::vector<std::string>& runIds,
                                const std::string& lock = {}) {
    constexpr std::size_t kPerStatement = 32;
    std::vector<RunRecord> found;
    for (std::size_t first = 0; first < runIds.size(); first += kPerStatement) {
        const std::size_t count = std::min(kPerStatement, runIds.size() - first);
        std::size_t padded = 1;
        while (padded < count)
            padded *= 2;
        std::vector<std::string> args(runIds.begin() + static_cast<std::ptrdiff_t>(first),
                                      runIds.begin() + static_cast<std::ptrdiff_t>(first + count));
        args.resize(padded, args.back());
        std::string select = std::string("SELECT ") + kColumns + " FROM runs WHERE run_id IN (?";
        for (std::size_t i = 1; i < padded; ++i)
            select += ", ?";
        select += ") ";
        select += lock;
        for (auto& record : readRuns(db.prepareCustomPlanned(select), args))
            found.push_back(std::move(record));
    }
    return found;
}

template <SqlConnection Db>
std::vector<RunRecord> list(Db& db, const std::string& projectUid, const std::optional<std::string>& jobName,
                            bool activeOnly, std::optional<std::int64_t> limit) {
    std::string where = "project_uid = ?";
    std::vector<std::string> args{projectUid};
    if (jobName) {
        where += " AND job_name = ?";
        args.push_back(*jobName);
    }
    if (activeOnly)
        where += std::string(" AND ") + kActive;
    std::string tail = "ORDER BY id DESC";
    if (limit)
        tail += " LIMIT " + std::to_string(*limit);
    return selectRuns(db, where, args, tail);
}

template <SqlConnection Db> std::map<std::string, std::int64_t> countByStatus(Db& db) {
    std::map<std::string, std::int64_t> counts;
    auto q = db.query("SELECT status, COUNT(*) FROM runs GROUP BY status");
    while (q.step())
        counts[q.text(0)] = q.int64(1);
    return counts;
}

// A job's active runs, the job named by ?1 (the project) and ?2 (its name), the key ?3: one row whatever
// matches, the active count and the keyed run's columns (NULL when none has the key).
inline const std::string& activeRunsOfJobSql() {
    static const std::string job = "(SELECT job_id FROM jobs WHERE project_uid = ?1 AND name = ?2)";
    static const std::string sql = std::string("SELECT ") + kColumns +
                                   ", active.n FROM (SELECT COUNT(*) AS n FROM runs WHERE " +
                                   "project_uid = ?1 AND job_id = " + job + " AND " + kActive +
                                   ") AS active LEFT JOIN runs ON " + "project_uid = ?1 AND job_id = " + job +
                                   " AND idempotency_key = ?3 AND " + kActive + " ORDER BY id LIMIT 1";
    return sql;
}

// The query of activeRunsOfJobSql(), read by readActiveRuns().
template <SqlConnection Db>
auto activeRunsOfJob(Db& db, const std::string& projectUid, const std::string& jobName,
                     const std::optional<std::string>& idempotencyKey) {
    auto q = db.prepare(activeRunsOfJobSql());
    q.bind(1, projectUid).bind(2, jobName);
    if (idempotencyKey)
        q.bind(3, *idempotencyKey);
    else
        q.bind(3, nullptr);
    return q;
}

// The row of activeRunsOfJob()'s query.
template <SqlQuery Query> RunStore::ActiveRunsOfJob readActiveRuns(Query& q) {
    RunStore::ActiveRunsOfJob active;
    if (!q.step())
        return active;
    active.count = q.integer(kColumnCount);
    if (!q.isNull(0))
        active.withKey = readRow(q);
    return active;
}

template <SqlConnection Db> std::vector<RunRecord> withStatus(Db& db, JobRunStatus status) {
    return selectRuns(db, "status = ?", {std::string(jobRunStatusName(status))}, "ORDER BY id");
}

template <SqlConnection Db> std::vector<RunRecord> runningOwnedBy(Db& db, const std::string& owner) {
    return selectRuns(db, "status = 'SPARK_JOB_RUN_STATUS_RUNNING' AND owner = ?", {owner}, "ORDER BY id");
}

template <SqlConnection Db> std::vector<std::string> ownersOfRunning(Db& db) {
    auto q = db.query("SELECT DISTINCT owner FROM runs WHERE status = 'SPARK_JOB_RUN_STATUS_RUNNING' AND "
                      "owner IS NOT NULL AND owner <> ''");
    std::vector<std::string> owners;
    while (q.step())
        owners.push_back(q.text(0));
    return owners;
}

template <SqlConnection Db> std::vector<RunRecord> endedBefore(Db& db, const std::string& cutoff) {
    return selectRuns(
        db,
        "ended_at IS NOT NULL AND ended_at < ? AND status IN ('SPARK_JOB_RUN_STATUS_COMPLETED', "
        "'SPARK_JOB_RUN_STATUS_FAILED', 'SPARK_JOB_RUN_STATUS_CANCELED')",
        {cutoff}, "ORDER BY id");
}

// The clusters with QUEUED runs (RunStore::ClustersWithQueue). `lock`: with a locking backend inside a
// step, the step claims those whose row no other step holds (`FOR NO KEY UPDATE SKIP LOCKED`: one
// replica plans a cluster's slots at a time, the others plan the rest or skip it this tick, none
// waits). ALTER or DROP CLUSTER waits for the claim; CREATE JOB (a key share of the row) does not.
// Whether a cluster has queued runs is one probe of runs_queued_by_cluster.
template <SqlConnection Db> RunStore::ClustersWithQueue clustersWithQueue(Db& db, bool lock) {
    static const std::string sql =
        "SELECT c.project_uid, c.name FROM clusters c WHERE EXISTS (SELECT 1 FROM runs r WHERE r.project_uid "
        "= c.project_uid AND r.cluster = c.name AND r.status = 'SPARK_JOB_RUN_STATUS_QUEUED') ORDER BY c.id";
    const auto read = [&db](const std::string& text) {
        std::set<std::pair<std::string, std::string>> clusters;
        auto q = db.query(text);
        while (q.step())
            clusters.emplace(q.text(0), q.text(1));
        return clusters;
    };
    RunStore::ClustersWithQueue result;
    result.claimed = read(lock ? sql + " FOR NO KEY UPDATE OF c SKIP LOCKED" : sql);
    if (lock)
        for (auto& cluster : read(sql))
            if (!result.claimed.contains(cluster))
                result.held.insert(std::move(cluster));
    return result;
}

// The columns of a queued run as the scheduler plans it (RunStore::QueuedRun), `r` the runs table.
inline constexpr const char* kQueuedColumns =
    "r.id, r.run_id, r.project_uid, r.job_name, r.cluster, r.queue_reason, r.owner, r.run_dir";

template <SqlQuery Query> std::vector<RunStore::QueuedRun> readQueued(Query& q) {
    std::vector<RunStore::QueuedRun> result;
    while (q.step()) {
        RunStore::QueuedRun& queued = result.emplace_back();
        queued.position = q.int64(0);
        RunRecord& r = queued.run;
        r.run.jobRunId = q.text(1);
        r.projectUid = q.text(2);
        r.run.jobName = q.text(3);
        r.cluster = q.text(4);
        r.run.status = JobRunStatus::Queued;
        r.run.queueReason = q.optionalText(5);
        r.owner = q.optionalText(6).value_or("");
        r.runDir = q.optionalText(7).value_or("");
    }
    return result;
}

// The QUEUED runs on one cluster (?: project, ?: name) whose driver is not being started, the runs
// table's columns named with `prefix` ("r." or none): what runs_queued_by_cluster holds.
inline std::string queuedOnCluster(const std::string& prefix) {
    return prefix + "project_uid = ? AND " + prefix + "cluster = ? AND " + prefix +
           "status = 'SPARK_JOB_RUN_STATUS_QUEUED' AND COALESCE(" + prefix + "run_dir, '') = ''";
}

// The oldest of them, at most `limit`: a claim reads as many as the cluster has free slots, not the
// whole queue.
template <SqlConnection Db>
std::vector<RunStore::QueuedRun> queuedOn(Db& db, const std::string& projectUid, const std::string& cluster,
                                          int limit) {
    static const std::string sql = std::string("SELECT ") + kQueuedColumns + " FROM runs r WHERE " +
                                   queuedOnCluster("r.") + " ORDER BY r.id LIMIT ?";
    auto q = db.query(sql, projectUid, cluster, static_cast<std::int64_t>(limit));
    return readQueued(q);
}

template <SqlConnection Db> std::vector<RunStore::QueuedRun> queuedLaunching(Db& db) {
    static const std::string sql = std::string("SELECT ") + kQueuedColumns +
                                   " FROM runs r WHERE r.status = 'SPARK_JOB_RUN_STATUS_QUEUED' AND "
                                   "COALESCE(r.run_dir, '') <> '' ORDER BY r.id";
    auto q = db.query(sql);
    return readQueued(q);
}

// RunStore::setWaitingReason: the runs past the `skip` oldest that do not have the reason yet.
template <SqlConnection Db>
int setWaitingReason(Db& db, const std::string& projectUid, const std::string& cluster, int skip,
                     const std::string& reason) {
    static const std::string sql = "UPDATE runs SET queue_reason = ? WHERE " + queuedOnCluster("") +
                                   " AND (queue_reason IS NULL OR queue_reason <> ?) AND id NOT IN (SELECT "
                                   "r.id FROM runs r WHERE " +
                                   queuedOnCluster("r.") + " ORDER BY r.id LIMIT ?)";
    return db.execute(sql, reason, projectUid, cluster, reason, projectUid, cluster,
                      static_cast<std::int64_t>(skip));
}

// Every QUEUED run counted per project, cluster, queue reason, claimant and whether a run directory is
// recorded (RunStore::queuedCounts).
template <SqlConnection Db> std::vector<RunStore::QueuedCount> queuedCounts(Db& db) {
    auto q = db.query(
        "SELECT project_uid, cluster, queue_reason, COALESCE(owner, ''), CASE WHEN COALESCE(run_dir, "
        "'') = '' THEN 0 ELSE 1 END, COUNT(*) FROM runs WHERE status = 'SPARK_JOB_RUN_STATUS_QUEUED' "
        "GROUP BY 1, 2, 3, 4, 5");
    std::vector<RunStore::QueuedCount> result;
    while (q.step())
        result.push_back(
            {q.text(0), q.text(1), q.optionalText(2), q.text(3), q.integer(4) != 0, q.integer(5)});
    return result;
}

template <SqlConnection Db> std::map<std::pair<std::string, std::string>, int> runningPerCluster(Db& db) {
    auto q = db.query("SELECT project_uid, cluster, COUNT(*) FROM runs WHERE status = "
                      "'SPARK_JOB_RUN_STATUS_RUNNING' GROUP BY project_uid, cluster");
    std::map<std::pair<std::string, std::string>, int> result;
    while (q.step())
        result[{q.text(0), q.text(1)}] = q.integer(2);
    return result;
}

// The driver slots a project's runs take per cluster, counted as the scheduler counts them: RUNNING
// runs and QUEUED runs whose driver is being started (they have a run directory).
template <SqlConnection Db> std::map<std::string, int> driversInUse(Db& db, const std::string& projectUid) {
    auto q = db.query("SELECT cluster, COUNT(*) FROM runs WHERE project_uid = ? AND (status = "
                      "'SPARK_JOB_RUN_STATUS_RUNNING' OR (status = 'SPARK_JOB_RUN_STATUS_QUEUED' AND "
                      "COALESCE(run_dir, '') <> '')) GROUP BY cluster",
                      projectUid);
    std::map<std::string, int> result;
    while (q.step())
        result[q.text(0)] = q.integer(1);
    return result;
}

} // namespace jobdeck::run_rows
