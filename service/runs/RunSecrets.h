#pragma once

#include <string>
#include <vector>

namespace jobdeck {

class Stores;
struct RunRecord;

// The secret values a run's driver is given (core runSecretValues), from its Job's and its cluster's rows
// as they are now: what the run's log and its end message show as ****.
std::vector<std::string> runSecretValuesOf(Stores& stores, const RunRecord& record);

} // namespace jobdeck
