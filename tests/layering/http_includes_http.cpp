// Control: the HTTP layer includes its own headers and those of the statements, runs, stores and core.
#include "core/wire/ApiStatus.h"
#include "service/http/HttpServer.h"
#include "service/runs/EventBus.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/Stores.h"

namespace jobdeck {
ApiStatus layeringProbeHttp(HttpServer&, StatementExecutor&, EventBus&, Stores&);
} // namespace jobdeck
