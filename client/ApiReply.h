#pragma once

#include "client/ApiReplyBase.h"

#include <optional>
#include <utility>

namespace jobdeck {

// The typed result of one asynchronous call: either a value or an ApiError.
//   client->describeJob("x")->then(this, [](const ApiReply<SparkJob>& r) { ... r.value() ... });
template <class T> class ApiReply final : public ApiReplyBase {
public:
    explicit ApiReply(QObject* parent)
        : ApiReplyBase(parent) {}

    // Only meaningful when finished without error.
    const T& value() const { return *m_value; }

    void resolve(T value) {
        if (isFinished())
            return;
        m_value = std::move(value);
        finish();
    }

    // Calls f(const ApiReply<T>&) once finished, unless context is gone by then.
    template <class F> ApiReply* then(const QObject* context, F f) {
        connect(this, &ApiReplyBase::finished, context, [this, f = std::move(f)] { f(*this); });
        return this;
    }

private:
    std::optional<T> m_value;
};

} // namespace jobdeck
