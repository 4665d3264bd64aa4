#pragma once

#include <string>

namespace jobdeck {

// SQLite maps every WAL database's `-shm` file (its WAL index, shared by all processes that use the
// database) and reads and writes it as memory. When that file can no longer be written or read (the
// data directory made immutable, an I/O error), the kernel answers the access with SIGBUS, which
// would kill the process in the middle of any request. The mapping is not optional: it is how
// `jobdeckd keys create` and the service see each other's commits.
//
// install() sets a SIGBUS handler that, for a fault inside a mapped `-shm` file only, puts a private
// copy of the page in place (what the file holds, or zeros when it cannot be read), so the access
// completes, and records the fault. From then on SqliteDatabase refuses every statement with
// message(): this process's view of the WAL index may differ from the file's, so the database is
// not touched again until jobdeckd restarts. A SIGBUS anywhere else keeps its default action.
class WalIndexFaults final {
public:
    // Process-wide, once; later calls do nothing.
    static void install();
    // True once a fault was absorbed.
    static bool occurred();
    // The one line every database access answers after a fault.
    static std::string message();
};

} // namespace jobdeck
