#pragma once

#include "core/ApiStatus.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// A status serialized once, as `GET /v1/status/<id>` answers it and the database stores it (without
// requestId): the answer, the statuses kept in memory, the deferred write and, for DESCRIBE JOB, the
// cache of described jobs share the same immutable text; copying a StatusJson copies a pointer.
class StatusJson final {
public:
    // PENDING.
    StatusJson();
    // The status without its requestId.
    explicit StatusJson(const ApiStatus& status);

    ApiOperationStatus apiStatus() const { return m_value->apiStatus; }
    bool isFinal() const { return apiStatus() != ApiOperationStatus::Pending; }
    // Set exactly when the status is FAILED or INVALID.
    const std::optional<std::string>& errorMessage() const { return m_value->errorMessage; }
    // {"apiResponse": ..., "apiStatus": ..., "errorMessage": ...} as nlohmann::json writes it.
    const std::string& text() const { return m_value->text; }
    // The same object with "requestId" added, byte for byte what serializing the status with its
    // requestId gives (nlohmann::json writes keys in order, and requestId sorts last).
    std::string withRequestId(std::string_view requestId) const;

    bool operator==(const StatusJson& other) const { return text() == other.text(); }

private:
    struct Value {
        ApiOperationStatus apiStatus;
        std::optional<std::string> errorMessage;
        std::string text;
    };
    std::shared_ptr<const Value> m_value;
};

} // namespace jobdeck
