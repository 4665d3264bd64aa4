#pragma once

#include <cstdint>

namespace jobdeck {

// What one step of a retention sweep did: expired rows are deleted a small batch at a time, in the
// order they were made, each batch in one short transaction.
struct SweepStep final {
    int deleted = 0;
    std::int64_t last = 0; // where the next step starts (`after`)
    bool done = false;     // nothing older than the cutoff follows
};

} // namespace jobdeck
