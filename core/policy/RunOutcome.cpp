#include "core/policy/RunOutcome.h"

#include "core/statements/NameLimits.h"
#include "core/text/AsciiText.h"

#include <algorithm>
#include <array>

namespace jobdeck {

namespace {

bool isWordCharacter(char c) {
    return isAsciiAlnum(c) || c == '_';
}

// `word` occurs in `line` with no word character right before it (and none after it when `whole`).
bool hasWord(std::string_view line, std::string_view word, bool whole) {
    for (std::size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
        const bool startsWord = at == 0 || !isWordCharacter(line[at - 1]);
        const std::size_t end = at + word.size();
        const bool endsWord = !whole || end == line.size() || !isWordCharacter(line[end]);
        if (startsWord && endsWord)
            return true;
    }
    return false;
}

// "java.lang.IllegalStateException:" or "ValueError:": a name ending in Exception or Error, then ':'.
bool hasExceptionName(std::string_view line) {
    for (const std::string_view suffix : {std::string_view("Exception:"), std::string_view("Error:")}) {
        for (std::size_t at = line.find(suffix); at != std::string_view::npos; at = line.find(suffix, at + 1))
            if (at == 0 || line[at - 1] != ' ')
                return true;
    }
    return false;
}

} // namespace

std::string runOutcomeLine(const SparkJobRun& run) {
    if (run.isActive())
        return {};
    std::string line = std::string(kRunOutcomeLinePrefix) + run.jobRunId + " ended " +
                       std::string(jobRunStatusWord(run.status));
    if (run.exitCode)
        line += ", exit code " + std::to_string(*run.exitCode);
    if (run.message && !run.message->empty())
        line += ": " + *run.message;
    return line + "]";
}

bool isRunOutcomeLine(std::string_view line) {
    return line.starts_with(kRunOutcomeLinePrefix);
}

bool isErrorLogLine(std::string_view line) {
    static constexpr std::array<std::string_view, 4> levels{"ERROR", "FATAL", "CRITICAL", "SEVERE"};
    if (std::any_of(levels.begin(), levels.end(), [&](std::string_view w) { return hasWord(line, w, true); }))
        return true;
    return line.starts_with("Traceback (most recent call last)") || hasWord(line, "Caused by:", false) ||
           hasExceptionName(line);
}

std::string clusterDriversText(std::string_view cluster, int inUse, int maxOcu) {
    std::string text = std::string(cluster) + ": " + std::to_string(std::min(inUse, maxOcu)) + " of " +
                       std::to_string(maxOcu) + " drivers in use";
    if (inUse > maxOcu)
        text += " (" + std::to_string(inUse - maxOcu) + " more started before MAX_OCU was lowered)";
    else if (inUse == maxOcu)
        text += " (at MAX_OCU)";
    return text;
}

std::string cloneJobName(std::string_view name, const std::vector<std::string>& taken) {
    const auto free = [&](const std::string& candidate) {
        return std::find(taken.begin(), taken.end(), candidate) == taken.end();
    };
    const auto candidate = [&](std::size_t n) {
        const std::string suffix = n == 1 ? "_copy" : "_copy_" + std::to_string(n);
        const std::size_t room = kMaxNameCharacters - suffix.size();
        return std::string(name.substr(0, std::min(name.size(), room))) + suffix;
    };
    // Each taken name rules out at most one n, so one of the first taken.size() + 1 is free.
    for (std::size_t n = 1; n <= taken.size(); ++n)
        if (free(candidate(n)))
            return candidate(n);
    return candidate(taken.size() + 1);
}

} // namespace jobdeck
