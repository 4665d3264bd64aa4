// The contract of the stores (service/stores/*Store.h), the same for every backend: each store
// method's behaviour, its conflicts and its errors. Registered for both backends: SQLite on a file of
// the test's own, and (service-postgresql.tst_storecontract, JOBDECK_TEST_BACKEND=postgresql) a
// PostgreSQL database of its own per test function on the process's private cluster (TestBackend).
#include "service/stores/DatabaseError.h"
#include "service/stores/OpenStores.h"
#include "service/stores/StatusJson.h"
#include "service/stores/Stores.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/SettledEvents.h"
#include "tests/support/TestBackend.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {

Cluster cluster(const std::string& name, int maxOcu = 2) {
    Cluster c;
    c.clusterId = "cluster-" + name;
    c.name = name;
    c.type = "Spark";
    c.maxOcu = maxOcu;
    c.minOcu = 1;
    c.with = {{"spark.executor.memory", "2g"}};
    c.createdAt = c.updatedAt = timestampNow();
    return c;
}

SparkJob job(const std::string& name, const std::string& clusterName) {
    SparkJob j;
    j.jobId = "job-" + name;
    j.name = name;
    j.type = JobType::Jar;
    j.cluster = clusterName;
    j.parameters = {"--class", "Main", "app.jar", name};
    j.maxConcurrentRuns = 2;
    j.createdAt = j.updatedAt = timestampNow();
    return j;
}

RunRecord runOf(const std::string& projectUid, const SparkJob& j, const std::string& runId,
                JobRunStatus status = JobRunStatus::Queued) {
    RunRecord r;
    r.projectUid = projectUid;
    r.cluster = j.cluster;
    r.run.jobRunId = runId;
    r.run.jobName = j.name;
    r.run.jobId = j.jobId;
    r.run.status = status;
    r.run.arguments = {"a", "b"};
    r.run.argumentOverrides = {{"a", "b"}};
    r.run.queuedAt = timestampNow();
    return r;
}

AuditEntry auditEntry(const std::string& projectUid, const std::string& statement) {
    AuditEntry e;
    e.at = timestampNow();
    e.projectUid = projectUid;
    e.keyId = "k";
    e.role = "admin";
    e.statement = statement;
    e.outcome = ApiOperationStatus::Success;
    e.requestId = "r-" + statement;
    return e;
}

ProjectEvent projectEvent(const std::string& type, const std::string& jobName) {
    ProjectEvent e;
    e.type = type;
    e.jobName = jobName;
    e.at = timestampNow();
    return e;
}

std::vector<std::string> runIds(const std::vector<RunRecord>& runs) {
    std::vector<std::string> ids;
    for (const auto& r : runs)
        ids.push_back(r.run.jobRunId);
    return ids;
}

std::vector<std::string> queuedIds(const std::vector<RunStore::QueuedRun>& runs) {
    std::vector<std::string> ids;
    for (const auto& queued : runs)
        ids.push_back(queued.run.run.jobRunId);
    return ids;
}

// Runs `write` and returns whether it failed as a constraint violation (a conflict).
template <class Write> bool conflicts(Write&& write) {
    try {
        write();
    } catch (const DatabaseError& e) {
        return e.isConstraintViolation();
    }
    return false;
}

} // namespace

class TestStoreContract final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(TestBackend::configurationError().isEmpty(), qPrintable(TestBackend::configurationError()));
    }

    void init() {
        if (TestBackend::isPostgresql()) {
            QString error;
            const QString uri = TestBackend::createPostgresDatabase(error);
            QVERIFY2(!uri.isEmpty(), qPrintable(error));
            m_stores = openStores(uri.toStdString());
        } else {
            m_dir = std::make_unique<QTemporaryDir>();
            m_stores = openStores("sqlite:" + m_dir->filePath("jobdeck.db").toStdString());
        }
        m_project = m_stores->keys().createKey("alpha", Role::Admin).projectUid;
        m_other = m_stores->keys().createKey("beta", Role::Admin).projectUid;
    }

    void cleanup() {
        m_stores.reset();
        m_dir.reset();
    }

    void projectsAreFoundByUidAndNameAndNamesAreUnique() {
        auto& projects = m_stores->projects();
        const std::string uid = projects.createProject("gamma");
        QCOMPARE(projects.findProjectUidByName("gamma").value_or(""), uid);
        const auto project = projects.findProject(uid);
        QVERIFY(project);
        QCOMPARE(project->name, std::string("gamma"));
        QVERIFY(project->settings == ProjectSettings{});
        QVERIFY(!projects.findProject("no-such-uid"));
        QVERIFY(!projects.findProjectUidByName("no-such-name"));
        QVERIFY(conflicts([&] { projects.createProject("gamma"); }));
    }

    void projectSettingsRoundTripAndUnknownProjectsHaveDefaults() {
        auto& projects = m_stores->projects();
        QVERIFY(projects.projectSettings("no-such-uid") == ProjectSettings{});
        ProjectSettings s;
        s.hudiConfigsEnabled = true;
        s.concurrentRunsEnabled = true;
        s.maxConcurrentRunsLimit = 4;
        s.hudiConfigAllowlist = {"hoodie.b.", "hoodie.a.", "hoodie.c"};
        projects.saveProjectSettings(m_project, s);
        ProjectSettings sorted = s;
        sorted.hudiConfigAllowlist = {"hoodie.a.", "hoodie.b.", "hoodie.c"};
        QVERIFY(projects.projectSettings(m_project) == sorted);
        s.hudiConfigAllowlist = {"hoodie.c"};
        projects.saveProjectSettings(m_project, s);
        QVERIFY(projects.projectSettings(m_project) == s);
        QVERIFY(projects.projectSettings(m_other) == ProjectSettings{});
    }

    void keysAuthenticateOnlyTheirSecretAndProject() {
        auto& keys = m_stores->keys();
        const CreatedKey key = keys.createKey("alpha", Role::Operator);
        QCOMPARE(key.projectUid, m_project); // the existing project
        QCOMPARE(key.projectName, std::string("alpha"));
        const auto principal = keys.authenticate(key.projectUid, key.apiKey, key.apiSecret);
        QVERIFY(principal);
        QCOMPARE(principal->keyId, key.apiKey);
        QCOMPARE(principal->projectName, std::string("alpha"));
        QVERIFY(principal->role == Role::Operator);
        const auto before = keys.secretComparisons();
        QVERIFY(!keys.authenticate(key.projectUid, key.apiKey, "wrong"));
        QVERIFY(!keys.authenticate(key.projectUid, "no-such-key", key.apiSecret));
        QVERIFY(!keys.authenticate(m_other, key.apiKey, key.apiSecret));
        QCOMPARE(keys.secretComparisons() - before, std::uint64_t(3)); // every path compares
        QVERIFY(keys.createKey("delta", Role::Viewer).projectUid != m_project);
        QVERIFY_THROWS_EXCEPTION(DatabaseError, keys.createKey("", Role::Admin));
    }

    void aRevokedKeyIsRefusedAndOthersStillWork() {
        auto& keys = m_stores->keys();
        const CreatedKey a = keys.createKey("alpha", Role::Admin);
        const CreatedKey b = keys.createKey("alpha", Role::Viewer);
        QVERIFY(keys.authenticate(a.projectUid, a.apiKey, a.apiSecret)); // cached now
        QVERIFY(keys.revokeKey(a.apiKey));
        QVERIFY(!keys.revokeKey("no-such-key"));
        const auto before = keys.secretComparisons();
        QVERIFY(!keys.authenticate(a.projectUid, a.apiKey, a.apiSecret));
        QCOMPARE(keys.secretComparisons() - before, std::uint64_t(1)); // a revoked key compares too
        QVERIFY(keys.authenticate(b.projectUid, b.apiKey, b.apiSecret));
    }

    // Every key, revoked ones too, by project name and then as created; never a secret or its hash.
    void keysAreListedByProjectThenAsCreated() {
        auto& keys = m_stores->keys();
        const CreatedKey z = keys.createKey("zulu", Role::Admin);
        const CreatedKey a1 = keys.createKey("alpha", Role::Operator);
        const CreatedKey a2 = keys.createKey("alpha", Role::Viewer);
        QVERIFY(keys.revokeKey(a1.apiKey));
        std::vector<KeyRows::Listed> listed = keys.listKeys();
        std::erase_if(listed, [&](const KeyRows::Listed& k) {
            return k.apiKey != z.apiKey && k.apiKey != a1.apiKey && k.apiKey != a2.apiKey;
        });
        QCOMPARE(listed.size(), std::size_t(3));
        QCOMPARE(listed[0].apiKey, a1.apiKey);
        QCOMPARE(listed[0].projectName, std::string("alpha"));
        QCOMPARE(listed[0].projectUid, a1.projectUid);
        QCOMPARE(listed[0].role, std::string("operator"));
        QVERIFY(listed[0].revoked);
        QCOMPARE(listed[1].apiKey, a2.apiKey);
        QVERIFY(!listed[1].revoked);
        QCOMPARE(listed[2].apiKey, z.apiKey);
        QCOMPARE(listed[2].projectName, std::string("zulu"));
        for (const auto& key : listed)
            QVERIFY(parseTimestamp(key.createdAt).has_value());
    }

    void projectNamesAreOneLineOfText() {
        auto& keys = m_stores->keys();
        const std::vector<std::string> refused{"a\nb", " a", "a ", "tab\there", std::string(257, 'p'),
                                               "\xff"};
        for (const std::string& name : refused)
            QVERIFY_THROWS_EXCEPTION(DatabaseError, keys.createKey(name, Role::Admin));
        QVERIFY(keys.createKey("Data Platform (EU)", Role::Admin).projectUid != m_project);
        QVERIFY(keys.createKey(std::string(256, 'p'), Role::Admin).projectUid != m_project);
    }

    void clustersAreScopedByProjectListedByNameAndUnique() {
        auto& clusters = m_stores->clusters();
        clusters.insertCluster(m_project, cluster("zeta"));
        clusters.insertCluster(m_project, cluster("eta"));
        const auto found = clusters.findCluster(m_project, "zeta");
        QVERIFY(found);
        QCOMPARE(found->clusterId, std::string("cluster-zeta"));
        QCOMPARE(found->maxOcu, 2);
        QVERIFY(found->with == cluster("zeta").with);
        const auto listed = clusters.listClusters(m_project);
        QCOMPARE(listed.size(), std::size_t(2));
        QCOMPARE(listed[0].name, std::string("eta"));
        QVERIFY(!clusters.findCluster(m_other, "zeta"));
        QVERIFY(clusters.listClusters(m_other).empty());
        // The same name again in the project, or the same id anywhere, is a conflict.
        QVERIFY(conflicts([&] { clusters.insertCluster(m_project, cluster("zeta")); }));
        Cluster sameName = cluster("zeta");
        sameName.clusterId = "another-id";
        QVERIFY(conflicts([&] { clusters.insertCluster(m_project, sameName); }));
        clusters.insertCluster(m_other, sameName); // another project may use the name
        Cluster changed = *found;
        changed.maxOcu = 5;
        changed.with = {};
        clusters.updateCluster(m_project, changed);
        QCOMPARE(clusters.findCluster(m_project, "zeta")->maxOcu, 5);
        QVERIFY(clusters.findCluster(m_project, "zeta")->with.empty());
        QCOMPARE(clusters.findClusterAsCommitted(m_project, "zeta")->maxOcu, 5);
        QVERIFY(!clusters.findClusterAsCommitted(m_project, "omega"));
        clusters.deleteCluster(m_other, changed.clusterId); // not the other project's to delete
        QVERIFY(clusters.findCluster(m_project, "zeta"));
        clusters.deleteCluster(m_project, changed.clusterId);
        QVERIFY(!clusters.findCluster(m_project, "zeta"));
        QVERIFY(!clusters.findClusterAsCommitted(m_project, "zeta"));
    }

    void jobsNeedTheirClusterAndAreUniqueByName() {
        auto& jobs = m_stores->jobs();
        QVERIFY(conflicts([&] { jobs.insertJob(m_project, job("orphan", "no-such-cluster")); }));
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        jobs.insertJob(m_project, job("b", "c"));
        jobs.insertJob(m_project, job("a", "c"));
        QVERIFY(conflicts([&] {
            SparkJob again = job("a", "c");
            again.jobId = "another-id";
            jobs.insertJob(m_project, again);
        }));
        // A cluster that jobs use cannot be deleted.
        QVERIFY(conflicts([&] { m_stores->clusters().deleteCluster(m_project, "cluster-c"); }));
        const auto found = jobs.findJob(m_project, "a");
        QVERIFY(found);
        QCOMPARE(found->jobId, std::string("job-a"));
        QVERIFY(found->parameters == job("a", "c").parameters);
        QCOMPARE(found->maxConcurrentRuns, 2);
        QCOMPARE(found->activeRuns, 0);
        QVERIFY(!jobs.findJob(m_other, "a"));
        std::vector<std::string> names;
        jobs.forEachJob(m_project, [&](SparkJob&& j) { names.push_back(j.name); });
        QCOMPARE(names, (std::vector<std::string>{"a", "b"}));
        std::vector<std::string> summaries;
        jobs.forEachJobSummary(m_project, 1, [&](SparkJobSummary&& s) { summaries.push_back(s.name); });
        QCOMPARE(summaries, std::vector<std::string>{"a"});
        summaries.clear();
        jobs.forEachJobSummary(m_project, -1, [&](SparkJobSummary&& s) { summaries.push_back(s.name); });
        QCOMPARE(summaries, (std::vector<std::string>{"a", "b"}));
        const auto [count, length] = jobs.jobsSize(m_project);
        QCOMPARE(count, std::int64_t(2));
        QVERIFY(length > 0);
        QCOMPARE(jobs.jobsSize(m_other).first, std::int64_t(0));
        QCOMPARE(jobs.jobNamesOnCluster(m_project, "c"), (std::vector<std::string>{"a", "b"}));
        QVERIFY(jobs.jobNamesOnCluster(m_other, "c").empty());
    }

    void jobsAreUpdatedAndDeletedByIdWithTheirRuns() {
        auto& jobs = m_stores->jobs();
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        m_stores->clusters().insertCluster(m_project, cluster("d"));
        const SparkJob a = job("a", "c");
        jobs.insertJob(m_project, a);
        m_stores->runs().insert(runOf(m_project, a, "run-1"));
        m_stores->runs().insert(runOf(m_project, a, "run-2", JobRunStatus::Running));
        m_stores->runs().insert(runOf(m_project, a, "run-3", JobRunStatus::Completed));
        QCOMPARE(jobs.activeRunCount(m_project, a.jobId), 2);
        QCOMPARE(jobs.findJob(m_project, "a")->activeRuns, 2);
        int summaryActive = -1;
        jobs.forEachJobSummary(m_project, -1, [&](SparkJobSummary&& s) { summaryActive = s.activeRuns; });
        QCOMPARE(summaryActive, 2);
        SparkJob changed = a;
        changed.cluster = "d";
        changed.parameters = {"other.jar"};
        changed.maxConcurrentRuns = 3;
        jobs.updateJob(m_project, changed);
        const auto found = jobs.findJob(m_project, "a");
        QCOMPARE(found->cluster, std::string("d"));
        QVERIFY(found->parameters == changed.parameters);
        QCOMPARE(found->maxConcurrentRuns, 3);
        SparkJob badCluster = changed;
        badCluster.cluster = "no-such-cluster";
        QVERIFY(conflicts([&] { jobs.updateJob(m_project, badCluster); }));
        jobs.deleteJob(m_project, a.jobId);
        QVERIFY(!jobs.findJob(m_project, "a"));
        QVERIFY(!m_stores->runs().exists("run-1")); // its runs go with it
    }

    // What an admission reads: the job (its own activeRuns field left uncounted), its project's
    // concurrent-run settings and the job's active runs with the one holding the key; a job of another
    // project is not found.
    void aJobToRunComesWithItsProjectsConcurrentRunSettings() {
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const SparkJob a = job("a", "c");
        m_stores->jobs().insertJob(m_project, a);
        RunRecord keyed = runOf(m_project, a, "run-1");
        keyed.run.idempotencyKey = "key-1";
        m_stores->runs().insert(keyed);
        m_stores->runs().insert(runOf(m_project, a, "run-2", JobRunStatus::Running));
        m_stores->runs().insert(runOf(m_project, a, "run-3", JobRunStatus::Completed));
        ProjectSettings settings;
        settings.concurrentRunsEnabled = true;
        settings.maxConcurrentRunsLimit = 4;
        m_stores->projects().saveProjectSettings(m_project, settings);
        const auto toRun = m_stores->unitOfWork().run(
            [&] { return m_stores->jobs().findJobToRun(m_project, "a", std::string("key-1")); });
        QVERIFY(toRun);
        QCOMPARE(toRun->job.jobId, a.jobId);
        QVERIFY(toRun->job.parameters == a.parameters);
        QCOMPARE(toRun->job.activeRuns, 0);
        QVERIFY(toRun->concurrentRuns.enabled);
        QCOMPARE(toRun->concurrentRuns.limit, 4);
        QCOMPARE(toRun->activeRuns.count, 2);
        QCOMPARE(toRun->activeRuns.withKey.value_or(RunRecord{}).run.jobRunId, std::string("run-1"));
        settings.concurrentRunsEnabled = false;
        m_stores->projects().saveProjectSettings(m_project, settings);
        const auto narrowed = m_stores->jobs().findJobToRun(m_project, "a", std::string("key-2"));
        QVERIFY(narrowed);
        QVERIFY(!narrowed->concurrentRuns.enabled);
        QCOMPARE(narrowed->activeRuns.count, 2);
        QVERIFY(!narrowed->activeRuns.withKey);
        QVERIFY(!m_stores->jobs().findJobToRun(m_other, "a", std::nullopt));
        QVERIFY(!m_stores->jobs().findJobToRun(m_project, "b", std::nullopt));
    }

    // An admission's insert goes with the step's commit: the run is there once the step committed, and
    // an active run of the job holding its key fails the step as a conflict, leaving nothing behind.
    void aRunInsertedLaterCommitsWithItsStepOrFailsItAsAConflict() {
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const SparkJob a = job("a", "c");
        m_stores->jobs().insertJob(m_project, a);
        RunRecord first = runOf(m_project, a, "run-1");
        first.run.idempotencyKey = "key-1";
        m_stores->unitOfWork().run([&] { m_stores->runs().insertLater(first); });
        QVERIFY(m_stores->runs().findById("run-1"));
        RunRecord again = runOf(m_project, a, "run-2");
        again.run.idempotencyKey = "key-1";
        QVERIFY(conflicts([&] {
            m_stores->unitOfWork().run([&] {
                m_stores->clusters().insertCluster(m_project, cluster("d"));
                m_stores->runs().insertLater(again);
            });
        }));
        QVERIFY(!m_stores->runs().findById("run-2"));
        QVERIFY(!m_stores->clusters().findCluster(m_project, "d"));
        QVERIFY(conflicts([&] { m_stores->runs().insertLater(again); }));
        RunRecord otherKey = runOf(m_project, a, "run-3");
        otherKey.run.idempotencyKey = "key-2";
        m_stores->runs().insertLater(otherKey);
        QVERIFY(m_stores->runs().findById("run-3"));
    }

    // A run, a job or a cluster found or written by its id is one of the project named with it.
    void rowsByIdStayInTheirProject() {
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const SparkJob a = job("a", "c");
        m_stores->jobs().insertJob(m_project, a);
        m_stores->runs().insert(runOf(m_project, a, "run-1"));
        QVERIFY(m_stores->runs().find(m_project, "run-1"));
        QVERIFY(!m_stores->runs().find(m_other, "run-1"));
        SparkJob changed = a;
        changed.maxConcurrentRuns = 3;
        m_stores->jobs().updateJob(m_other, changed);
        m_stores->jobs().deleteJob(m_other, a.jobId);
        const auto unchanged = m_stores->jobs().findJob(m_project, "a");
        QVERIFY(unchanged);
        QCOMPARE(unchanged->maxConcurrentRuns, a.maxConcurrentRuns);
        Cluster resized = cluster("c");
        resized.maxOcu = 9;
        m_stores->clusters().updateCluster(m_other, resized);
        m_stores->jobs().deleteJob(m_project, a.jobId);
        m_stores->clusters().deleteCluster(m_other, resized.clusterId);
        const auto kept = m_stores->clusters().findCluster(m_project, "c");
        QVERIFY(kept);
        QCOMPARE(kept->maxOcu, cluster("c").maxOcu);
    }

    // Several runs found in one read, as a tick reads the runs it writes: each of the project named
    // with it, in any number (more than one statement's worth), ids repeated or unknown.
    void severalRunsAreFoundAtOnceEachInItsProject() {
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const SparkJob a = job("a", "c");
        m_stores->jobs().insertJob(m_project, a);
        std::vector<std::pair<std::string, std::string>> wanted;
        for (int i = 0; i < 40; ++i) {
            const std::string id = "run-" + std::to_string(i);
            RunRecord r = runOf(m_project, a, id, i % 2 ? JobRunStatus::Running : JobRunStatus::Queued);
            r.owner = "replica-" + std::to_string(i);
            QVERIFY(m_stores->runs().insert(r));
            if (i != 7)
                wanted.emplace_back(i == 9 ? m_other : m_project, id);
        }
        wanted.emplace_back(m_project, "run-3");
        wanted.emplace_back(m_project, "run-none");
        const auto found = m_stores->runs().findEach(wanted);
        QCOMPARE(found.size(), std::size_t{38}); // not run-7 (not asked), run-9 (another project), run-none
        QVERIFY(!found.count("run-7") && !found.count("run-9") && !found.count("run-none"));
        for (const auto& [id, record] : found) {
            QCOMPARE(record.run.jobRunId, id);
            const int i = std::stoi(id.substr(4));
            QCOMPARE(record.owner, "replica-" + std::to_string(i));
            QCOMPARE(record.run.status, i % 2 ? JobRunStatus::Running : JobRunStatus::Queued);
        }
        QVERIFY(m_stores->runs().findEach({}).empty());
        QVERIFY(m_stores->runs().findEach({{m_other, "run-1"}}).empty());
    }

    // What a replica watches: its own RUNNING runs, and which replicas own the others.
    void runningRunsAreReadByOwner() {
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const SparkJob a = job("a", "c");
        m_stores->jobs().insertJob(m_project, a);
        const std::vector<std::tuple<std::string, JobRunStatus, std::string>> runs{
            {"run-1", JobRunStatus::Running, "replica-a"},   {"run-2", JobRunStatus::Running, "replica-b"},
            {"run-3", JobRunStatus::Running, "replica-a"},   {"run-4", JobRunStatus::Queued, "replica-c"},
            {"run-5", JobRunStatus::Completed, "replica-d"}, {"run-6", JobRunStatus::Running, ""}};
        for (const auto& [id, status, owner] : runs) {
            RunRecord r = runOf(m_project, a, id, status);
            r.owner = owner;
            QVERIFY(m_stores->runs().insert(r));
        }
        std::vector<std::string> owners = m_stores->runs().ownersOfRunningRuns();
        std::sort(owners.begin(), owners.end());
        QCOMPARE(owners, (std::vector<std::string>{"replica-a", "replica-b"}));
        std::vector<std::string> ids;
        for (const RunRecord& r : m_stores->runs().runningOwnedBy("replica-a"))
            ids.push_back(r.run.jobRunId);
        QCOMPARE(ids, (std::vector<std::string>{"run-1", "run-3"}));
        QCOMPARE(m_stores->runs().runningOwnedBy("replica-a").front().run.arguments,
                 (std::vector<std::string>{"a", "b"}));
        QVERIFY(m_stores->runs().runningOwnedBy("replica-c").empty());
        QVERIFY(m_stores->runs().runningOwnedBy("replica-d").empty());
    }

    void runsRoundTripAndAreListedNewestFirst() {
        auto& runs = m_stores->runs();
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const SparkJob a = job("a", "c"), b = job("b", "c");
        m_stores->jobs().insertJob(m_project, a);
        m_stores->jobs().insertJob(m_project, b);
        RunRecord first = runOf(m_project, a, "run-1");
        first.run.idempotencyKey = "key-1";
        first.run.queueReason = "waiting";
        first.clusterMode = true;
        first.sparkMaster = "spark://m:7077";
        first.owner = "replica-1";
        first.runDir = "/runs/run-1";
        runs.insert(first);
        runs.insert(runOf(m_project, b, "run-2", JobRunStatus::Running));
        runs.insert(runOf(m_project, a, "run-3", JobRunStatus::Failed));
        QVERIFY(conflicts([&] { runs.insert(runOf(m_project, a, "run-1")); }));
        QVERIFY(conflicts([&] {
            RunRecord noJob = runOf(m_project, a, "run-x");
            noJob.run.jobId = "no-such-job";
            runs.insert(noJob);
        }));
        const auto found = runs.find(m_project, "run-1");
        QVERIFY(found);
        QVERIFY(found->run == first.run);
        QVERIFY(found->clusterMode);
        QCOMPARE(found->sparkMaster, first.sparkMaster);
        QCOMPARE(found->owner, first.owner);
        QCOMPARE(found->runDir, first.runDir);
        QVERIFY(!runs.find(m_other, "run-1"));
        QVERIFY(runs.exists("run-1"));
        QVERIFY(!runs.exists("run-x"));
        QCOMPARE(runIds(runs.list(m_project, std::nullopt, false, std::nullopt)),
                 (std::vector<std::string>{"run-3", "run-2", "run-1"}));
        QCOMPARE(runIds(runs.list(m_project, std::string("a"), false, std::nullopt)),
                 (std::vector<std::string>{"run-3", "run-1"}));
        QCOMPARE(runIds(runs.list(m_project, std::nullopt, true, std::nullopt)),
                 (std::vector<std::string>{"run-2", "run-1"}));
        QCOMPARE(runIds(runs.list(m_project, std::nullopt, false, 1)), std::vector<std::string>{"run-3"});
        QVERIFY(runs.list(m_other, std::nullopt, false, std::nullopt).empty());
        runs.remove("run-3");
        QVERIFY(!runs.exists("run-3"));
    }

    void runUpdatesWriteEveryMutableColumnButTheOwner() {
        auto& runs = m_stores->runs();
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const SparkJob a = job("a", "c");
        m_stores->jobs().insertJob(m_project, a);
        RunRecord r = runOf(m_project, a, "run-1");
        runs.insert(r);
        r.run.status = JobRunStatus::Canceled;
        r.run.startedAt = timestampNow();
        r.run.endedAt = timestampNow();
        r.run.exitCode = 143;
        r.run.message = "Canceled by k";
        r.run.submissionId = "driver-1";
        r.driverPid = 4242;
        r.driverStartTicks = 99;
        r.logPath = "/runs/run-1/driver.log";
        r.cancelRequested = true;
        r.canceledBy = "k";
        r.launchSecrets = {"p4ss\"word", "t\u00f6ken"};
        r.owner = "replica-2";
        r.ownerEpoch = 2;
        runs.update(r);
        const auto found = runs.find(m_project, "run-1");
        QVERIFY(found);
        QVERIFY(found->run == r.run);
        QCOMPARE(found->driverPid, std::int64_t(4242));
        QCOMPARE(found->driverStartTicks, std::uint64_t(99));
        QCOMPARE(found->logPath, r.logPath);
        QVERIFY(found->cancelRequested);
        QCOMPARE(found->canceledBy, std::string("k"));
        QCOMPARE(found->launchSecrets, r.launchSecrets);
        // The owner is not a mutable column: it moves only with updateIfOwner and takeOverRun
        // (tst_runowners).
        QCOMPARE(found->owner, std::string());
        QCOMPARE(found->ownerEpoch, std::int64_t(0));
    }

    void runQueriesOfTheScheduler() {
        auto& runs = m_stores->runs();
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        Cluster othersCluster = cluster("c");
        othersCluster.clusterId = "cluster-c-of-beta";
        m_stores->clusters().insertCluster(m_other, othersCluster);
        const SparkJob a = job("a", "c");
        SparkJob otherJob = job("o", "c");
        otherJob.jobId = "job-other";
        m_stores->jobs().insertJob(m_project, a);
        m_stores->jobs().insertJob(m_other, otherJob);
        SparkJob otherA = job("a", "c");
        otherA.jobId = "job-a-of-beta";
        m_stores->jobs().insertJob(m_other, otherA);
        RunRecord keyed = runOf(m_project, a, "run-1");
        keyed.run.idempotencyKey = "key-1";
        runs.insert(keyed);
        runs.insert(runOf(m_other, otherJob, "run-2"));
        runs.insert(runOf(m_project, a, "run-3", JobRunStatus::Running));
        runs.insert(runOf(m_other, otherJob, "run-4", JobRunStatus::Running));
        RunRecord ended = runOf(m_project, a, "run-5", JobRunStatus::Completed);
        ended.run.endedAt = timestampNow() - 2h;
        runs.insert(ended);
        const auto counts = runs.countByStatus();
        QCOMPARE(counts.at("SPARK_JOB_RUN_STATUS_QUEUED"), std::int64_t(2));
        QCOMPARE(counts.at("SPARK_JOB_RUN_STATUS_RUNNING"), std::int64_t(2));
        QCOMPARE(counts.at("SPARK_JOB_RUN_STATUS_COMPLETED"), std::int64_t(1));
        // The active count and the keyed run in one read, as an admission asks for them.
        const auto activeRuns = [this](const std::string& project, const std::string& name,
                                       const std::optional<std::string>& key) {
            const auto toRun = m_stores->jobs().findJobToRun(project, name, key);
            return toRun ? toRun->activeRuns : RunStore::ActiveRunsOfJob{-1, std::nullopt};
        };
        const auto withKey = activeRuns(m_project, "a", std::string("key-1"));
        QCOMPARE(withKey.count, 2);
        QCOMPARE(withKey.withKey.value_or(RunRecord{}).run.jobRunId, std::string("run-1"));
        QCOMPARE(withKey.withKey.value_or(RunRecord{}).run.idempotencyKey,
                 std::optional<std::string>("key-1"));
        const auto otherKey = activeRuns(m_project, "a", std::string("key-2"));
        QCOMPARE(otherKey.count, 2);
        QVERIFY(!otherKey.withKey);
        const auto noKey = activeRuns(m_project, "a", std::nullopt);
        QCOMPARE(noKey.count, 2);
        QVERIFY(!noKey.withKey);
        QCOMPARE(activeRuns(m_other, "o", std::nullopt).count, 2);
        QCOMPARE(activeRuns(m_project, "no-such-job", std::string("key-1")).count, -1);
        // A job of the same name in another project has none of them.
        const auto otherProject = activeRuns(m_other, "a", std::string("key-1"));
        QCOMPARE(otherProject.count, 0);
        QVERIFY(!otherProject.withKey);
        QCOMPARE(runIds(runs.withStatus(JobRunStatus::Queued)), (std::vector<std::string>{"run-1", "run-2"}));
        QCOMPARE(runIds(runs.endedBefore(formatTimestamp(timestampNow() - 1h))),
                 std::vector<std::string>{"run-5"});
        QVERIFY(runs.endedBefore(formatTimestamp(timestampNow() - 3h)).empty());
        // What a claim reads: the clusters with queued runs, and a cluster's oldest queued runs.
        using ClusterKey = std::pair<std::string, std::string>;
        const auto clusters = runs.clustersWithQueue();
        QCOMPARE(clusters.claimed, (std::set<ClusterKey>{{m_project, "c"}, {m_other, "c"}}));
        QVERIFY(clusters.held.empty());
        QCOMPARE(runs.setWaitingReason(m_project, "c", 0, "cluster c is full"), 1); // not run-3, RUNNING
        QVERIFY(!runs.find(m_project, "run-3")->run.queueReason);
        const auto queued = runs.queuedOn(m_project, "c", 10);
        QCOMPARE(queuedIds(queued), std::vector<std::string>{"run-1"});
        QCOMPARE(queued[0].run.projectUid, m_project);
        QCOMPARE(queued[0].run.run.jobName, std::string("a"));
        QCOMPARE(queued[0].run.run.queueReason.value_or(""), std::string("cluster c is full"));
        QVERIFY(runs.queuedOn(m_project, "no-such-cluster", 10).empty());
        const auto running = runs.runningPerCluster();
        QCOMPARE(running.size(), std::size_t(2));
        QCOMPARE(running.at({m_project, "c"}), 1);
        QCOMPARE(running.at({m_other, "c"}), 1);
        // Counted per cluster, reason and owner, the runs being launched (a run directory recorded) apart.
        RunRecord launching = runOf(m_other, otherJob, "run-6");
        launching.runDir = "/runs/run-6";
        launching.owner = "replica-1";
        runs.insert(launching);
        RunRecord waiting = runOf(m_other, otherJob, "run-7");
        waiting.run.queueReason = "cluster c is full";
        runs.insert(waiting);
        runs.insert(runOf(m_other, otherJob, "run-8"));
        using Counted =
            std::tuple<std::string, std::string, std::optional<std::string>, std::string, bool, int>;
        std::vector<Counted> counted;
        for (const auto& c : runs.queuedCounts())
            counted.emplace_back(c.projectUid, c.cluster, c.queueReason, c.owner, c.launching, c.count);
        std::sort(counted.begin(), counted.end());
        std::vector<Counted> expected{{m_project, "c", "cluster c is full", "", false, 1},
                                      {m_other, "c", std::nullopt, "", false, 2},
                                      {m_other, "c", "cluster c is full", "", false, 1},
                                      {m_other, "c", std::nullopt, "replica-1", true, 1}};
        std::sort(expected.begin(), expected.end());
        QCOMPARE(counted, expected);
        // Oldest first, as many as asked for, without the run being launched; that one apart.
        const auto others = runs.queuedOn(m_other, "c", 10);
        QCOMPARE(queuedIds(others), (std::vector<std::string>{"run-2", "run-7", "run-8"}));
        QVERIFY(others[0].position < others[1].position && others[1].position < others[2].position);
        QCOMPARE(queuedIds(runs.queuedOn(m_other, "c", 2)), (std::vector<std::string>{"run-2", "run-7"}));
        const auto beingLaunched = runs.queuedLaunching();
        QCOMPARE(queuedIds(beingLaunched), std::vector<std::string>{"run-6"});
        QCOMPARE(beingLaunched[0].run.owner, std::string("replica-1"));
        QCOMPARE(beingLaunched[0].run.runDir, std::string("/runs/run-6"));
        // A waiting reason is written past the oldest `skip` runs, where a run does not have it yet.
        QCOMPARE(runs.setWaitingReason(m_other, "c", 1, "cluster c is full"), 1); // run-8
        QVERIFY(!runs.find(m_other, "run-2")->run.queueReason);
        QCOMPARE(runs.find(m_other, "run-8")->run.queueReason.value_or(""), std::string("cluster c is full"));
        QVERIFY(!runs.find(m_other, "run-6")->run.queueReason);
        QCOMPARE(runs.setWaitingReason(m_other, "c", 0, "cluster c is full"), 1); // run-2
        QCOMPARE(runs.setWaitingReason(m_other, "c", 0, "cluster c is full"), 0);
        // A finished key no longer counts as active.
        keyed.run.status = JobRunStatus::Failed;
        runs.update(keyed);
        QVERIFY(!activeRuns(m_project, "a", std::string("key-1")).withKey);
        QCOMPARE(activeRuns(m_project, "a", std::string("key-1")).count, 1);
    }

    // The leases are judged on the database's clock: an hour-long lease renewed just now is live, a
    // zero-long one has run out.
    void replicaLeasesAreClaimedRenewedAndForgotten() {
        auto& runs = m_stores->runs();
        auto& steps = m_stores->unitOfWork();
        QVERIFY(runs.replicaLeases().empty());
        const auto lease = [](const std::string& id, const std::string& claim) {
            ReplicaLease l;
            l.replicaId = id;
            l.host = "host-" + id;
            l.dataDir = "/data/" + id;
            l.claim = claim;
            return l;
        };
        QCOMPARE(steps.run([&] { return runs.takeLease(lease("r1", "c1")); }), std::int64_t(1));
        QCOMPARE(steps.run([&] { return runs.takeLease(lease("r2", "c2")); }), std::int64_t(1));
        QCOMPARE(steps.run([&] { return runs.takeLease(lease("r1", "c3")); }), std::int64_t(2));
        const auto all = runs.replicaLeases();
        QCOMPARE(all.size(), std::size_t(2));
        const auto r1 = runs.findLease("r1");
        QVERIFY(r1);
        QCOMPARE(r1->claim, std::string("c3"));
        QCOMPARE(r1->host, std::string("host-r1"));
        QCOMPARE(r1->epoch, std::int64_t(2));
        QVERIFY(!r1->gone);
        QVERIFY2(r1->ageMs >= 0 && r1->ageMs < 3600 * 1000,
                 "a lease renewed just now, on the database's clock");
        QVERIFY(!runs.findLease("no-such-replica"));
        // Only the claim and epoch that hold it renew it.
        QVERIFY(!steps.run([&] { return runs.renewLease("r1", "c1", 2); }));
        QVERIFY(!steps.run([&] { return runs.renewLease("r1", "c3", 1); }));
        QVERIFY(steps.run([&] { return runs.renewLease("r1", "c3", 2); }));
        // A live lease, a stale epoch and an unknown replica are not forgotten.
        QVERIFY(!steps.run([&] { return runs.forgetReplica("r1", 2, 3600 * 1000); }));
        QVERIFY(!steps.run([&] { return runs.forgetReplica("r1", 1, 0); }));
        QVERIFY(!steps.run([&] { return runs.forgetReplica("no-such-replica", 1, 0); }));
        QVERIFY(steps.run([&] { return runs.forgetReplica("r1", 2, 0); }));
        const auto forgotten = runs.findLease("r1");
        QVERIFY(forgotten->gone);
        QCOMPARE(forgotten->epoch, std::int64_t(3));
        QVERIFY(!steps.run([&] { return runs.renewLease("r1", "c3", 2); }));
        QVERIFY(!runs.findLease("r2")->gone);
    }

    void statusesAreScopedByProjectAndTheLastWordStays() {
        auto& statuses = m_stores->statuses();
        statuses.saveRequestStatus(m_project, "r1", StatusJson(ApiStatus::pending()));
        QVERIFY(!statuses.findRequestStatus(m_project, "r1")->isFinal());
        statuses.saveRequestStatus(m_project, "r1", StatusJson(ApiStatus::failed("nope")));
        QVERIFY(*statuses.findRequestStatus(m_project, "r1") == ApiStatus::failed("nope"));
        QVERIFY(!statuses.findRequestStatus(m_other, "r1"));
        // Another project cannot overwrite it; a PENDING does not replace a final status.
        statuses.saveRequestStatus(m_other, "r1", StatusJson(ApiStatus::success(nlohmann::json::object())));
        statuses.savePendingRequest(m_project, "r1");
        QVERIFY(*statuses.findRequestStatus(m_project, "r1") == ApiStatus::failed("nope"));
        QVERIFY(!statuses.findRequestStatus(m_project, "no-such-request"));
        TimePoint writtenAt{};
        QVERIFY(statuses.findCommittedRequestStatus(m_project, "r1", &writtenAt));
        QVERIFY(writtenAt != TimePoint{});
    }

    void deferredStatusesAreFoundAndReportTheirCommit() {
        auto& statuses = m_stores->statuses();
        // Reported from the group commit's thread, once that group is committed.
        std::atomic<bool> pendingCommitted = false, finalCommitted = false;
        statuses.deferPendingRequest(m_project, "r1", [&](bool ok) { pendingCommitted = ok; });
        statuses.deferRequestStatus(m_project, "r1", StatusJson(ApiStatus::failed("later")),
                                    [&](bool ok) { finalCommitted = ok; });
        // findRequestStatus commits the queue first.
        QVERIFY(*statuses.findRequestStatus(m_project, "r1") == ApiStatus::failed("later"));
        QTRY_VERIFY_WITH_TIMEOUT(pendingCommitted.load(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(finalCommitted.load(), 10000);
        statuses.deferPendingRequest(m_project, "r2");
        m_stores->flushDeferred();
        QVERIFY(!statuses.findCommittedRequestStatus(m_project, "r2")->isFinal());
    }

    void unfinishedRequestsAreFailedForTheirReplicaOnly() {
        auto& statuses = m_stores->statuses();
        statuses.setReplicaId("replica-1");
        statuses.savePendingRequest(m_project, "mine");
        statuses.setReplicaId("replica-2");
        statuses.savePendingRequest(m_project, "theirs");
        statuses.deferPendingRequest(m_other, "theirs-deferred");
        statuses.saveRequestStatus(m_project, "done",
                                   StatusJson(ApiStatus::success(nlohmann::json::object())));
        m_stores->flushDeferred();
        QCOMPARE(statuses.failUnfinishedRequestsOf("replica-1", "gone"), 1);
        QVERIFY(*statuses.findRequestStatus(m_project, "mine") == ApiStatus::failed("gone"));
        QVERIFY(!statuses.findRequestStatus(m_project, "theirs")->isFinal());
        // Replica 2 restarting: its own, in every project; a final status stays.
        QCOMPARE(statuses.failUnfinishedRequests("restarted"), 2);
        QVERIFY(*statuses.findRequestStatus(m_project, "theirs") == ApiStatus::failed("restarted"));
        QVERIFY(*statuses.findRequestStatus(m_other, "theirs-deferred") == ApiStatus::failed("restarted"));
        QVERIFY(*statuses.findRequestStatus(m_project, "done") ==
                ApiStatus::success(nlohmann::json::object()));
        QCOMPARE(statuses.failUnfinishedRequests("again"), 0);
        QCOMPARE(statuses.failUnfinishedRequestsOf("replica-1", "again"), 0);
    }

    void expiredStatusesAreNotFoundAndAreSwept() {
        auto& statuses = m_stores->statuses();
        for (const char* id : {"r1", "r2", "r3"})
            statuses.saveRequestStatus(m_project, id, StatusJson(ApiStatus::failed("old")));
        statuses.setStatusRetention(0s);
        QTRY_VERIFY_WITH_TIMEOUT(!statuses.findRequestStatus(m_project, "r1"), 10000);
        SweepStep step = statuses.sweepExpired(timestampNow() + 1h, 0);
        int deleted = step.deleted;
        for (int i = 0; i < 10 && !step.done; ++i) {
            step = statuses.sweepExpired(timestampNow() + 1h, step.last);
            deleted += step.deleted;
        }
        QVERIFY(step.done);
        QCOMPARE(deleted, 3);
    }

    void writeKeysAreScopedReplacedAndExpire() {
        auto& writeKeys = m_stores->writeKeys();
        const TimePoint now = timestampNow();
        writeKeys.saveWriteKey(m_project, {"k1", "hash-1", "request-1", now}, now - 1h);
        const auto found = writeKeys.findWriteKey(m_project, "k1", now - 1min);
        QVERIFY(found);
        QCOMPARE(found->statementHash, std::string("hash-1"));
        QCOMPARE(found->requestId, std::string("request-1"));
        QVERIFY(!writeKeys.findWriteKey(m_other, "k1", now - 1min));
        QVERIFY(!writeKeys.findWriteKey(m_project, "k1", now + 1min)); // recorded before notBefore
        // The same key again replaces it; an older one is dropped by a later save.
        writeKeys.saveWriteKey(m_project, {"k1", "hash-2", "request-2", now}, now - 1h);
        QCOMPARE(writeKeys.findWriteKey(m_project, "k1", now - 1min)->requestId, std::string("request-2"));
        writeKeys.saveWriteKey(m_project, {"k2", "hash-3", "request-3", now + 2h}, now + 1h);
        QVERIFY(!writeKeys.findWriteKey(m_project, "k1", now - 2h));
        QVERIFY(writeKeys.findWriteKey(m_project, "k2", now));
    }

    void auditKeepsTheOrderOfTheAnswersPerProject() {
        auto& audit = m_stores->audit();
        audit.deferAudit(auditEntry(m_project, "read 1"));
        audit.appendAudit(auditEntry(m_project, "write 2"));
        audit.deferAudit(auditEntry(m_other, "other"));
        AuditEntry failed = auditEntry(m_project, "write 3");
        failed.outcome = ApiOperationStatus::Failed;
        failed.errorMessage = "Job j does not exist";
        failed.headers = {{"x-onehouse-uuid", "u"}};
        audit.appendAudit(failed);
        const auto entries = audit.recentAudit(m_project, 10);
        QCOMPARE(entries.size(), std::size_t(3));
        QCOMPARE(entries[0].statement, std::string("write 3"));
        QCOMPARE(entries[0].outcome, ApiOperationStatus::Failed);
        QCOMPARE(entries[0].errorMessage, failed.errorMessage);
        QCOMPARE(entries[0].headers.at("x-onehouse-uuid"), std::string("u"));
        QCOMPARE(entries[1].statement, std::string("write 2"));
        QCOMPARE(entries[2].statement, std::string("read 1"));
        QCOMPARE(audit.recentAudit(m_project, 1).size(), std::size_t(1));
        QCOMPARE(audit.recentAudit(m_other, 10).size(), std::size_t(1));
        SweepStep step = audit.sweepExpired(timestampNow() + 1h, 0);
        int deleted = step.deleted;
        for (int i = 0; i < 10 && !step.done; ++i) {
            step = audit.sweepExpired(timestampNow() + 1h, step.last);
            deleted += step.deleted;
        }
        QCOMPARE(deleted, 4);
        QVERIFY(audit.recentAudit(m_project, 10).empty());
    }

    void eventsAreNumberedOverAllProjectsAndPruned() {
        auto& events = m_stores->events();
        QCOMPARE(events.latestEventSeq(m_project), std::int64_t(0));
        const auto s1 = events.appendEvent(m_project, projectEvent("JOB_CREATED", "a"));
        const auto s2 = events.appendEvent(m_other, projectEvent("JOB_CREATED", "o"));
        ProjectEvent runEvent = projectEvent("JOB_RUN_STATUS_CHANGED", "a");
        runEvent.jobRunId = "run-1";
        runEvent.status = JobRunStatus::Running;
        const auto s3 = events.appendEvent(m_project, runEvent);
        QVERIFY(s1 < s2 && s2 < s3);
        const auto after = settledEventsAfter(events, m_project, 0, 10);
        QCOMPARE(after.size(), std::size_t(2));
        QCOMPARE(after[0].seq, s1);
        QCOMPARE(after[1].jobRunId.value_or(""), std::string("run-1"));
        QVERIFY(after[1].status == JobRunStatus::Running);
        QCOMPARE(settledEventsAfter(events, m_project, s1, 10).size(), std::size_t(1));
        QCOMPARE(settledEventsAfter(events, m_project, 0, 1).size(), std::size_t(1));
        QCOMPARE(events.latestEventSeq(m_project), s3);
        QCOMPARE(events.latestEventSeq(m_other), s2);
        QCOMPARE(events.latestEventSeqOverall(), s3);
        QCOMPARE(events.prunedEventSeq(m_project), std::int64_t(0));
        events.pruneEvents(m_project, 1);
        QCOMPARE(events.prunedEventSeq(m_project), s1);
        QCOMPARE(settledEventsAfter(events, m_project, 0, 10).size(), std::size_t(1));
        QCOMPARE(settledEventsAfter(events, m_other, 0, 10).size(), std::size_t(1)); // not the other's
        // The highest seq handed out is remembered after pruning.
        events.pruneEvents(m_project, 0);
        QCOMPARE(events.latestEventSeqOverall(), s3);
    }

    // An event recorded without its seq read back (a step's last write) is stored with the step, after
    // the events before it, and not when the step fails.
    void aRecordedEventCommitsWithItsStep() {
        auto& events = m_stores->events();
        const auto before = events.appendEvent(m_project, projectEvent("JOB_CREATED", "a"));
        m_stores->unitOfWork().run([&] { events.recordEvent(m_project, projectEvent("JOB_ALTERED", "a")); });
        try {
            m_stores->unitOfWork().run([&] {
                events.recordEvent(m_project, projectEvent("JOB_DELETED", "a"));
                throw std::runtime_error("the step gives up");
            });
        } catch (const std::runtime_error&) {
        }
        const auto after = settledEventsAfter(events, m_project, before, 10);
        QCOMPARE(after.size(), std::size_t(1));
        QCOMPARE(after[0].type, std::string("JOB_ALTERED"));
        QVERIFY(after[0].seq > before);
    }

    void aStepCommitsItsWritesTogetherOrNotAtAll() {
        auto& work = m_stores->unitOfWork();
        std::vector<bool> ended;
        try {
            work.run([&] {
                QVERIFY(work.inStepOnThisThread());
                work.onStepEnd([&](bool committed) { ended.push_back(committed); });
                m_stores->clusters().insertCluster(m_project, cluster("c"));
                m_stores->events().appendEvent(m_project, projectEvent("CLUSTER_CREATED", ""));
                QVERIFY(m_stores->clusters().findCluster(m_project, "c")); // the step sees its own write
                throw std::runtime_error("abort");
            });
            QFAIL("the step's exception was swallowed");
        } catch (const std::runtime_error&) {
        }
        QCOMPARE(ended, std::vector<bool>{false});
        QVERIFY(!work.inStepOnThisThread());
        QVERIFY(!m_stores->clusters().findCluster(m_project, "c"));
        QCOMPARE(m_stores->events().latestEventSeq(m_project), std::int64_t(0));
        // A step inside a step joins it; the value comes back.
        const int answer = work.run([&] {
            m_stores->clusters().insertCluster(m_project, cluster("c"));
            return work.run([&] {
                work.onStepEnd([&](bool committed) { ended.push_back(committed); });
                return 42;
            });
        });
        QCOMPARE(answer, 42);
        QCOMPARE(ended, (std::vector<bool>{false, true}));
        QVERIFY(m_stores->clusters().findCluster(m_project, "c"));
    }

    void aConflictInsideAStepRollsBackTheWholeStep() {
        bool conflict = false;
        try {
            m_stores->unitOfWork().run([&] {
                m_stores->projects().createProject("first");
                conflict = conflicts([&] { m_stores->projects().createProject("alpha"); });
                if (conflict)
                    throw std::runtime_error("conflict");
            });
        } catch (const std::runtime_error&) {
        }
        QVERIFY(conflict);
        QVERIFY(!m_stores->projects().findProjectUidByName("first"));
    }

    void aSnapshotReadsOneState() {
        m_stores->clusters().insertCluster(m_project, cluster("c"));
        const auto snapshot = m_stores->unitOfWork().snapshot();
        QVERIFY(snapshot);
        QVERIFY(m_stores->clusters().findCluster(m_project, "c"));
        QCOMPARE(m_stores->clusters().listClusters(m_project).size(), std::size_t(1));
    }

    void theDatabaseAnswers() { QVERIFY(!m_stores->unavailableReason()); }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Stores> m_stores;
    std::string m_project;
    std::string m_other;
};

JOBDECK_TEST_GUILESS_MAIN(TestStoreContract)
#include "tst_storecontract.moc"
