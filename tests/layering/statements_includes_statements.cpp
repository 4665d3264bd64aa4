// Control: the statements layer includes its own headers and those of runs, the stores and core below it.
#include "core/wire/ApiStatus.h"
#include "service/runs/EventBus.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/Stores.h"

namespace jobdeck {
ApiStatus layeringProbeStatements(StatementExecutor&, EventBus&, Stores&);
} // namespace jobdeck
