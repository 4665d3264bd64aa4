#include "core/wire/ApiStatus.h"

#include "core/wire/WireFields.h"

#include <utility>

namespace jobdeck {

std::string_view apiOperationStatusName(ApiOperationStatus s) {
    switch (s) {
    case ApiOperationStatus::Pending:
        return "API_OPERATION_STATUS_PENDING";
    case ApiOperationStatus::Success:
        return "API_OPERATION_STATUS_SUCCESS";
    case ApiOperationStatus::Failed:
        return "API_OPERATION_STATUS_FAILED";
    case ApiOperationStatus::Invalid:
        return "API_OPERATION_STATUS_INVALID";
    }
    return "API_OPERATION_STATUS_FAILED";
}

std::optional<ApiOperationStatus> apiOperationStatusFromName(std::string_view name) {
    for (auto s : {ApiOperationStatus::Pending, ApiOperationStatus::Success, ApiOperationStatus::Failed,
                   ApiOperationStatus::Invalid})
        if (apiOperationStatusName(s) == name)
            return s;
    return std::nullopt;
}

ApiStatus ApiStatus::pending() {
    return {};
}

ApiStatus ApiStatus::success(nlohmann::json response) {
    ApiStatus s;
    s.apiStatus = ApiOperationStatus::Success;
    s.apiResponse = std::move(response);
    return s;
}

ApiStatus ApiStatus::failed(std::string message) {
    ApiStatus s;
    s.apiStatus = ApiOperationStatus::Failed;
    s.errorMessage = std::move(message);
    return s;
}

ApiStatus ApiStatus::internalError(std::string_view requestId, bool storage) {
    std::string message = storage ? "Internal error: the service could not read or write its database"
                                  : "Internal error: the service could not complete the statement";
    message += requestId.empty()
                   ? std::string(" (the service log has the details)")
                   : " (request " + std::string(requestId) + "; the service log has the details)";
    return failed(std::move(message));
}

ApiStatus ApiStatus::invalid(std::string message) {
    ApiStatus s;
    s.apiStatus = ApiOperationStatus::Invalid;
    s.errorMessage = std::move(message);
    return s;
}

ApiStatus ApiStatus::refused(std::string message, std::string_view diagnosticCode, int parameterIndex) {
    ApiStatus s = failed(std::move(message));
    s.diagnosticCode = std::string(diagnosticCode);
    if (parameterIndex >= 0)
        s.parameterIndex = parameterIndex;
    return s;
}

void to_json(nlohmann::json& j, const ApiStatus& s) {
    j = nlohmann::json::object();
    j["apiStatus"] = apiOperationStatusName(s.apiStatus);
    j["apiResponse"] = s.apiResponse.is_null() ? nlohmann::json::object() : s.apiResponse;
    if (s.isError()) {
        j["errorMessage"] = s.errorMessage.value_or(std::string());
        if (s.errorReason)
            j["errorReason"] = *s.errorReason;
        if (s.diagnosticCode)
            j["diagnosticCode"] = *s.diagnosticCode;
        if (s.parameterIndex)
            j["parameterIndex"] = *s.parameterIndex;
    }
    if (s.requestId)
        j["requestId"] = *s.requestId;
}

void from_json(const nlohmann::json& j, ApiStatus& s) {
    constexpr std::string_view object = "status";
    wire::requireObject(j, object);
    const auto name = wire::required<std::string>(j, object, "apiStatus");
    const auto status = apiOperationStatusFromName(name);
    if (!status)
        wire::throwUnknownValue(object, "apiStatus", name);
    ApiStatus r;
    r.apiStatus = *status;
    if (const auto it = j.find("apiResponse"); it != j.end() && !it->is_null()) {
        if (!it->is_object())
            wire::throwInvalid(object, "apiResponse",
                               std::string("must be an object, got ") + it->type_name());
        r.apiResponse = *it;
    }
    if (r.isError()) {
        r.errorMessage = wire::required<std::string>(j, object, "errorMessage");
        r.errorReason = wire::optional<std::string>(j, object, "errorReason");
        r.diagnosticCode = wire::optional<std::string>(j, object, "diagnosticCode");
        r.parameterIndex = wire::optional<int>(j, object, "parameterIndex");
    }
    r.requestId = wire::optional<std::string>(j, object, "requestId");
    s = std::move(r);
}

} // namespace jobdeck
