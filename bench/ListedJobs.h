#pragma once

// The jobs the list benches seed (bench_service_reads' SHOW JOBS, bench_jobslist_e2e): written with the
// service's own store code (JobStore::insertJob) in one transaction, before or while the service runs,
// as 100,000 CREATE JOBs would take minutes.

#include "core/wire/Cluster.h"
#include "core/wire/SparkJob.h"
#include "core/wire/Timestamp.h"
#include "service/stores/SqliteStores.h"

#include <string>

namespace jobdeck::bench {

constexpr int kListedClusters = 20;

// Job i of `count`: names spread over the name order, a third PYTHON, clusters cluster_0..19.
inline SparkJob listedJob(int i, int count, TimePoint now) {
    SparkJob job;
    job.jobId = "00000000-0000-4000-8000-" + std::to_string(100000000000 + i);
    job.name = "list_job_" + std::to_string(i * 7919 % count);
    job.type = i % 3 == 0 ? JobType::Python : JobType::Jar;
    job.cluster = "cluster_" + std::to_string(i % kListedClusters);
    job.parameters = {"--class",
                      "com.example.App" + std::to_string(i % 20),
                      "--conf",
                      "spark.executor.memory=4g",
                      "s3://bucket-" + std::to_string(i % 100) + "/jobs/" + job.name + ".jar",
                      "--date",
                      "2026-11-30"};
    job.maxConcurrentRuns = 1 + i % 4;
    job.createdAt = now - std::chrono::minutes(i);
    job.updatedAt = now - std::chrono::seconds(i);
    return job;
}

// Writes their clusters and `count` listed jobs into the project of the database at `databasePath`.
inline void seedListedJobs(const std::string& databasePath, const std::string& projectUid, int count) {
    auto stores = SqliteStores::open(databasePath);
    const TimePoint now = timestampNow();
    stores->database().transaction([&] {
        for (int c = 0; c < kListedClusters; ++c) {
            Cluster cluster;
            cluster.clusterId = "00000000-0000-4000-9000-" + std::to_string(100000000000 + c);
            cluster.name = "cluster_" + std::to_string(c);
            cluster.createdAt = cluster.updatedAt = now;
            stores->clusters().insertCluster(projectUid, cluster);
        }
        for (int i = 0; i < count; ++i)
            stores->jobs().insertJob(projectUid, listedJob(i, count, now));
    });
}

} // namespace jobdeck::bench
