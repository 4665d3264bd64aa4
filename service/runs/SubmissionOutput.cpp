#include "service/runs/SubmissionOutput.h"

#include <nlohmann/json.hpp>

#include <regex>

namespace jobdeck {
namespace {

using Kind = DriverStatus::Kind;

// The JSON object a "Server responded with <type>:" line introduces; it runs to the last '}'.
nlohmann::json responseAfter(const std::string& output, const std::string& type) {
    const auto at = output.find("Server responded with " + type + ":");
    if (at == std::string::npos)
        return nullptr;
    const auto open = output.find('{', at);
    const auto close = output.rfind('}');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return nullptr;
    return nlohmann::json::parse(output.substr(open, close - open + 1), nullptr, false);
}

Kind standaloneKind(const std::string& state) {
    if (state == "SUBMITTED" || state == "RUNNING" || state == "RELAUNCHING")
        return Kind::Active;
    if (state == "FINISHED")
        return Kind::Finished;
    if (state == "FAILED")
        return Kind::Failed;
    if (state == "ERROR")
        return Kind::Error;
    if (state == "KILLED")
        return Kind::Killed;
    return Kind::Unknown;
}

Kind podPhaseKind(const std::string& phase) {
    if (phase == "Pending" || phase == "Running")
        return Kind::Active;
    if (phase == "Succeeded")
        return Kind::Finished;
    if (phase == "Failed")
        return Kind::Failed;
    return Kind::Unknown;
}

std::optional<DriverStatus> standaloneStatus(const std::string& output) {
    // The master's success=false answer, which the client reports without its JSON.
    if (output.find("Server responded with message of unexpected type SubmissionStatusResponse") !=
        std::string::npos)
        return DriverStatus{Kind::NotFound, "", ""};
    const auto response = responseAfter(output, "SubmissionStatusResponse");
    if (!response.is_object())
        return std::nullopt;
    if (!response.value("success", false))
        return DriverStatus{Kind::NotFound, "", response.value("message", std::string())};
    const std::string state = response.value("driverState", std::string());
    return DriverStatus{standaloneKind(state), state, response.value("message", std::string())};
}

std::optional<DriverStatus> kubernetesStatus(const std::string& output) {
    static const std::regex phase(R"(\bphase: (\w+))");
    std::smatch match;
    if (std::regex_search(output, match, phase))
        return DriverStatus{podPhaseKind(match[1]), match[1], ""};
    if (output.find("Application not found.") != std::string::npos) // the driver pod does not exist
        return DriverStatus{Kind::NotFound, "", ""};
    return std::nullopt;
}

} // namespace

std::optional<std::string> SubmissionOutput::submissionId(std::string_view submitOutput) {
    static const std::regex standalone(R"(Submission successfully created as ([A-Za-z0-9_-]+))");
    static const std::regex kubernetes(R"(submission ID (\S+) into Kubernetes)");
    const std::string output(submitOutput);
    std::smatch match;
    if (std::regex_search(output, match, standalone) || std::regex_search(output, match, kubernetes))
        return match[1].str();
    return std::nullopt;
}

DriverStatus SubmissionOutput::driverStatus(std::string_view statusOutput) {
    const std::string output(statusOutput);
    if (auto status = standaloneStatus(output))
        return *status;
    if (auto status = kubernetesStatus(output))
        return *status;
    return {};
}

} // namespace jobdeck
