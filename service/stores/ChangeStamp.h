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
};

} // namespace jobdeck
