#pragma once

#include <string>
#include <vector>

namespace jobdeck {

class Stores;
struct RunRecord;

// The secret values a run's log and its end message show as ****: those its driver was started with
// (RunRecord::launchSecrets) and those its Job's and its cluster's rows give it now (core
// runSecretValues), should it have been started before its launch secrets were kept.
std::vector<std::string> runSecretValuesOf(Stores& stores, const RunRecord& record);

} // namespace jobdeck
