#pragma once

#include <string>

namespace jobdeck {

// Where jobdeckd's log lines go and how they look. `journal`: stderr lines that start with the
// sd-daemon priority prefix (`<3>` error ... `<7>` debug) and carry no timestamp, which journald
// turns into entries of that priority; `stderr`: spdlog's timestamped text; `auto`: journal when
// stderr is connected to the journal (systemd sets $JOURNAL_STREAM to its device and inode).
class LogTarget final {
public:
    // "auto", "journal" or "stderr"; throws std::invalid_argument for anything else.
    static void apply(const std::string& target);
    // The least important lines written: "debug", "info", "warning" or "error" (--log-level); throws
    // std::invalid_argument for anything else.
    static void applyLevel(const std::string& level);
    // True when $JOURNAL_STREAM names the file that stderr is.
    static bool stderrIsJournal();
};

} // namespace jobdeck
