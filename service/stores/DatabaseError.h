#pragma once

#include <stdexcept>
#include <string>

namespace jobdeck {

// A storage failure (cannot open, disk full, constraint violated, server gone, ...), of either backend.
// what() is safe to show: it never contains bound values, only the database's own message.
class DatabaseError : public std::runtime_error {
public:
    enum class Cause {
        Other,
        ConstraintViolation, // a unique, foreign-key or check constraint refused the write
        Unavailable,         // the database cannot be reached now; a later attempt may succeed
    };

    explicit DatabaseError(const std::string& message, Cause cause = Cause::Other)
        : std::runtime_error(message)
        , m_cause(cause) {}
    Cause cause() const { return m_cause; }
    bool isConstraintViolation() const { return m_cause == Cause::ConstraintViolation; }
    bool isUnavailable() const { return m_cause == Cause::Unavailable; }

private:
    Cause m_cause;
};

} // namespace jobdeck
