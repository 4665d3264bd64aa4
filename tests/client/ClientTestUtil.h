#pragma once

// Waiting for an ApiReply in a test: the outcome is copied out before the reply deletes itself.

#include "client/ApiReply.h"

#include <QObject>
#include <QTest>

#include <optional>

namespace jobdeck::test {

template <class T> struct Outcome {
    bool finished = false;
    std::optional<T> value;
    std::optional<ApiError> error;
    QString errorText() const { return error ? error->toString() : QString(); }
};

template <class T> Outcome<T> waitFor(ApiReply<T>* reply, int timeoutMs = 20000) {
    Outcome<T> outcome;
    QObject context;
    reply->then(&context, [&outcome](const ApiReply<T>& r) {
        outcome.finished = true;
        if (r.isError())
            outcome.error = r.error();
        else
            outcome.value = r.value();
    });
    if (!QTest::qWaitFor([&] { return outcome.finished; }, timeoutMs))
        outcome.error = ApiError{ApiError::Kind::Timeout, QStringLiteral("the test gave up waiting")};
    return outcome;
}

} // namespace jobdeck::test
