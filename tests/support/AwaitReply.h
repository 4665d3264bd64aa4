#pragma once

// Console tests: waiting for one API answer, and where screenshots go.

#include "client/ApiReply.h"

#include <QDir>
#include <QObject>
#include <QString>
#include <QTest>

#include <optional>

namespace jobdeck::test {

// Waits, at most timeoutMs, for `reply`. On an error `error` gets the service's exact message (or, without
// `error`, the failure is printed); a reply that never answers is printed and gives no value.
template <class T>
std::optional<T> awaitReply(ApiReply<T>* reply, QString* error = nullptr, int timeoutMs = 30000) {
    QObject context;
    std::optional<T> value;
    bool done = false;
    reply->then(&context, [&](const ApiReply<T>& r) {
        done = true;
        if (!r.isError())
            value = r.value();
        else if (error)
            *error = r.error().message;
        else
            qWarning("%s", qPrintable(r.error().toString()));
    });
    if (!QTest::qWaitFor([&] { return done; }, timeoutMs))
        qWarning("no answer in %d ms", timeoutMs);
    return value;
}

// The test run's artefacts directory (screenshots), created when missing.
inline QString artifactsDir() {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QDir().mkpath(dir);
    return dir;
}

} // namespace jobdeck::test
