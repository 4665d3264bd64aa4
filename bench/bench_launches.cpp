// LIBS: jobdeck_service jobdeck_testsupport Qt6::Core Qt6::Network Boost::boost Threads::Threads
// Starting the drivers of one scheduler tick (RunLauncher, through jobdeck-run-monitor): 32 runs of
// `/bin/sh -c 'exit 0'` started together (every monitor spawned, then each report read:
// RunLauncher::start and finish, as DriverWatch does) against the same 32 launched one after another
// (RunLauncher::launch), alternated in the same run. Each figure is the time until the 32nd driver
// was recorded; the drivers' ends are waited for between rounds.
// Usage: bench_launches [--rounds N]   (default 20)
#include "bench/ServiceBench.h"
#include "service/runs/RunLauncher.h"
#include "tests/support/TestService.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace jobdeck;
using namespace jobdeck::bench;

namespace {

constexpr int kPerTick = 32;

std::vector<LaunchSpec> tickOfLaunches(const QTemporaryDir& dir) {
    std::vector<LaunchSpec> specs;
    specs.reserve(kPerTick);
    for (int i = 0; i < kPerTick; ++i) {
        LaunchSpec spec;
        spec.runId = "run-" + std::to_string(i);
        spec.runDir = dir.filePath(QString::fromStdString(spec.runId)).toStdString();
        spec.logPath = spec.runDir + ".log";
        spec.argv = {"/bin/sh", "-c", "exit 0"};
        specs.push_back(std::move(spec));
    }
    return specs;
}

void waitForTheDrivers(const std::vector<LaunchSpec>& specs) {
    for (const auto& spec : specs)
        for (int i = 0; i < 1000 && !RunLauncher::readExitStatus(spec.runDir); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// Milliseconds until every driver of the tick was recorded.
double launchTick(bool together) {
    QTemporaryDir dir;
    const auto specs = tickOfLaunches(dir);
    const auto started = Clock::now();
    if (together) {
        std::vector<StartedLaunch> launches;
        launches.reserve(specs.size());
        for (const auto& spec : specs)
            launches.push_back(RunLauncher::start(spec));
        for (auto& launch : launches)
            if (const auto result = RunLauncher::finish(launch); !result.error.empty())
                throw std::runtime_error(result.error);
    } else {
        for (const auto& spec : specs)
            if (const auto result = RunLauncher::launch(spec); !result.error.empty())
                throw std::runtime_error(result.error);
    }
    const double ms = msSince(started);
    waitForTheDrivers(specs);
    return ms;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    try {
        int rounds = 20;
        readNumberOptions(app.arguments(), {{"--rounds", &rounds}});
        if (rounds < 1 || rounds > 10000)
            throw std::runtime_error("--rounds must be in [1, 10000]");
        // This program is not jobdeckd: the monitor is not beside it.
        qputenv("JOBDECKD_RUN_MONITOR", TestService::runMonitorPath().toUtf8());
        Figures together;
        Figures oneByOne;
        for (int i = 0; i < rounds; ++i) {
            together.ms.push_back(launchTick(true));
            oneByOne.ms.push_back(launchTick(false));
        }
        std::printf("%d launches of /bin/sh -c 'exit 0', %d rounds   p50 ms   p90 ms   x one by one\n",
                    kPerTick, rounds);
        std::printf("%-44s %8.1f %8.1f %12.2f\n", "started together (RunLauncher::start, finish)",
                    together.at(0.5), together.at(0.9), together.at(0.5) / oneByOne.at(0.5));
        std::printf("%-44s %8.1f %8.1f %12.2f\n", "one after another (RunLauncher::launch)", oneByOne.at(0.5),
                    oneByOne.at(0.9), 1.0);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_launches: %s\n", e.what());
        return 1;
    }
}
