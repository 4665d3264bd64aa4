#pragma once

#include <spdlog/pattern_formatter.h>

#include <memory>
#include <string>
#include <string_view>

namespace jobdeck {

// `text` as a log line may show it: control characters as \n, \r, \t or \xHH and bytes that are not
// UTF-8 as \xHH, so that nothing a client sent (a job name with a line break, a path, a header) can
// end a log line early or forge one. The one escaping function of jobdeckd's log.
std::string escapeForLog(std::string_view text);

// A formatter in whose pattern `%~` is the message escaped by escapeForLog; add other flags, then
// set_pattern. Every pattern jobdeckd sets uses `%~`, never `%v`.
std::unique_ptr<spdlog::pattern_formatter> escapingFormatter();

// Makes every line of every spdlog logger (the default one and any made later) pass its message
// through escapeForLog; the rest of the line keeps spdlog's default pattern.
void escapeEveryLogLine();

} // namespace jobdeck
