#pragma once

#include "service/stores/SqlConnection.h"
#include "service/stores/UnitOfWork.h"

#include <concepts>

namespace jobdeck {

// How a backend lends its connections to the stores written once for both (SharedStores.h): a
// connection for this thread's reads (the step's inside a step, the snapshot's inside a snapshot), one
// outside any snapshot for what was committed just now, one for writes that join the step under way,
// and the steps themselves. Each returns a handle that `*` turns into a SqlConnection.
template <class Access>
concept StoreAccess = requires(Access& access) {
    { *access.read() } -> SqlConnection;
    { *access.readFresh() } -> SqlConnection;
    { *access.write() } -> SqlConnection;
    { access.steps() } -> std::same_as<UnitOfWork&>;
};

} // namespace jobdeck
