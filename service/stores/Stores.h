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

// Stops listening to other processes' news when destroyed (Stores::watchOtherReplicas).
class ReplicaWatch {
public:
    virtual ~ReplicaWatch() = default;
};

// What other processes sharing the database tell this one, each called from a thread of the stores'
// own (Stores::watchOtherReplicas).
struct ReplicaNews {
    // Another process stored events of the project; "" when such news may have been missed (the
    // database connection was lost).
    std::function<void(const std::string& projectUid)> eventsStored;
    // Another process admitted RUN JOBs just now (Stores::announceAdmissions).
    std::function<void()> runsAdmitted;
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
    // Tells the other processes sharing the database, soon after, that this one admitted RUN JOBs: their
    // schedulers hold launches back while a burst of admissions lasts anywhere, as this one's does.
    virtual void announceAdmissions() {}
    // Hands `news` what other processes sharing the database tell, until the returned watch is
    // destroyed. A database only this process writes (SQLite) has no such news: null.
    [[nodiscard]] virtual std::unique_ptr<ReplicaWatch> watchOtherReplicas(const ReplicaNews& /*news*/) {
        return nullptr;
    }
};

} // namespace jobdeck
