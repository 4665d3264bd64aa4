#pragma once

#include "client/ApiError.h"

#include <QObject>

#include <optional>

namespace jobdeck {

// The untyped half of ApiReply<T> (moc cannot handle templates): the finished signal and the error.
// A reply emits finished() exactly once and deletes itself afterwards (deleteLater), so a receiver
// copies what it needs inside its slot.
class ApiReplyBase : public QObject {
    Q_OBJECT
public:
    bool isFinished() const { return m_finished; }
    bool isError() const { return m_error.has_value(); }
    // Only meaningful when isError().
    const ApiError& error() const { return *m_error; }

    void reject(ApiError error);

signals:
    void finished();

protected:
    explicit ApiReplyBase(QObject* parent)
        : QObject(parent) {}
    void finish();

private:
    bool m_finished = false;
    std::optional<ApiError> m_error;
};

} // namespace jobdeck
