#pragma once

#include <cstdint>

namespace jobdeck {

// A number that moves whenever anything was committed to the database since it was last read, by this
// process or any other. Read it before what is to be cached: an entry tagged with the stamp of its time
// is current while the stamp stays. Thread-safe.
class ChangeStamp {
public:
    virtual ~ChangeStamp() = default;
    virtual std::uint64_t current() = 0;
    // True when current() reads only this host's files (SQLite): it never waits on a server that may
    // stall, so it may be read on a thread that must not block for long.
    virtual bool isLocal() const { return false; }
};

} // namespace jobdeck
