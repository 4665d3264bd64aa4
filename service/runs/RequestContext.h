#pragma once

#include "service/stores/Principal.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace jobdeck {

// Who sends one request and how: built per request by the HTTP server when the request's credentials
// are checked, completed by the routes, passed through to the statements and recorded in the audit
// log. Never kept: the stamp is what was committed when this request's key was checked, so an answer
// cached under it is current for this request only. A Principal, which is kept (the key cache) and
// reused, has none.
struct RequestContext final {
    Principal principal;
    // ChangeStamp::current() read for this request when its key was checked, before anything it reads,
    // else 0: then the DESCRIBE JOB cache reads it itself. Never carried over to another request.
    std::uint64_t changeStamp = 0;
    // When set, StatementExecutor::execute() stores the request's final status under it.
    std::string requestId;
    std::optional<std::string> idempotencyKey;
    // Set by StatementExecutor::claimIdempotencyKey for the first write (other than RUN JOB) sent with its
    // key: execute() records the key with the request's status (RepeatedWrites).
    std::string writeKeyHash;
    std::map<std::string, std::string> clientHeaders; // x-onehouse-* (account-uid, link-uid, region, uuid)
};

} // namespace jobdeck
