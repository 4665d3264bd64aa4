#pragma once

#include "core/parameters/Diagnostic.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/policy/ProjectSettings.h"
#include "core/statements/Statement.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

struct ValidationContext final {
    enum class Mode { Create, Alter };
    ProjectSettings settings;
    Mode mode = Mode::Create;
    // ALTER: the Job's stored parameters. Its --hudi-conf pairs (same key AND value) are accepted again even
    // if the feature or the allow-list has narrowed since; they stay stored but are not applied.
    std::vector<std::string> previousParameters;
    bool withAdvice = true; // append adviseOnConfigs() findings (warnings and info only)
    // Each fix counts the length of the list against fixBudget. Fixes are offered, in the order returned,
    // while the budget lasts (a 20-parameter job gets every fix, a 5,000-parameter job the first few). With
    // fixesForToken set (an editor's quick-fix menu) every diagnostic on that parameter and on the whole list
    // (tokenIndex -1) gets its fixes instead, and no other. Applying a fix and validating again offers the
    // next ones.
    std::size_t fixBudget = 20000;
    std::optional<int> fixesForToken;
    // The Job's type, when known: the application path is then expected to end in .jar (JAR) or .py
    // (PYTHON), a warning otherwise (path.extension).
    std::optional<JobType> jobType;
};

// Every rule of CONTRACT §3 as a Diagnostic (codes: docs/parameters.md). Errors refuse the job, warnings
// and info do not. The result is sorted: errors first in refusal order (see refusalRank), then warnings
// and info in parameter order, so front() of the errors is what the service answers.
std::vector<Diagnostic> validateParameters(const std::vector<std::string>& parameters,
                                           const ValidationContext& context);
// The same, reusing a classification the caller already made of exactly these parameters (an editor
// colours and validates the same list on every keystroke), so the list is not read twice.
std::vector<Diagnostic> validateParameters(const std::vector<std::string>& parameters,
                                           const ClassifiedParameters& classified,
                                           const ValidationContext& context);

// What an editor says while a new Job's parameters are still empty: how to start, in place of the
// parameters.empty error (which holds once something is sent).
std::string emptyParametersGuidance();

// The order in which errors decide the service's answer: lower first, then by tokenIndex (-1 first).
int refusalRank(std::string_view code);

// The error the service answers with (lowest refusalRank, then tokenIndex), whatever order `diagnostics`
// is in; nullptr when nothing refuses the job.
const Diagnostic* firstError(const std::vector<Diagnostic>& diagnostics);
std::optional<std::string> refusalMessage(const std::vector<Diagnostic>& diagnostics);
// The parameter the service's refusal concerns, as its status names it (parameterIndex): the first
// error's tokenIndex, or, for an error about the whole list that has per-parameter copies
// (hudi-conf.not-permitted, hudi-conf.disabled), the first parameter one of them marks; -1 when none.
int refusalParameterIndex(const std::vector<Diagnostic>& diagnostics);

} // namespace jobdeck
