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
    // Moves the value out, for the receiver that keeps a large one (100,000 jobs) rather than copying
    // it; value() is empty afterwards. Receivers declared with a non-const ApiReply& may call it.
    T takeValue() { return std::move(*m_value); }

    void resolve(T value) {
        if (isFinished())
            return;
        m_value = std::move(value);
        finish();
    }

    // Calls f(ApiReply<T>&) (or f(const ApiReply<T>&)) once finished, unless context is gone by then.
    template <class F> ApiReply* then(const QObject* context, F f) {
        connect(this, &ApiReplyBase::finished, context, [this, f = std::move(f)] { f(*this); });
        return this;
    }

private:
    std::optional<T> m_value;
};

} // namespace jobdeck
