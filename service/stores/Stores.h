#pragma once

#include "service/stores/AuditStore.h"
#include "service/stores/ChangeStamp.h"
#include "service/stores/ClusterStore.h"
#include "service/stores/EventStore.h"
#include "service/stores/JobStore.h"
#include "service/stores/KeyStore.h"
#include "service/stores/ProjectStore.h"
#include "service/stores/RunStore.h"
#include "service/stores/StatusStore.h"
#include "service/stores/UnitOfWork.h"
#include "service/stores/WriteKeyStore.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace jobdeck {

// Stops watching for other processes' events when destroyed (Stores::watchEvents).
class EventWatch {
public:
    virtual ~EventWatch() = default;
};

// The jobdeckd database of one backend, as stores with one concern each. Every store method that reads
// or writes project data takes the project's uid and is scoped by it, so one project never sees
// another's rows. Stores are thread-safe; writes to several of them become one atomic step with
// unitOfWork().run(...). Errors are DatabaseError.
class Stores {
public:
    virtual ~Stores() = default;

    virtual UnitOfWork& unitOfWork() = 0;
    virtual ChangeStamp& changeStamp() = 0;
    virtual KeyStore& keys() = 0;
    virtual ProjectStore& projects() = 0;
    virtual JobStore& jobs() = 0;
    virtual ClusterStore& clusters() = 0;
    virtual RunStore& runs() = 0;
    virtual StatusStore& statuses() = 0;
    virtual WriteKeyStore& writeKeys() = 0;
    virtual AuditStore& audit() = 0;
    virtual EventStore& events() = 0;

    // Why the database does not answer (GET /v1/health), or nullopt when it does.
    virtual std::optional<std::string> unavailableReason() = 0;
    // Commits every deferred write (audit entries, statuses) now.
    virtual void flushDeferred() = 0;
    // Calls `changed(projectUid)`, from a thread of the stores' own, when another process sharing the
    // database stored events of that project, and `changed("")` when such news may have been missed
    // (the database connection was lost), until the returned watch is destroyed. A database only this
    // process writes (SQLite) has no such news: null.
    [[nodiscard]] virtual std::unique_ptr<EventWatch>
    watchEvents(const std::function<void(const std::string& projectUid)>& /*changed*/) {
        return nullptr;
    }
};

} // namespace jobdeck
