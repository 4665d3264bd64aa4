// LIBS: jobdeck_models Qt6::Gui Qt6::Core
// How long the monitor's model takes to apply live updates of 1,000 active runs, behind the same
// active-runs proxy the monitor uses. Reference, measured in the same run: resetting the model with the
// same data (what a periodic full reload would cost). Prints per-batch times and the ratio.
#include "models/RunsTableModel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSortFilterProxyModel>

#include <cstdio>
#include <string>
#include <vector>

using namespace jobdeck;

namespace {

constexpr int kRuns = 1000;
constexpr int kBatches = 100;

std::vector<SparkJobRun> makeRuns(int batch) {
    std::vector<SparkJobRun> runs;
    runs.reserve(kRuns);
    const TimePoint base = timestampNow();
    for (int i = 0; i < kRuns; ++i) {
        SparkJobRun run;
        run.jobRunId = "run-" + std::to_string(i);
        run.jobName = "job-" + std::to_string(i % 20);
        // Alternates between queued and running, so every batch changes every run's state.
        run.status = (i + batch) % 2 ? JobRunStatus::Running : JobRunStatus::Queued;
        run.queuedAt = base + std::chrono::milliseconds(i);
        if (run.status == JobRunStatus::Running)
            run.startedAt = run.queuedAt + std::chrono::seconds(1);
        else
            run.queueReason = "Cluster main is at its capacity of 500 drivers";
        run.idempotencyKey = "key-" + std::to_string(i);
        run.argumentOverrides = {{"--date", "2026-11-30"}, {"--part", std::to_string(i)}};
        runs.push_back(std::move(run));
    }
    return runs;
}

struct Setup {
    RunsTableModel model;
    QSortFilterProxyModel active;
    Setup() {
        active.setSourceModel(&model);
        active.setFilterRole(RunsTableModel::ActiveRole);
        active.setFilterFixedString(QStringLiteral("true"));
        active.setSortRole(RunsTableModel::RawDataRole);
        active.sort(RunsTableModel::Queued);
        model.setRuns(makeRuns(0));
    }
};

double msPerBatch(qint64 ns) {
    return static_cast<double>(ns) / 1e6 / kBatches;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::vector<std::vector<SparkJobRun>> batches;
    for (int b = 1; b <= kBatches; ++b)
        batches.push_back(makeRuns(b));

    Setup live;
    QElapsedTimer timer;
    timer.start();
    for (const auto& batch : batches)
        live.model.upsertRuns(batch);
    const qint64 upsertNs = timer.nsecsElapsed();

    Setup reset;
    timer.restart();
    for (const auto& batch : batches)
        reset.model.setRuns(batch);
    const qint64 resetNs = timer.nsecsElapsed();

    // The clock tick: every active run's Elapsed cell, once a second in the monitor.
    timer.restart();
    for (int i = 0; i < kBatches; ++i)
        live.model.setNow(timestampNow());
    const qint64 tickNs = timer.nsecsElapsed();

    // Events one at a time (one DESCRIBE answer each) for one batch of 1,000 changes.
    Setup single;
    timer.restart();
    for (const SparkJobRun& run : batches.front())
        single.model.upsertRun(run);
    const qint64 singleNs = timer.nsecsElapsed();

    if (live.active.rowCount() != kRuns || reset.active.rowCount() != kRuns) {
        std::fprintf(stderr, "unexpected row counts: %d, %d\n", live.active.rowCount(),
                     reset.active.rowCount());
        return 1;
    }
    std::printf("runs model, %d active runs, %d batches, behind the active-runs proxy\n", kRuns, kBatches);
    std::printf("  upsertRuns (1,000 state changes in one batch): %8.3f ms per batch\n",
                msPerBatch(upsertNs));
    std::printf("  reference: setRuns (model reset, same data):    %8.3f ms per batch\n",
                msPerBatch(resetNs));
    std::printf("  ratio upsert / reset:                           %8.3f\n",
                static_cast<double>(upsertNs) / static_cast<double>(resetNs));
    std::printf("  setNow (elapsed tick of 1,000 rows):            %8.3f ms per tick\n", msPerBatch(tickNs));
    std::printf("  1,000 single upsertRun calls (one batch):       %8.3f ms\n",
                static_cast<double>(singleNs) / 1e6);
    return 0;
}
