#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// The outcome of a statement (GET /v1/status/<requestId> -> "apiStatus").
enum class ApiOperationStatus { Pending, Success, Failed, Invalid };

// "API_OPERATION_STATUS_PENDING", "..._SUCCESS", "..._FAILED", "..._INVALID".
std::string_view apiOperationStatusName(ApiOperationStatus s);
std::optional<ApiOperationStatus> apiOperationStatusFromName(std::string_view name);

// The status envelope:
//   {"apiStatus": "API_OPERATION_STATUS_FAILED", "apiResponse": {}, "errorMessage": "...", "requestId":
//   "..."}
// Required: apiStatus; errorMessage when FAILED or INVALID. Optional: apiResponse (an object, {} when
// absent), requestId (only in the answer to `POST /v1/resource/` with `Prefer: wait`).
// to_json writes errorMessage exactly when the status is FAILED or INVALID (an empty string if none was
// set), whatever the struct holds; from_json drops an errorMessage sent with PENDING or SUCCESS.
// A refusal by the parameter validator also carries "diagnosticCode" (its code, docs/parameters.md) and,
// when it concerns one parameter, "parameterIndex" (0-based, into PARAMETERS as sent): this project's
// fields, written only with FAILED or INVALID; clients of the Onehouse API ignore them. So is
// "errorReason": why a refusal whose errorMessage is a fixed text applied here (RUN JOB at a limit the
// project's setting lowered), so that the message stays what clients match.
struct ApiStatus final {
    ApiOperationStatus apiStatus = ApiOperationStatus::Pending;
    nlohmann::json apiResponse = nlohmann::json::object();
    std::optional<std::string> errorMessage;
    std::optional<std::string> errorReason;
    std::optional<std::string> requestId;
    std::optional<std::string> diagnosticCode;
    std::optional<int> parameterIndex;

    static ApiStatus pending();
    static ApiStatus success(nlohmann::json response);
    // FAILED: a valid statement that was refused or failed when executed.
    static ApiStatus failed(std::string message);
    // INVALID: a syntax or semantic error in the statement.
    static ApiStatus invalid(std::string message);
    // FAILED by a fault of the service, not of the statement: the message names no internals (the
    // service logs them) but the request id to find them by. `storage`: the database failed.
    static ApiStatus internalError(std::string_view requestId, bool storage);
    // FAILED by a diagnostic of the parameter validator: its message, code and parameter (-1: none).
    static ApiStatus refused(std::string message, std::string_view diagnosticCode, int parameterIndex);

    bool isFinal() const { return apiStatus != ApiOperationStatus::Pending; }
    bool isError() const {
        return apiStatus == ApiOperationStatus::Failed || apiStatus == ApiOperationStatus::Invalid;
    }
    bool operator==(const ApiStatus&) const = default;
};

void to_json(nlohmann::json& j, const ApiStatus& s);
void from_json(const nlohmann::json& j, ApiStatus& s);

} // namespace jobdeck
