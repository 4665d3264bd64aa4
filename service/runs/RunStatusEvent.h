#pragma once

#include "core/wire/ProjectEvent.h"
#include "core/wire/Timestamp.h"
#include "service/stores/RunStore.h"

namespace jobdeck {

// The RUN_STATUS_CHANGED event of the run's current state.
inline ProjectEvent statusEvent(const RunRecord& record) {
    ProjectEvent event;
    event.type = std::string(event_type::kRunStatusChanged);
    event.jobName = record.run.jobName;
    event.jobRunId = record.run.jobRunId;
    event.status = record.run.status;
    event.at = timestampNow();
    return event;
}

} // namespace jobdeck
