#pragma once

#include <QString>

#include <utility>

namespace jobdeck {

// Why a call to jobdeckd did not give a value. `message` is the service's exact errorMessage for
// Invalid and Failed, so the console can show what the service said, to the letter.
struct ApiError final {
    enum class Kind {
        Invalid,  // API_OPERATION_STATUS_INVALID: syntax or semantic error in the statement
        Failed,   // API_OPERATION_STATUS_FAILED, or an HTTP refusal other than 401
        Auth,     // 401: missing or wrong credentials
        Network,  // the service could not be reached
        Timeout,  // no final answer in time
        Protocol, // an answer the client cannot read
    };
    ApiError() = default;
    ApiError(Kind kind, QString message, QString diagnosticCode = {}, int parameterIndex = -1)
        : kind(kind)
        , message(std::move(message))
        , diagnosticCode(std::move(diagnosticCode))
        , parameterIndex(parameterIndex) {}

    Kind kind = Kind::Protocol;
    QString message;
    // A refusal by the parameter validator: its code and the parameter it concerns (-1: the whole list).
    QString diagnosticCode;
    int parameterIndex = -1;
    // The reason the service gives in a field of its own beside errorMessage (errorReason; e.g. why
    // the project narrowed a Job's run limit); empty when it sent none.
    QString errorReason;

    static QString kindName(Kind kind);
    // "Failed: Job run x is already COMPLETED"; for display where the kind matters.
    QString toString() const { return kindName(kind) + QStringLiteral(": ") + message; }
};

inline QString ApiError::kindName(Kind kind) {
    switch (kind) {
    case Kind::Invalid:
        return QStringLiteral("Invalid");
    case Kind::Failed:
        return QStringLiteral("Failed");
    case Kind::Auth:
        return QStringLiteral("Not authorized");
    case Kind::Network:
        return QStringLiteral("Network");
    case Kind::Timeout:
        return QStringLiteral("Timeout");
    case Kind::Protocol:
        return QStringLiteral("Protocol");
    }
    return QStringLiteral("Error");
}

} // namespace jobdeck
