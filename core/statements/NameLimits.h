#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// The longest name a statement may give (a job, a cluster, a cluster type, a run id, a Hudi allow-list
// entry), in characters (Unicode code points). CONTRACT.md sets none; this one keeps every stored row
// and every message that names something small (docs/statements.md).
inline constexpr std::size_t kMaxNameCharacters = 256;

// The refusal of a name over kMaxNameCharacters, saying the limit and the name's length but not the
// name; nullopt when it is within. `what` is how the statement calls it ("a job name").
std::optional<std::string> nameLengthProblem(std::string_view what, std::string_view name);

// The refusal of an API key for a project without a name (`jobdeckd keys create`).
std::string emptyProjectNameMessage();
// Why `jobdeckd keys create --project` refuses a name, nullopt when it takes it: a project's name is
// shown in DESCRIBE PROJECT, the console and every listing, so it is UTF-8 text of one line, without
// blanks at its ends and at most kMaxNameCharacters long.
std::optional<std::string> projectNameProblem(std::string_view name);

} // namespace jobdeck
