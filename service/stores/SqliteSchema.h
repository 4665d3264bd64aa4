#pragma once

#include "service/stores/Migrations.h"
#include "service/stores/SqliteDatabase.h"

#include <span>

namespace jobdeck {

// jobdeckd's SQLite database: the schema (schema::migrations(), written once for both backends) and
// the versions it was released at before the shared numbering, brought up to date when it is opened.
//
//   projects(uid PK, name UNIQUE, hudi_configs_enabled, concurrent_runs_enabled,
//            max_concurrent_runs_limit, events_pruned_through, created_at)
//   project_allowlist(project_uid, entry, added_at)              PK(project_uid, entry)
//   api_keys(id PK, project_uid, key UNIQUE, role, salt, secret_hash, revoked, created_at)
//   clusters(id PK, cluster_id UNIQUE, project_uid, name, type, max_ocu, min_ocu,
//            with_pairs JSON [[k,v],...], created_at, updated_at)  UNIQUE(project_uid, name)
//   jobs(id PK, job_id UNIQUE, project_uid, name, type 'JAR'|'PYTHON', parameters JSON array,
//        cluster -> clusters(project_uid, name), max_concurrent_runs, created_at, updated_at)
//                                                                 UNIQUE(project_uid, name)
//        index jobs_summary(project_uid, name, type, cluster, max_concurrent_runs, updated_at, job_id)
//   runs(id PK (insertion order), run_id UNIQUE, project_uid, job_id -> jobs(job_id) ON DELETE CASCADE,
//        job_name, cluster, status (jobRunStatusName(): 'SPARK_JOB_RUN_STATUS_QUEUED', ...),
//        queue_reason, idempotency_key, argument_overrides JSON [[name,value],...],
//        arguments JSON array, queued_at, started_at, ended_at, exit_code, message,
//        driver_pid, monitor_pid, driver_start_ticks, run_dir, log_path, cancel_requested,
//        launch_spec JSON, deploy_mode 'client'|'cluster', spark_master, submission_id)
//   requests(request_id PK, project_uid, status JSON (ApiStatus), created_at, updated_at)
//   key_changes(id PK = 1, generation): bumped by triggers whenever api_keys rows change or go, so
//            the cache of verified keys notices a revocation made by any process
//   audit(seq PK AUTOINCREMENT, at, project_uid, key_id, role, statement, outcome, error_message,
//         request_id, headers JSON)
//   events(seq PK AUTOINCREMENT, project_uid, type, job_name, job_run_id, status, at)
//   write_keys(project_uid, idempotency_key, statement_hash, request_id, created_at)
//                                                                 PK(project_uid, idempotency_key)
// Times are ISO-8601 UTC text with milliseconds (formatTimestamp), so they sort as text.
class SqliteSchema final {
public:
    // Brings the database up to version(), in one transaction; a database whose schema is newer than
    // this binary is refused (DatabaseError with one clear line) and left untouched.
    // `list` is schema::migrations() but in tests.
    static void migrate(SqliteDatabase& db, std::span<const schema::Migration> list = schema::migrations());
    // The shared schema version this binary creates and understands.
    static int version();
    // SQLite's released versions 1-6 (entry i made version i + 1), as they were released.
    static std::span<const char* const> releasedMigrations();
};

} // namespace jobdeck
