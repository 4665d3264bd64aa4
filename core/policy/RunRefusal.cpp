#include "core/policy/RunRefusal.h"

#include "core/text/AsciiText.h"

namespace jobdeck {

std::string runRefusalText(std::string_view message, std::string_view jobId, std::string_view jobName,
                           std::string_view reason) {
    std::string text(message);
    const std::string named = "Spark Job " + std::string(jobId);
    if (!jobId.empty() && !jobName.empty()) {
        const std::size_t at = text.find(named);
        // Only the id itself: "Spark Job <id>" followed by a word boundary, not a longer id.
        const std::size_t end = at == std::string::npos ? at : at + named.size();
        if (at != std::string::npos && (end == text.size() || text[end] == ' ' || text[end] == ':'))
            text.insert(end, " (" + quoted(jobName) + ")");
    }
    if (!reason.empty() && text.find(reason) == std::string::npos)
        text += "\n" + std::string(reason);
    return text;
}

} // namespace jobdeck
