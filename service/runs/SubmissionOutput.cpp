#include "service/runs/SubmissionOutput.h"

#include <nlohmann/json.hpp>

#include <regex>

namespace jobdeck {
namespace {

using Kind = DriverStatus::Kind;

// What a submission id may hold: a standalone driver-<time>-<n>, a Kubernetes <namespace>:<pod>.
bool isSubmissionId(const std::string& id) {
    static const std::regex shape(R"([A-Za-z0-9][A-Za-z0-9._:-]*)");
    return id.size() <= 253 && std::regex_match(id, shape);
}

std::vector<std::string> linesOf(std::string_view output) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < output.size()) {
        auto end = output.find('\n', start);
        if (end == std::string_view::npos)
            end = output.size();
        std::string line(output.substr(start, end - start));
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// A passed text this long found inside a line makes the line an echo (--verbose prints some values
// after a label, or several joined); shorter ones ("1", "--date") occur in genuine lines by chance.
constexpr std::size_t kEchoedTextMinimum = 12;

bool isEcho(std::string_view line, const std::vector<std::string>& passedTexts, bool containedTexts) {
    const auto text = trimmed(line);
    if (text.empty())
        return false;
    for (const auto& passed : passedTexts) {
        if (passed.find(text) != std::string::npos)
            return true;
        if (containedTexts && passed.size() >= kEchoedTextMinimum &&
            text.find(passed) != std::string_view::npos)
            return true;
    }
    return false;
}

// The client's output with every line that echoes a text passed to spark-submit left blank: what
// --verbose printed (or a fake client line inside an argument) is never read as an answer. With
// `containedTexts` a line holding a long passed text counts as an echo too (the standalone client's own
// lines never quote what it was given; Kubernetes' name the application).
std::vector<std::string> answerLines(std::string_view output, const std::vector<std::string>& passedTexts,
                                     bool containedTexts) {
    auto lines = linesOf(output);
    for (auto& line : lines)
        if (isEcho(line, passedTexts, containedTexts))
            line.clear();
    return lines;
}

// The JSON object a "Server responded with <type>:" log line introduces: the lines from there to the
// first one that is a lone "}" (the REST server's pretty-printed object ends so). The last such answer.
nlohmann::json lastResponse(const std::vector<std::string>& lines, const std::string& type) {
    const std::string heading = "RestSubmissionClient: Server responded with " + type + ":";
    for (auto at = lines.size(); at-- > 0;) {
        const auto& line = lines[at];
        if (line.size() < heading.size() ||
            line.compare(line.size() - heading.size(), heading.size(), heading) != 0)
            continue;
        std::string object;
        for (auto next = at + 1; next < lines.size(); ++next) {
            if (lines[next].empty())
                return nullptr; // blanked: a passed text, not the server's answer
            object += lines[next] + '\n';
            if (lines[next] == "}")
                return nlohmann::json::parse(object, nullptr, false);
        }
        return nullptr;
    }
    return nullptr;
}

// The id of the last line that matches `pattern` (its first group), in a line of the client's own.
std::optional<std::string> lastMatch(const std::vector<std::string>& lines, const std::regex& pattern) {
    for (auto at = lines.size(); at-- > 0;) {
        std::smatch match;
        if (std::regex_search(lines[at], match, pattern))
            return match[1].str();
    }
    return std::nullopt;
}

std::optional<std::string> standaloneId(const std::vector<std::string>& lines) {
    static const std::regex created(
        R"(RestSubmissionClient: Submission successfully created as (\S+?)\.( Polling submission state\.\.\.)?$)");
    const auto logged = lastMatch(lines, created);
    const auto response = lastResponse(lines, "CreateSubmissionResponse");
    if (!response.is_object())
        return logged;
    if (!response.value("success", false) || !response.contains("submissionId") ||
        !response["submissionId"].is_string())
        return std::nullopt;
    const auto answered = response["submissionId"].get<std::string>();
    if (logged && *logged != answered)
        return std::nullopt; // two answers that disagree: neither is trusted
    return answered;
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

std::optional<DriverStatus> standaloneStatus(const std::vector<std::string>& lines, std::string_view id) {
    // The master's success=false answer, which the client reports without its JSON.
    for (const auto& line : lines)
        if (line.find("Server responded with message of unexpected type SubmissionStatusResponse") !=
            std::string::npos)
            return DriverStatus{Kind::NotFound, "", ""};
    const auto response = lastResponse(lines, "SubmissionStatusResponse");
    if (!response.is_object())
        return std::nullopt;
    if (response.contains("submissionId") && response["submissionId"] != id)
        return DriverStatus{Kind::Unreadable, "", "the answer is about another submission"};
    if (!response.value("success", false))
        return DriverStatus{Kind::NotFound, "", response.value("message", std::string())};
    const std::string state = response.value("driverState", std::string());
    return DriverStatus{standaloneKind(state), state, response.value("message", std::string())};
}

std::optional<DriverStatus> kubernetesStatus(const std::vector<std::string>& lines) {
    static const std::regex phase(R"(\bphase: (\w+))");
    if (const auto found = lastMatch(lines, phase))
        return DriverStatus{podPhaseKind(*found), *found, ""};
    for (const auto& line : lines)
        if (line.find("Application not found.") != std::string::npos) // the driver pod does not exist
            return DriverStatus{Kind::NotFound, "", ""};
    return std::nullopt;
}

} // namespace

std::optional<std::string> SubmissionOutput::submissionId(std::string_view submitOutput,
                                                          const std::vector<std::string>& passedTexts) {
    // Kubernetes' line ends with the id; an application name before it may hold anything.
    static const std::regex kubernetes(R"(submission ID (\S+) into Kubernetes\s*$)");
    auto id = standaloneId(answerLines(submitOutput, passedTexts, true));
    if (!id)
        id = lastMatch(answerLines(submitOutput, passedTexts, false), kubernetes);
    if (id && !isSubmissionId(*id))
        return std::nullopt;
    return id;
}

DriverStatus SubmissionOutput::driverStatus(std::string_view statusOutput, std::string_view submissionId) {
    const auto lines = linesOf(statusOutput);
    if (auto status = standaloneStatus(lines, submissionId))
        return *status;
    if (auto status = kubernetesStatus(lines))
        return *status;
    return {};
}

} // namespace jobdeck
