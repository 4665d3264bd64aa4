#include "service/StatusJson.h"

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

std::string StatusJson::withRequestId(std::string_view requestId) const {
    const std::string& object = text();
    // Ids this service hands out (UUIDs) need no escaping; others are written as JSON writes them.
    const bool plain = std::all_of(requestId.begin(), requestId.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
    });
    std::string out;
    out.reserve(object.size() + requestId.size() + 18);
    out.append(object, 0, object.size() - 1); // without the closing brace
    out += R"(,"requestId":)";
    if (plain) {
        out += '"';
        out += requestId;
        out += '"';
    } else {
        out += nlohmann::json(requestId).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    out += '}';
    return out;
}

} // namespace jobdeck
