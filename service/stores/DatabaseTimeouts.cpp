#include "service/stores/DatabaseTimeouts.h"

namespace jobdeck {

namespace {

// Written once by set(), before any connection is opened (and so before the threads that read it are
// started), then only read: no lock on the path of every statement.
DatabaseTimeouts g_timeouts;

} // namespace

DatabaseTimeouts DatabaseTimeouts::current() {
    return g_timeouts;
}

void DatabaseTimeouts::set(const DatabaseTimeouts& timeouts) {
    g_timeouts = timeouts;
}

} // namespace jobdeck
