#pragma once

#include "core/parameters/FixedParameters.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

enum class Severity { Error, Warning, Info };

// A change that repairs a diagnostic. It carries the whole corrected parameter list (built when read), so
// an editor can apply it as one undoable step and the service can show what it would become.
struct Fix final {
    std::string title; // "Move --hudi-conf before the application path"
    FixedParameters parameters;
    // What the corrected list would be refused for, when applying the fix trades this finding for an
    // error (a misplaced pair moved before the path where the allow-list refuses it); empty otherwise.
    // An editor shows it with the fix, so a fix never makes things worse unannounced.
    std::string leadsTo;
    bool operator==(const Fix&) const = default;
};

// One finding about a Job's parameters. `code` is stable (tests, docs and the console key on it);
// `message` is the exact text the service answers with where the contract gives one.
struct Diagnostic final {
    // e.g. "hudi-conf.not-allowed". Always a string literal, so it is held as a view: a long job has
    // thousands of findings and copying their codes was a tenth of the time spent validating it.
    std::string_view code;
    Severity severity = Severity::Error;
    std::string message;
    int tokenIndex = -1;    // index into the parameter list; -1 when it concerns the whole list
    std::vector<Fix> fixes; // empty when there is nothing to offer
    bool operator==(const Diagnostic&) const = default;
};

inline const char* severityName(Severity s) {
    switch (s) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Info:
        return "info";
    }
    return "error";
}

} // namespace jobdeck
