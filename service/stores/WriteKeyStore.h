#pragma once

#include "core/wire/Timestamp.h"

#include <optional>
#include <string>

namespace jobdeck {

// The Idempotency-Keys of writes other than RUN JOB (see RepeatedWrites), scoped by project.
class WriteKeyStore {
public:
    struct WriteKey final {
        std::string idempotencyKey;
        std::string statementHash;
        std::string requestId; // the first request sent with the key
        TimePoint at{};
    };
    virtual ~WriteKeyStore() = default;
    // Durable (joins the caller's UnitOfWork, if any); drops the keys recorded before `expiredBefore`.
    virtual void saveWriteKey(const std::string& projectUid, const WriteKey& key,
                              TimePoint expiredBefore) = 0;
    // The key as recorded at or after `notBefore`, committed now (no fsync; may run on an IO thread).
    virtual std::optional<WriteKey> findWriteKey(const std::string& projectUid,
                                                 const std::string& idempotencyKey, TimePoint notBefore) = 0;
};

} // namespace jobdeck
