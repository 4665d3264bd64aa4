#pragma once

#include "service/stores/RunStore.h"
#include "service/stores/SqlConnection.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

// The SQL of the runs table, the same on both backends (`?` parameters), over either backend's connection
// (`Db`: SqliteDatabase or PgConnection). Every function runs on the connection it is given, so it joins
// the step under way there.
namespace jobdeck::run_rows {

inline constexpr const char* kColumns =
    "run_id, project_uid, job_id, job_name, cluster, status, queue_reason, idempotency_key, "
    "argument_overrides, arguments, queued_at, started_at, ended_at, exit_code, message, driver_pid, "
    "driver_start_ticks, run_dir, log_path, cancel_requested, launch_spec, deploy_mode, spark_master, "
    "submission_id, owner";

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
    }
    r.clusterMode = q.text(21) == "cluster";
    r.sparkMaster = q.optionalText(22).value_or("");
    r.run.submissionId = q.optionalText(23);
    r.owner = q.optionalText(24).value_or("");
    return r;
}

inline std::string launchSpecJson(const RunRecord& r) {
    return nlohmann::json{{"canceledBy", r.canceledBy}}.dump();
}

inline std::string deployModeText(const RunRecord& r) {
    return r.clusterMode ? "cluster" : "client";
}

inline std::optional<std::string> optionalText(const std::string& text) {
    return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

template <SqlConnection Db> void insert(Db& db, const RunRecord& r) {
    db.execute(std::string("INSERT INTO runs (") + kColumns +
                   ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
               r.run.jobRunId, r.projectUid, r.run.jobId, r.run.jobName, r.cluster,
               std::string(jobRunStatusName(r.run.status)), r.run.queueReason, r.run.idempotencyKey,
               overridesJson(r.run), nlohmann::json(r.run.arguments).dump(), formatTimestamp(r.run.queuedAt),
               formatOptional(r.run.startedAt), formatOptional(r.run.endedAt),
               r.run.exitCode ? std::optional<std::int64_t>(*r.run.exitCode) : std::nullopt, r.run.message,
               r.driverPid ? std::optional<std::int64_t>(r.driverPid) : std::nullopt,
               static_cast<std::int64_t>(r.driverStartTicks), r.runDir, r.logPath, r.cancelRequested,
               launchSpecJson(r), deployModeText(r), optionalText(r.sparkMaster), r.run.submissionId,
               optionalText(r.owner));
}

template <SqlConnection Db> void update(Db& db, const RunRecord& r) {
    db.execute(
        "UPDATE runs SET status = ?, queue_reason = ?, arguments = ?, started_at = ?, ended_at = ?, "
        "exit_code = ?, message = ?, driver_pid = ?, driver_start_ticks = ?, run_dir = ?, log_path = ?, "
        "cancel_requested = ?, launch_spec = ?, deploy_mode = ?, spark_master = ?, submission_id = ?, "
        "owner = ? WHERE run_id = ?",
        std::string(jobRunStatusName(r.run.status)), r.run.queueReason,
        nlohmann::json(r.run.arguments).dump(), formatOptional(r.run.startedAt),
        formatOptional(r.run.endedAt),
        r.run.exitCode ? std::optional<std::int64_t>(*r.run.exitCode) : std::nullopt, r.run.message,
        r.driverPid ? std::optional<std::int64_t>(r.driverPid) : std::nullopt,
        static_cast<std::int64_t>(r.driverStartTicks), r.runDir, r.logPath, r.cancelRequested,
        launchSpecJson(r), deployModeText(r), optionalText(r.sparkMaster), r.run.submissionId,
        optionalText(r.owner), r.run.jobRunId);
}

template <SqlConnection Db> bool exists(Db& db, const std::string& runId) {
    return db.query("SELECT 1 FROM runs WHERE run_id = ?", runId).step();
}

template <SqlConnection Db> void remove(Db& db, const std::string& runId) {
    db.execute("DELETE FROM runs WHERE run_id = ?", runId);
}

template <SqlConnection Db>
std::vector<RunRecord> selectRuns(Db& db, const std::string& where, const std::vector<std::string>& args,
                                  const std::string& tail = {}) {
    auto q = db.prepare(std::string("SELECT ") + kColumns + " FROM runs WHERE " + where + " " + tail);
    int index = 0;
    for (const auto& arg : args)
        q.bind(++index, arg);
    std::vector<RunRecord> result;
    while (q.step())
        result.push_back(readRow(q));
    return result;
}

template <SqlConnection Db>
std::optional<RunRecord> find(Db& db, const std::string& projectUid, const std::string& runId) {
    auto rows = selectRuns(db, "project_uid = ? AND run_id = ?", {projectUid, runId});
    if (rows.empty())
        return std::nullopt;
    return std::move(rows.front());
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
        where += " AND status IN ('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')";
    std::string tail = "ORDER BY id DESC";
    if (limit)
        tail += " LIMIT " + std::to_string(*limit);
    return selectRuns(db, where, args, tail);
}

template <SqlConnection Db> int countActive(Db& db, const std::string& projectUid, const std::string& jobId) {
    auto q = db.query("SELECT COUNT(*) FROM runs WHERE project_uid = ? AND job_id = ? AND status IN "
                      "('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')",
                      projectUid, jobId);
    return q.step() ? q.integer(0) : 0;
}

template <SqlConnection Db> std::map<std::string, std::int64_t> countByStatus(Db& db) {
    std::map<std::string, std::int64_t> counts;
    auto q = db.query("SELECT status, COUNT(*) FROM runs GROUP BY status");
    while (q.step())
        counts[q.text(0)] = q.int64(1);
    return counts;
}

template <SqlConnection Db>
std::optional<RunRecord> findActiveByKey(Db& db, const std::string& projectUid, const std::string& jobId,
                                         const std::string& idempotencyKey) {
    auto rows = selectRuns(db,
                           "project_uid = ? AND job_id = ? AND idempotency_key = ? AND status IN "
                           "('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')",
                           {projectUid, jobId, idempotencyKey}, "ORDER BY id LIMIT 1");
    if (rows.empty())
        return std::nullopt;
    return std::move(rows.front());
}

template <SqlConnection Db> std::vector<RunRecord> withStatus(Db& db, JobRunStatus status) {
    return selectRuns(db, "status = ?", {std::string(jobRunStatusName(status))}, "ORDER BY id");
}

template <SqlConnection Db> std::vector<RunRecord> endedBefore(Db& db, const std::string& cutoff) {
    return selectRuns(
        db,
        "ended_at IS NOT NULL AND ended_at < ? AND status IN ('SPARK_JOB_RUN_STATUS_COMPLETED', "
        "'SPARK_JOB_RUN_STATUS_FAILED', 'SPARK_JOB_RUN_STATUS_CANCELED')",
        {cutoff}, "ORDER BY id");
}

template <SqlConnection Db> std::vector<RunRecord> queuedBriefly(Db& db) {
    auto q = db.query("SELECT run_id, project_uid, job_name, cluster, queue_reason, owner, run_dir FROM runs "
                      "WHERE status = 'SPARK_JOB_RUN_STATUS_QUEUED' ORDER BY id");
    std::vector<RunRecord> result;
    while (q.step()) {
        RunRecord& r = result.emplace_back();
        r.run.jobRunId = q.text(0);
        r.projectUid = q.text(1);
        r.run.jobName = q.text(2);
        r.cluster = q.text(3);
        r.run.status = JobRunStatus::Queued;
        r.run.queueReason = q.optionalText(4);
        r.owner = q.optionalText(5).value_or("");
        r.runDir = q.optionalText(6).value_or("");
    }
    return result;
}

template <SqlConnection Db> void setQueueReason(Db& db, const std::string& runId, const std::string& reason) {
    db.execute("UPDATE runs SET queue_reason = ? WHERE run_id = ? AND status = 'SPARK_JOB_RUN_STATUS_QUEUED'",
               reason, runId);
}

template <SqlConnection Db> std::map<std::pair<std::string, std::string>, int> runningPerCluster(Db& db) {
    auto q = db.query("SELECT project_uid, cluster, COUNT(*) FROM runs WHERE status = "
                      "'SPARK_JOB_RUN_STATUS_RUNNING' GROUP BY project_uid, cluster");
    std::map<std::pair<std::string, std::string>, int> result;
    while (q.step())
        result[{q.text(0), q.text(1)}] = q.integer(2);
    return result;
}

template <SqlConnection Db>
void heartbeat(Db& db, const std::string& replicaId, const std::string& host, const std::string& dataDir,
               std::int64_t atMs) {
    db.execute("INSERT INTO replicas (replica_id, host, data_dir, heartbeat_ms) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (replica_id) DO UPDATE SET host = excluded.host, data_dir = excluded.data_dir, "
               "heartbeat_ms = excluded.heartbeat_ms",
               replicaId, host, dataDir, atMs);
}

template <SqlConnection Db> std::map<std::string, std::int64_t> replicaHeartbeats(Db& db) {
    auto q = db.query("SELECT replica_id, heartbeat_ms FROM replicas");
    std::map<std::string, std::int64_t> result;
    while (q.step())
        result[q.text(0)] = q.int64(1);
    return result;
}

template <SqlConnection Db> void forgetReplica(Db& db, const std::string& replicaId) {
    db.execute("DELETE FROM replicas WHERE replica_id = ?", replicaId);
}

} // namespace jobdeck::run_rows
