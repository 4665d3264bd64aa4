#pragma once

#include "service/stores/SqlConnection.h"
#include "service/stores/UnitOfWork.h"

#include <concepts>
#include <string>

namespace jobdeck {

// How a backend lends its connections to the stores written once for both (SharedStores.h): a
// connection for this thread's reads (the step's inside a step, the snapshot's inside a snapshot), one
// outside any snapshot for what was committed just now, one for writes that join the step under way,
// and the steps themselves. Each returns a handle that `*` turns into a SqlConnection. `kLocksRows`:
// whether a step holds only the rows it reads with a locking clause (PostgreSQL: steps run at once), or
// the whole database (SQLite: one writer), so that no clause is needed.
template <class Access>
concept StoreAccess = requires(Access& access) {
    { Access::kLocksRows } -> std::convertible_to<bool>;
    { *access.read() } -> SqlConnection;
    { *access.readFresh() } -> SqlConnection;
    { *access.write() } -> SqlConnection;
    { access.steps() } -> std::same_as<UnitOfWork&>;
};

// `clause` (" FOR UPDATE", ...) when this thread is inside a step and the backend locks rows; else
// nothing: a read outside a step decides nothing, and SQLite's step holds the one writer already.
template <StoreAccess Access> bool locksRowsHere(Access& access) {
    return Access::kLocksRows && access.steps().inStepOnThisThread();
}
template <StoreAccess Access> std::string rowLock(Access& access, const char* clause) {
    return locksRowsHere(access) ? std::string(" ") + clause : std::string();
}

} // namespace jobdeck
