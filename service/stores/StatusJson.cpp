#include "service/stores/StatusJson.h"

#include <algorithm>

namespace jobdeck {

namespace {

std::string serialize(const ApiStatus& status) {
    nlohmann::json object = status;
    object.erase("requestId");
    // Statements may carry invalid UTF-8 that error messages quote; replace it, never throw.
    return object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

StatusJson::StatusJson() {
    static const StatusJson pending(ApiStatus::pending());
    m_value = pending.m_value;
}

StatusJson::StatusJson(const ApiStatus& status)
    : m_value(std::make_shared<const Value>(Value{
          status.apiStatus, status.isError() ? std::optional(status.errorMessage.value_or("")) : std::nullopt,
          serialize(status)})) {}

StatusJson StatusJson::success(const std::function<void(std::string& text)>& write) {
    // nlohmann::json writes an object's keys in order: apiResponse, then apiStatus.
    std::string text = R"({"apiResponse":)";
    write(text);
    text += R"(,"apiStatus":"API_OPERATION_STATUS_SUCCESS"})";
    StatusJson status;
    status.m_value =
        std::make_shared<const Value>(Value{ApiOperationStatus::Success, std::nullopt, std::move(text)});
    return status;
}

StatusJson::WithRequestId StatusJson::withRequestId(std::string_view requestId) const {
    WithRequestId out{sharedText(), {}, {}};
    out.head = std::string_view(*out.text).substr(0, out.text->size() - 1); // without the closing brace
    // Ids this service hands out (UUIDs) need no escaping; others are written as JSON writes them.
    const bool plain = std::all_of(requestId.begin(), requestId.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
    });
    out.tail = R"(,"requestId":)";
    if (plain) {
        out.tail += '"';
        out.tail += requestId;
        out.tail += '"';
    } else {
        out.tail += nlohmann::json(requestId).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    out.tail += '}';
    return out;
}

} // namespace jobdeck
