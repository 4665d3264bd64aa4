#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace jobdeck {

// What the service answers when a statement or request names something the caller's project does not
// have. The same text for a missing object and for another project's, so nothing of another project
// can be probed.
std::string jobNotFoundMessage(std::string_view jobName);         // Job <name> does not exist
std::string clusterNotFoundMessage(std::string_view clusterName); // Cluster <name> does not exist
std::string jobRunNotFoundMessage(std::string_view runId,
                                  std::string_view jobName);      // Job run <id> of Job <name> ...
std::string projectNotFoundMessage(std::string_view projectName); // Project <name> does not exist
// A run's application file is missing when its driver starts (CONTRACT §4). Both messages name the path
// as maskArgument shows it (a URL's password as ****): they become the run's message.
std::string applicationFileNotFoundMessage(std::string_view applicationPath);
// A run's application path has a scheme the service cannot read from (http://, hdfs://, ...).
std::string applicationFileUnreadableMessage(std::string_view applicationPath);
// GET /v1/status/<id> of an id that is unknown, of another project, or whose status expired: final
// statuses are kept for `retention` (said in hours when it is whole hours).
std::string unknownRequestIdMessage(std::chrono::seconds retention);

} // namespace jobdeck
