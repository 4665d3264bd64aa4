// Who owns a run, at the store (RunStore) on this test process's backend (SQLite, or PostgreSQL as
// service-postgresql.tst_runowners): a write of the run's record by a replica that lost it never
// gives it back; a replica that renewed its lease is neither forgotten nor has its runs taken over on
// what was read before; a forgotten replica claims its lease again with a new epoch; RunWriter makes a
// change only when core's run lifecycle lets its actor make it.
#include "service/runs/EventBus.h"
#include "service/runs/ReplicaLeases.h"
#include "service/runs/RunWriter.h"
#include "service/stores/OpenStores.h"
#include "service/stores/Stores.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestBackend.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace jobdeck;

class TestRunOwners final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<Stores> openFresh() {
        if (!TestBackend::isPostgresql())
            return openStores("sqlite:" +
                              m_dir.filePath(QString("runs-%1.db").arg(++m_opened)).toStdString());
        QString error;
        const QString uri = TestBackend::createPostgresDatabase(error);
        if (uri.isEmpty())
            qWarning("no database: %s", qPrintable(error));
        return uri.isEmpty() ? nullptr : openStores(uri.toStdString());
    }
    int m_opened = 0;

    // A project with one job, `job`; its uid.
    static std::string projectWithJob(Stores& stores) {
        const std::string uid =
            stores.unitOfWork().run([&] { return stores.projects().createProject("owners"); });
        Cluster cluster;
        cluster.clusterId = "cluster-1";
        cluster.name = "c";
        cluster.createdAt = cluster.updatedAt = timestampNow();
        stores.unitOfWork().run([&] { stores.clusters().insertCluster(uid, cluster); });
        SparkJob job;
        job.jobId = "job-1";
        job.name = "job";
        job.cluster = "c";
        job.parameters = {"/app.jar"};
        job.applicationPath = "/app.jar";
        job.createdAt = job.updatedAt = timestampNow();
        stores.unitOfWork().run([&] { stores.jobs().insertJob(uid, job); });
        return uid;
    }

    static RunRecord runningRun(const std::string& projectUid, const std::string& id,
                                const std::string& owner) {
        RunRecord r;
        r.run.jobRunId = id;
        r.run.jobId = "job-1";
        r.run.jobName = "job";
        r.run.status = JobRunStatus::Running;
        r.run.queuedAt = timestampNow();
        r.projectUid = projectUid;
        r.cluster = "c";
        r.clusterMode = true;
        r.sparkMaster = "spark://127.0.0.1:6066";
        r.run.submissionId = "driver-1";
        r.owner = owner;
        return r;
    }

    static ReplicaLease leaseOf(const std::string& replicaId) {
        ReplicaLease lease;
        lease.replicaId = replicaId;
        lease.host = "host-" + replicaId;
        lease.dataDir = "/data/" + replicaId;
        lease.claim = "claim-" + replicaId;
        return lease;
    }

    // A RunWriter of a replica that holds its lease, on its own stores.
    struct Writing final {
        std::unique_ptr<Stores> stores;
        QTemporaryDir dataDir;
        ReplicaLeases leases;
        EventBus events;
        RunWriter writer;

        explicit Writing(std::unique_ptr<Stores> opened)
            : stores(std::move(opened))
            , leases(*stores, ReplicaIdentity::load(dataDir.path().toStdString()), std::chrono::seconds(60))
            , events(stores->events())
            , writer(*stores, events, leases) {
            leases.claim();
        }
        // nullptr when there are no stores (the failure is reported by openFresh) or no data directory.
        static std::unique_ptr<Writing> open(std::unique_ptr<Stores> opened) {
            if (!opened)
                return nullptr;
            auto writing = std::make_unique<Writing>(std::move(opened));
            return writing->dataDir.isValid() ? std::move(writing) : nullptr;
        }
    };

private slots:
    // A's record of the run, written after B took the run over (A was paused past its lease), leaves
    // the run B's, whether written as its owner or not.
    void aWriteOfTheFormerOwnerLeavesTheRunWithItsNewOwner() {
        const auto stores = openFresh();
        QVERIFY(stores);
        auto& runs = stores->runs();
        const std::int64_t epochOfA = stores->unitOfWork().run([&] { return runs.takeLease(leaseOf("a")); });
        const std::int64_t epochOfB = stores->unitOfWork().run([&] { return runs.takeLease(leaseOf("b")); });
        RunRecord ofA = runningRun(projectWithJob(*stores), "run-1", "a");
        ofA.ownerEpoch = epochOfA;
        stores->unitOfWork().run([&] { runs.insert(ofA); });
        // A's lease was not renewed for "0 ms": forgotten, and its run taken over by B.
        QVERIFY(stores->unitOfWork().run([&] { return runs.forgetReplica("a", epochOfA, 0); }));
        QVERIFY(stores->unitOfWork().run([&] { return runs.takeOverRun("run-1", "a", "b", epochOfB, 0); }));

        RunRecord stale = ofA;
        stale.run.message = "written by A after its pause";
        QVERIFY(!stores->unitOfWork().run([&] { return runs.updateIfOwner(stale, ofA, true); }));
        QVERIFY(!stores->unitOfWork().run([&] { return runs.updateIfOwner(stale, ofA, false); }));
        stores->unitOfWork().run([&] { runs.update(stale); }); // a cancel's write: never the owner
        const auto now = runs.find(ofA.projectUid, "run-1");
        QCOMPARE(now->owner, std::string("b"));
        QCOMPARE(now->ownerEpoch, epochOfB);

        // B's own write as the owner goes through.
        RunRecord ofB = *now;
        ofB.run.status = JobRunStatus::Completed;
        QVERIFY(stores->unitOfWork().run([&] { return runs.updateIfOwner(ofB, *now, true); }));
        QCOMPARE(runs.find(ofA.projectUid, "run-1")->run.status, JobRunStatus::Completed);
    }

    // B read A's lease as run out; A renewed before B forgot it: A is not forgotten, and its run is not
    // taken over.
    void aReplicaThatRenewedIsNotForgotten() {
        const auto stores = openFresh();
        QVERIFY(stores);
        auto& runs = stores->runs();
        const std::int64_t epoch = stores->unitOfWork().run([&] { return runs.takeLease(leaseOf("a")); });
        RunRecord ofA = runningRun(projectWithJob(*stores), "run-1", "a");
        ofA.ownerEpoch = epoch;
        stores->unitOfWork().run([&] { runs.insert(ofA); });
        constexpr std::int64_t leaseMs = 1000;
        QTest::qWait(1500);                    // at least that long on the database's clock too
        const auto read = runs.findLease("a"); // B's read: A's lease ran out
        QVERIFY(read && read->ageMs >= leaseMs && !read->gone);
        QVERIFY(stores->unitOfWork().run([&] { return runs.renewLease("a", "claim-a", epoch); }));
        QVERIFY(!stores->unitOfWork().run([&] { return runs.forgetReplica("a", read->epoch, leaseMs); }));
        QVERIFY(!stores->unitOfWork().run([&] { return runs.takeOverRun("run-1", "a", "b", 7, leaseMs); }));
        QVERIFY(!runs.findLease("a")->gone);
        QCOMPARE(runs.find(ofA.projectUid, "run-1")->owner, std::string("a"));
    }

    // A forgotten replica cannot renew; it claims its lease again with a new epoch and gets back the
    // runs nobody took over.
    void aForgottenReplicaClaimsItsLeaseAgain() {
        const auto stores = openFresh();
        QVERIFY(stores);
        auto& runs = stores->runs();
        const std::int64_t first = stores->unitOfWork().run([&] { return runs.takeLease(leaseOf("a")); });
        RunRecord ofA = runningRun(projectWithJob(*stores), "run-1", "a");
        ofA.clusterMode = false; // a client-mode run: nobody takes it over
        ofA.ownerEpoch = first;
        stores->unitOfWork().run([&] { runs.insert(ofA); });
        QVERIFY(stores->unitOfWork().run([&] { return runs.forgetReplica("a", first, 0); }));
        QVERIFY(runs.findLease("a")->gone);
        QVERIFY(!stores->unitOfWork().run([&] { return runs.renewLease("a", "claim-a", first); }));
        QVERIFY(!stores->unitOfWork().run([&] { return runs.updateIfOwner(ofA, ofA, true); }));

        const std::int64_t second = stores->unitOfWork().run([&] {
            const auto epoch = runs.takeLease(leaseOf("a"));
            runs.adoptRuns("a", epoch);
            return epoch;
        });
        QVERIFY(second > first);
        QVERIFY(!runs.findLease("a")->gone);
        const auto adopted = runs.find(ofA.projectUid, "run-1");
        QCOMPARE(adopted->ownerEpoch, second);
        QVERIFY(stores->unitOfWork().run([&] { return runs.updateIfOwner(*adopted, *adopted, true); }));
    }

    // RunWriter writes a change only when core's run lifecycle lets its actor make it: neither a cancel
    // nor a successor completes a run, its owner does, and an ended run never changes again.
    void aChangeTheLifecycleRefusesIsNotWritten() {
        const auto writing = Writing::open(openFresh());
        QVERIFY(writing);
        const auto& stores = writing->stores;
        ReplicaLeases& leases = writing->leases;
        RunWriter& writer = writing->writer;
        RunRecord run = runningRun(projectWithJob(*stores), "run-1", leases.self().id());
        run.clusterMode = false;
        run.run.submissionId.reset();
        run.ownerEpoch = leases.epoch();
        stores->unitOfWork().run([&] { stores->runs().insert(run); });

        RunRecord completed = run;
        completed.run.status = JobRunStatus::Completed;
        completed.run.endedAt = timestampNow();
        QCOMPARE(writer.saveNow({{completed, RunActor::Cancel}}), 0);
        QCOMPARE(writer.saveNow({{completed, RunActor::Successor}}), 0);
        QCOMPARE(stores->runs().find(run.projectUid, "run-1")->run.status, JobRunStatus::Running);
        QCOMPARE(writer.saveNow({{completed, RunActor::Owner}}), 1);
        QCOMPARE(stores->runs().find(run.projectUid, "run-1")->run.status, JobRunStatus::Completed);

        RunRecord failed = completed;
        failed.run.status = JobRunStatus::Failed;
        QCOMPARE(writer.saveNow({{failed, RunActor::Owner}}), 0);
        QCOMPARE(stores->runs().find(run.projectUid, "run-1")->run.status, JobRunStatus::Completed);
    }

    // A tick's changes are one step, whose runs are read together: each change is checked against its
    // own run's row, and a run changed twice against what the step wrote of it first.
    void aTicksChangesAreEachCheckedAgainstTheirOwnRun() {
        const auto writing = Writing::open(openFresh());
        QVERIFY(writing);
        const auto& stores = writing->stores;
        ReplicaLeases& leases = writing->leases;
        RunWriter& writer = writing->writer;
        const std::string project = projectWithJob(*stores);
        std::vector<RunWriter::Change> changes;
        for (const std::string id : {"run-1", "run-2", "run-3"}) {
            RunRecord run = runningRun(project, id, id == "run-3" ? "replica-other" : leases.self().id());
            run.clusterMode = false;
            run.run.submissionId.reset();
            run.ownerEpoch = leases.epoch();
            stores->unitOfWork().run([&] { stores->runs().insert(run); });
            run.owner = leases.self().id(); // run-3 is another replica's: not written
            run.run.status = JobRunStatus::Completed;
            run.run.endedAt = timestampNow();
            changes.push_back({run, RunActor::Owner});
        }
        RunRecord failedAfter = changes.front().record; // run-1 again, after the step completed it
        failedAfter.run.status = JobRunStatus::Failed;
        changes.push_back({failedAfter, RunActor::Owner});
        // run-4, claimed (Starting): its driver starts, then spark-submit reports the submission id.
        // Running -> Submitted is the owner's to make, Starting -> Submitted is not.
        RunRecord starting = runningRun(project, "run-4", leases.self().id());
        starting.run.status = JobRunStatus::Queued;
        starting.run.submissionId.reset();
        starting.runDir = "/runs/run-4";
        starting.ownerEpoch = leases.epoch();
        stores->unitOfWork().run([&] { stores->runs().insert(starting); });
        RunRecord started = starting;
        started.run.status = JobRunStatus::Running;
        started.driverPid = 4242;
        changes.push_back({started, RunActor::Owner});
        RunRecord submitted = started;
        submitted.run.submissionId = "driver-4";
        changes.push_back({submitted, RunActor::Owner});
        QCOMPARE(writer.saveNow(changes), 4);
        QCOMPARE(stores->runs().find(project, "run-1")->run.status, JobRunStatus::Completed);
        QCOMPARE(stores->runs().find(project, "run-2")->run.status, JobRunStatus::Completed);
        QCOMPARE(stores->runs().find(project, "run-3")->run.status, JobRunStatus::Running);
        QCOMPARE(stores->runs().find(project, "run-3")->owner, std::string("replica-other"));
        const auto run4 = stores->runs().find(project, "run-4");
        QCOMPARE(run4->run.status, JobRunStatus::Running);
        QCOMPARE(run4->run.submissionId, std::optional<std::string>("driver-4"));
        QCOMPARE(run4->driverPid, std::int64_t{4242});
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunOwners)
#include "tst_runowners.moc"
