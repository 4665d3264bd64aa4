#pragma once

#include "core/statements/Statement.h"
#include "core/wire/ApiStatus.h"
#include "service/stores/RunStore.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace jobdeck {

class RunWriter;
class Stores;
struct RequestContext;

// DESCRIBE JOB_RUN, CANCEL JOB_RUN and SHOW JOB_RUNS (CONTRACT §4), answered from the runs table. A
// cancel is recorded on the run, or ends it at once when no replica claimed it yet; then `stopCanceled`
// (DriverWatch) acts on the driver. Called concurrently from the request workers.
class RunStatements final {
public:
    // `transitions`: the run manager's mutex, held while runs change (taken before the database's).
    RunStatements(Stores& stores, RunWriter& writer, std::mutex& transitions,
                  std::function<void(RunRecord&)> stopCanceled);

    ApiStatus describeJobRun(const RequestContext& context, const DescribeJobRunStatement& statement);
    ApiStatus cancelJobRun(const RequestContext& context, const CancelJobRunStatement& statement);
    ApiStatus showJobRuns(const RequestContext& context, const ShowJobRunsStatement& statement);
    // The run if it belongs to the project and the job.
    std::optional<RunRecord> findRun(const std::string& projectUid, const std::string& jobName,
                                     const std::string& runId);

private:
    Stores& m_stores;
    RunStore& m_runs;
    RunWriter& m_writer;
    std::mutex& m_transitions;
    const std::function<void(RunRecord&)> m_stopCanceled;
};

} // namespace jobdeck
