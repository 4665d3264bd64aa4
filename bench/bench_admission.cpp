// LIBS: jobdeck_service jobdeck_testsupport Qt6::Core Qt6::Network Qt6::Test
// RUN JOB admission through the real jobdeckd: latency of refusals at the limit (one SQLite
// transaction each, no driver started) sequentially and in bursts of concurrent requests.
#include "tests/service/tst_runsupport.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

void report(const char* what, std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
        return ms[static_cast<std::size_t>(q * static_cast<double>(ms.size() - 1))];
    };
    std::printf("%-40s n=%zu p50=%.2f ms p95=%.2f ms max=%.2f ms\n", what, ms.size(), at(0.5), at(0.95),
                ms.back());
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    TestService service;
    Project project;
    if (!service.start() || !project.create(service)) {
        std::fprintf(stderr, "cannot start jobdeckd: %s\n", qPrintable(service.lastError()));
        return 1;
    }
    must(service, project.op, "CREATE CLUSTER b TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1");
    must(service, project.op,
         "CREATE JOB bench TYPE = 'PYTHON' PARAMETERS = " + tuple({kPythonApp, "--sleep", "600"}) +
             " CLUSTER = 'b'");
    const QString running = runIdOf(runJob(service, project.op, "bench"));
    if (running.isEmpty()) {
        std::fprintf(stderr, "RUN JOB failed\n");
        return 1;
    }

    std::vector<double> sequential;
    for (int i = 0; i < 300; ++i) {
        QElapsedTimer t;
        t.start();
        runJob(service, project.op, "bench");
        sequential.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    report("sequential refusals (HTTP round trip)", sequential);

    std::vector<double> bursts;
    for (int i = 0; i < 10; ++i) {
        QElapsedTimer t;
        t.start();
        concurrentStatements(service, project.op, std::vector<QString>(50, "RUN JOB bench"),
                             std::vector<QByteArray>(50, QByteArray()));
        bursts.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    report("bursts of 50 concurrent (whole burst)", bursts);

    runStatement(service, project.op, "CANCEL JOB_RUN `" + running + "` JOB_NAME = 'bench'");
    waitForRun(service, project.op, "bench", running, hasEnded());
    service.stop();
    return 0;
}
