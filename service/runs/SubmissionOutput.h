#pragma once

#include <optional>
#include <string>
#include <string_view>

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
        Unreadable, // no answer could be read (master unreachable, unexpected output)
    } kind = Kind::Unreadable;
    std::string state;   // as the cluster manager named it ("RUNNING", "Succeeded", ...), empty if none
    std::string message; // the answer's message (an ERROR's exception), empty if none
};

// Reads what spark-submit prints in cluster deploy mode: a standalone master's REST submission client
// (log lines and the server's JSON answers, see RestSubmissionClient) and Kubernetes' submission
// client (the driver pod's phase).
class SubmissionOutput final {
public:
    // The submission id of a successful submission: "Submission successfully created as <id>." on a
    // standalone master, "... submission ID <namespace>:<pod> into Kubernetes" on Kubernetes.
    static std::optional<std::string> submissionId(std::string_view submitOutput);
    static DriverStatus driverStatus(std::string_view statusOutput);
};

} // namespace jobdeck
