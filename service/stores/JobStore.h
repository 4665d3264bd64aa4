#pragma once

#include "core/policy/ConcurrentRuns.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobSummary.h"
#include "service/stores/RunStore.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

// Spark jobs by project: the stored fields (jobId, name, type, cluster, parameters, maxConcurrentRuns,
// times), with activeRuns counted from the project's runs.
class JobStore {
public:
    virtual ~JobStore() = default;
    // Inside a step the job's row is held until the step ends against writes of it (a share lock where
    // the backend locks rows; SQLite's step holds the one writer).
    virtual std::optional<SparkJob> findJob(const std::string& projectUid, const std::string& name) = 0;
    // The job read to be changed or deleted in the same step (ALTER JOB, DROP JOB): held as a writer holds
    // it, so two changes take turns (projectSettingsForUpdate).
    virtual std::optional<SparkJob> findJobForUpdate(const std::string& projectUid,
                                                     const std::string& name) = 0;
    // A job, what its project's settings say of its runs and its active runs (the one with
    // `idempotencyKey`, if one has it), for a decision about them (RUN JOB's admission). Inside a step the
    // job's row is held until the step ends against another such decision and any write of the job, so
    // that counting its active runs and inserting one cannot interleave with another replica's (other
    // jobs' rows are not held); the project's row is held shared, against a change of its settings but
    // not against other jobs' decisions. Both are as they are once held, and the active runs are read
    // once the job's row is held (in the same round trip where the server is remote), so they include
    // those the previous holder inserted. The job's own activeRuns field is not counted (0).
    struct JobToRun final {
        SparkJob job;
        ConcurrentRunsSettings concurrentRuns; // the project's
        RunStore::ActiveRunsOfJob activeRuns;
    };
    virtual std::optional<JobToRun> findJobToRun(const std::string& projectUid, const std::string& name,
                                                 const std::optional<std::string>& idempotencyKey) = 0;
    // The job as last committed, holding nothing even inside a step: for a step that reads what a run
    // starts with but decides nothing about the job (a claim), so that admissions of the job and
    // writes of it do not wait for that step.
    virtual std::optional<SparkJob> findJobAsCommitted(const std::string& projectUid,
                                                       const std::string& name) = 0;
    // Every job of the project by name, one at a time (100,000 jobs are not held at once).
    virtual void forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each) = 0;
    // Every job's summary (SHOW JOBS SUMMARY) by name, one at a time, the first `limit` (-1: all);
    // parameters are not read.
    virtual void forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                                   const std::function<void(SparkJobSummary&&)>& each) = 0;
    // How many jobs the project has, and the length of all their stored parameters (JSON text).
    virtual std::pair<std::int64_t, std::int64_t> jobsSize(const std::string& projectUid) = 0;
    virtual void insertJob(const std::string& projectUid, const SparkJob& job) = 0;
    virtual void updateJob(const std::string& projectUid, const SparkJob& job) = 0; // by jobId
    virtual void deleteJob(const std::string& projectUid, const std::string& jobId) = 0;
    // Runs of the job in QUEUED or RUNNING.
    virtual int activeRunCount(const std::string& projectUid, const std::string& jobId) = 0;
    // Names of the jobs that use the cluster, sorted.
    virtual std::vector<std::string> jobNamesOnCluster(const std::string& projectUid,
                                                       const std::string& cluster) = 0;
};

} // namespace jobdeck
