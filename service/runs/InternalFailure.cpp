#include "service/runs/InternalFailure.h"

#include "core/wire/DatabaseFaults.h"
#include "service/runs/RequestContext.h"
#include "service/stores/DatabaseError.h"
#include "service/stores/DatabaseFaultError.h"

#include <spdlog/spdlog.h>

namespace jobdeck {

ApiStatus failedInternally(const RequestContext& context, std::string_view auditText,
                           const std::exception& e) {
    spdlog::error("Statement failed: request {}: {}: {}", context.requestId.empty() ? "-" : context.requestId,
                  auditText, e.what());
    if (dynamic_cast<const DatabaseError*>(&e))
        return databaseFailure(context.requestId, DatabaseFaultError::faultOf(e));
    return ApiStatus::internalError(context.requestId, false);
}

} // namespace jobdeck
