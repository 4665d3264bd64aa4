#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// Where a driver submitted in cluster deploy mode stands, as `spark-submit --status` said.
struct DriverStatus final {
    enum class Kind {
        Active,     // standalone SUBMITTED, RUNNING, RELAUNCHING; Kubernetes Pending, Running
        Finished,   // FINISHED; Succeeded
        Failed,     // FAILED; Failed
        Error,      // ERROR: the cluster could not run it (message says why)
        Killed,     // KILLED
        Unknown,    // UNKNOWN; Unknown: the cluster manager lost track of it
        NotFound,   // the cluster manager does not know the submission id
        Unreadable, // no answer could be read (master unreachable, unexpected output, another driver's)
    } kind = Kind::Unreadable;
    std::string state;   // as the cluster manager named it ("RUNNING", "Succeeded", ...), empty if none
    std::string message; // the answer's message (an ERROR's exception), empty if none
};

// Reads what spark-submit prints in cluster deploy mode: a standalone master's REST submission client
// (log lines and the server's JSON answers, see RestSubmissionClient) and Kubernetes' submission
// client (the driver pod's phase).
//
// spark-submit --verbose echoes what it was given (the job's options and the application's arguments)
// before the submission client runs, and a job may print anything there, fake client lines included. So
// the submission id is read only from the client's own answer: the last of its lines, never a line that
// is part of a text jobdeckd passed to spark-submit.
class SubmissionOutput final {
public:
    // The submission id of a successful submission: the standalone master's CreateSubmissionResponse
    // (and the client's "Submission successfully created as <id>." line, which must agree with it), or
    // "... submission ID <namespace>:<pod> into Kubernetes" on Kubernetes. `passedTexts` are the texts
    // jobdeckd gave spark-submit (options, their values, the application's arguments): a line found in
    // one of them is an echo, not the client's answer. nullopt when no answer names an id.
    static std::optional<std::string> submissionId(std::string_view submitOutput,
                                                   const std::vector<std::string>& passedTexts);
    // The driver's state in `spark-submit --status <submissionId>`'s output; Unreadable when the answer
    // is about another submission.
    static DriverStatus driverStatus(std::string_view statusOutput, std::string_view submissionId);
};

} // namespace jobdeck
