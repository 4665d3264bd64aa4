// jobdeckd as process 1 of a PID namespace, as the command of a container started without an init
// (`unshare --pid --fork` stands in for the container): every run's monitor is orphaned to process 1
// when its run ends, and must be reaped there; SIGTERM to process 1 (`docker stop`) stops the service
// cleanly. The real binary throughout.
#include "tests/runner/SuiteRegistry.h"
#include "tests/service/tst_runsupport.h"
#include "tests/support/ProcessState.h"

#include <QProcess>
#include <QTest>

#include <signal.h>
#include <unistd.h>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

// `unshare` making a PID namespace (and a user namespace that maps this user to root where it is not
// root already), with its own /proc as a container has.
QStringList namespaceCommand() {
    QStringList command{QStringLiteral("unshare")};
    if (::geteuid() != 0)
        command += {QStringLiteral("--user"), QStringLiteral("--map-root-user")};
    command += {QStringLiteral("--pid"), QStringLiteral("--fork"), QStringLiteral("--mount-proc")};
    return command;
}

// The zombies among the processes below `root`, `root` included.
int zombiesBelow(qint64 root) {
    int zombies = 0;
    QList<qint64> pending{root};
    while (!pending.isEmpty()) {
        const qint64 pid = pending.takeLast();
        zombies += test::statFields(pid).value(0) == "Z";
        pending += test::childProcesses(pid);
    }
    return zombies;
}

} // namespace

class TestProcessOne final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QProcess probe;
        probe.start(namespaceCommand().first(),
                    namespaceCommand().mid(1) + QStringList{QStringLiteral("true")});
        if (!probe.waitForFinished(20000) || probe.exitStatus() != QProcess::NormalExit ||
            probe.exitCode() != 0)
            QSKIP(qPrintable(QStringLiteral("this machine cannot make a PID namespace (%1): %2")
                                 .arg(namespaceCommand().join(QLatin1Char(' ')),
                                      QString::fromLocal8Bit(probe.readAllStandardError()).trimmed())));
    }

    void orphanedRunMonitorsAreReapedAndSigtermStopsTheService() {
        TestService service;
        service.setCommandPrefix(namespaceCommand());
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        Project project;
        QVERIFY(project.create(service));
        QVERIFY(createClusterAndPythonJob(service, project.admin, QStringLiteral("c1"),
                                          QStringLiteral("quick"),
                                          {QStringLiteral("--lines"), QStringLiteral("1")}));
        constexpr int kRuns = 4;
        for (int i = 0; i < kRuns; ++i) {
            const QString id = runIdOf(runJob(service, project.op, QStringLiteral("quick")));
            QVERIFY(!id.isEmpty());
            const auto run = waitForRun(service, project.op, QStringLiteral("quick"), id, hasEnded(), 60000);
            QCOMPARE(run.value("status", std::string()), std::string(kCompleted));
        }
        // Process 1 of the namespace is unshare's one child.
        const QList<qint64> init = test::childProcesses(service.processId());
        QCOMPARE(init.size(), 1);
        // Each monitor ends once its run's end is recorded; as an orphan it is a zombie until process 1
        // waits for it.
        QTRY_COMPARE_WITH_TIMEOUT(zombiesBelow(init.first()), 0, 30000);

        QCOMPARE(::kill(pid_t(init.first()), SIGTERM), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!service.isRunning(), 30000);
        QCOMPARE(service.stop(), 0); // the service's own exit status, through process 1 and unshare
        QVERIFY2(service.errorOutput().contains(QStringLiteral("signal 15 received: shutting down")),
                 qPrintable(service.errorOutput()));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestProcessOne)
#include "tst_processone.moc"
