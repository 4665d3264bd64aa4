#pragma once

#include "core/wire/DatabaseFaults.h"
#include "service/stores/DatabaseError.h"

#include <exception>
#include <string>

namespace jobdeck {

// A DatabaseError whose cause a client is told (DatabaseFault): a full disk (SQLITE_FULL, ENOSPC,
// SQLSTATE 53100), a timeout (a lock held elsewhere, statement_timeout, a server that does not answer).
// A timeout is Cause::Unavailable: a later attempt may succeed, and HTTP answers it 503.
class DatabaseFaultError final : public DatabaseError {
public:
    DatabaseFaultError(const std::string& message, DatabaseFault fault);
    DatabaseFault fault() const { return m_fault; }

    // What a client is told of `e`: its fault, Unavailable for a DatabaseError that is, else Other.
    static DatabaseFault faultOf(const std::exception& e);
    // The fault of a DatabaseFaultError made within the last few seconds, else DatabaseFault::Other: for
    // answers that only know that a write failed (a group commit's callback).
    static DatabaseFault recentFault();

private:
    DatabaseFault m_fault;
};

} // namespace jobdeck
