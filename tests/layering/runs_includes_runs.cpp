// Control: the runs layer includes its own headers and those of the stores and core below it.
#include "core/wire/ApiStatus.h"
#include "service/runs/RunManager.h"
#include "service/stores/Stores.h"

namespace jobdeck {
ApiStatus layeringProbeRuns(RunManager&, Stores&);
} // namespace jobdeck
