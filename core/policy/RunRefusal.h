#pragma once

#include <string>
#include <string_view>

namespace jobdeck {

// A refusal of RUN JOB as a person reads it. The contract's text names the Job by its id
// (`Spark Job <jobId> already has <N> active run(s) (max <N>)`, CONTRACT §4), which nobody recognises;
// the console shows the Job's name, quoted, beside that id. `reason` is the service's own field for why
// the project narrowed the limit (errorReason); it follows on a line of its own unless the message
// already says it.
std::string runRefusalText(std::string_view message, std::string_view jobId, std::string_view jobName,
                           std::string_view reason = {});

} // namespace jobdeck
