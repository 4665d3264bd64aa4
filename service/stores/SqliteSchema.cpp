#include "service/stores/SqliteSchema.h"

#include "service/stores/SchemaVersion.h"

#include <iterator>
#include <string>

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
    // 4: runs submitted in cluster deploy mode: where to, and the cluster manager's submission id, so a
    // restarted service keeps following them (RunManager, ClusterRunTracker).
    R"sql(
ALTER TABLE runs ADD COLUMN deploy_mode TEXT NOT NULL DEFAULT 'client' CHECK (deploy_mode IN ('client', 'cluster'));
ALTER TABLE runs ADD COLUMN spark_master TEXT;
ALTER TABLE runs ADD COLUMN submission_id TEXT;
)sql",
    // 5: the Jobs list's columns in name order (SHOW JOBS SUMMARY), read from the index alone rather
    // than from every job's row, parameters and all, in name order.
    R"sql(
CREATE INDEX jobs_summary ON jobs(project_uid, name, type, cluster, max_concurrent_runs, updated_at, job_id);
)sql",
    // 6: several jobdeckd on one database (docs/scale-out.md): the replica that starts and follows each
    // run, the replica that acknowledged each PENDING request, and each replica's last heartbeat
    // (milliseconds since the epoch on its clock), from which the others tell that it is gone.
    R"sql(
ALTER TABLE runs ADD COLUMN owner TEXT;
ALTER TABLE requests ADD COLUMN replica TEXT;
CREATE TABLE replicas (
    replica_id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    data_dir TEXT NOT NULL,
    heartbeat_ms INTEGER NOT NULL
);
)sql",
    // 7: fenced run ownership (docs/scale-out.md, "Several replicas"): each replica's lease, renewed on
    // the database's clock, with the token of the process that claimed the replica id and an epoch
    // that a forget or a new claim moves on; each run's owner epoch, which the owner's writes check.
    // The heartbeats' table goes, so a replica of an earlier version on the same database fails its
    // scheduler's every step (it starts and follows nothing) until it is upgraded; its last heartbeat
    // becomes its lease, which then runs out as any other.
    R"sql(
CREATE TABLE replica_leases (
    replica_id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    data_dir TEXT NOT NULL,
    claim TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    renewed_ms INTEGER NOT NULL,
    gone INTEGER NOT NULL DEFAULT 0
);
INSERT INTO replica_leases (replica_id, host, data_dir, claim, epoch, renewed_ms)
    SELECT replica_id, host, data_dir, '', 1, heartbeat_ms FROM replicas;
DROP TABLE replicas;
ALTER TABLE runs ADD COLUMN owner_epoch INTEGER;
)sql",
};

constexpr int knownVersion = static_cast<int>(std::size(migrations));

} // namespace

int SqliteSchema::version() {
    return knownVersion;
}

void SqliteSchema::migrate(SqliteDatabase& db) {
    db.transaction([&] {
        // Read the version before creating anything, so a newer database is never altered.
        int version = 0;
        {
            auto q = db.query(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'");
            q.step();
            if (q.int64(0) > 0) {
                auto v = db.query("SELECT max(version) FROM schema_version");
                if (v.step() && !v.isNull(0))
                    version = v.integer(0);
            }
        }
        if (version > knownVersion)
            throw newerSchemaRefusal(db.path(), version, knownVersion);
        if (version == knownVersion)
            return;
        if (version == 0)
            db.executeScript("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
        for (int next = version + 1; next <= knownVersion; ++next)
            db.executeScript(migrations[next - 1]);
        db.execute("DELETE FROM schema_version");
        db.execute("INSERT INTO schema_version(version) VALUES (?)", knownVersion);
    });
}

} // namespace jobdeck
