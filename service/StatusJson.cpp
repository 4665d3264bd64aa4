#include "service/StatusJson.h"

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
    const std::string id =
        nlohmann::json(requestId).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(object.size() + id.size() + 16);
    out.append(object, 0, object.size() - 1); // without the closing brace
    out += R"(,"requestId":)";
    out += id;
    out += '}';
    return out;
}

} // namespace jobdeck
