#include "core/hudi/HudiKeyMessages.h"

#include "core/text/AsciiText.h"

namespace jobdeck {

std::string hudiKeyTypoMessage(std::string_view key, const std::vector<std::string>& suggestions) {
    std::string names;
    for (std::size_t i = 0; i < suggestions.size(); ++i)
        names += (i == 0 ? "" : i + 1 == suggestions.size() ? " or " : ", ") + quoted(suggestions[i]);
    return "Hudi has no config " + quoted(key) + "; did you mean " + names +
           "? Hudi silently ignores keys it does not know.";
}

std::string unknownHudiKeyMessage(std::string_view key) {
    return quoted(key) + " is not a config of the Hudi version this platform runs; Hudi ignores keys it does "
                         "not read.";
}

} // namespace jobdeck
