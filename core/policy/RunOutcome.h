#pragma once

#include "core/wire/SparkJobRun.h"

#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// How a console tells what became of runs and how busy a cluster is: the words and the rules, once.

// The line a run's log ends with once the run is final: "[jobdeck: run <id> ended FAILED, exit code 3:
// The driver exited with code 3]"; empty while the run is active. It starts with kRunOutcomeLinePrefix.
inline constexpr std::string_view kRunOutcomeLinePrefix = "[jobdeck: run ";
std::string runOutcomeLine(const SparkJobRun& run);
bool isRunOutcomeLine(std::string_view line);

// Whether a line of driver output reports an error: a log4j/Python level word (ERROR, FATAL, CRITICAL,
// SEVERE), a Python traceback's first line, or a Java/Python exception ("...Exception:", "...Error:",
// "Caused by:"). Matched as words, so "errors=0" or "MirrorError" in a path is not one.
bool isErrorLogLine(std::string_view line);

// A cluster's gauge: "main: 2 of 4 drivers in use", with "(at MAX_OCU)" when full and "(N more started
// before MAX_OCU was lowered)" when above it.
std::string clusterDriversText(std::string_view cluster, int inUse, int maxOcu);

// The name a copy of a job gets: "<name>_copy", or "<name>_copy_<n>" with the lowest n from 2 not taken,
// kept within the name limit by shortening <name>.
std::string cloneJobName(std::string_view name, const std::vector<std::string>& taken);

} // namespace jobdeck
