#include "core/statements/NotFoundMessages.h"

#include "core/parameters/SecretMasking.h"

namespace jobdeck {

namespace {
std::string doesNotExist(std::string_view what) {
    return std::string(what) + " does not exist";
}
} // namespace

std::string jobNotFoundMessage(std::string_view jobName) {
    return doesNotExist("Job " + std::string(jobName));
}

std::string clusterNotFoundMessage(std::string_view clusterName) {
    return doesNotExist("Cluster " + std::string(clusterName));
}

std::string jobRunNotFoundMessage(std::string_view runId, std::string_view jobName) {
    return doesNotExist("Job run " + std::string(runId) + " of Job " + std::string(jobName));
}

std::string projectNotFoundMessage(std::string_view projectName) {
    return doesNotExist("Project " + std::string(projectName));
}

std::string applicationFileNotFoundMessage(std::string_view applicationPath) {
    return doesNotExist("Application file " + maskArgument(applicationPath));
}

std::string applicationFileUnreadableMessage(std::string_view applicationPath) {
    return "Application file " + maskArgument(applicationPath) +
           " cannot be read by this service: only local paths, file:// and s3:// are supported";
}

std::string unknownRequestIdMessage(std::chrono::seconds retention) {
    const auto hours = std::chrono::duration_cast<std::chrono::hours>(retention).count();
    const std::string kept = hours >= 1 && std::chrono::hours(hours) == retention
                                 ? std::to_string(hours) + (hours == 1 ? " hour" : " hours")
                                 : std::to_string(retention.count()) + " seconds";
    return "Unknown or expired request id (final statuses are kept for " + kept + ")";
}

} // namespace jobdeck
