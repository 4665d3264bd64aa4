#pragma once

#include "core/statements/Statement.h"
#include "core/wire/ApiStatus.h"

#include <functional>

namespace jobdeck {

struct RequestContext;

// The four run statements, which StatementExecutor hands to the run manager after parsing, the role
// check and before writing the audit entry. Implementations are called concurrently from the worker
// pool and must answer synchronously with a final status (SUCCESS, FAILED or INVALID).
class RunStatementHandler {
public:
    virtual ~RunStatementHandler() = default;
    // Writes what must be durable together with an admission (its request's audit entry and status),
    // given the admission's answer, inside the step that commits the admission. May be empty.
    using AdmissionRecorder = std::function<void(const ApiStatus& answer)>;

    virtual ApiStatus runJob(const RequestContext& context, const RunJobStatement& statement,
                             const AdmissionRecorder& recordWithAdmission) = 0;
    virtual ApiStatus describeJobRun(const RequestContext& context,
                                     const DescribeJobRunStatement& statement) = 0;
    virtual ApiStatus cancelJobRun(const RequestContext& context, const CancelJobRunStatement& statement) = 0;
    virtual ApiStatus showJobRuns(const RequestContext& context, const ShowJobRunsStatement& statement) = 0;
};

} // namespace jobdeck
