#pragma once

#include "core/wire/ApiStatus.h"

#include <functional>
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
    // SUCCESS with an apiResponse that `write` appends to the text as JSON (an object, as nlohmann::json
    // writes it with invalid UTF-8 replaced): byte for byte StatusJson(ApiStatus::success(<that
    // object>)), without a DOM of it or a copy of the text. SHOW JOBS writes 100,000 jobs this way.
    static StatusJson success(const std::function<void(std::string& text)>& write);

    ApiOperationStatus apiStatus() const { return m_value->apiStatus; }
    bool isFinal() const { return apiStatus() != ApiOperationStatus::Pending; }
    // Set exactly when the status is FAILED or INVALID.
    const std::optional<std::string>& errorMessage() const { return m_value->errorMessage; }
    // {"apiResponse": ..., "apiStatus": ..., "errorMessage": ...} as nlohmann::json writes it.
    const std::string& text() const { return m_value->text; }
    // The text, kept alive by the pointer as long as it is held (an answer being written).
    std::shared_ptr<const std::string> sharedText() const { return {m_value, &m_value->text}; }
    // The same object with "requestId" added, byte for byte what serializing the status with its
    // requestId gives (nlohmann::json writes keys in order, and requestId sorts last): `head`, a view
    // of the shared text, then `tail`, so a large status is not copied.
    struct WithRequestId {
        std::shared_ptr<const std::string> text;
        std::string_view head;
        std::string tail;
    };
    WithRequestId withRequestId(std::string_view requestId) const;

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
