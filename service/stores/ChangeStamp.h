#pragma once

#include <cstdint>
#include <optional>

namespace jobdeck {

// A number that moves whenever anything was committed to the database since it was last read, by this
// process or any other. Read it before what is to be cached: an entry tagged with the stamp of its time
// is current while the stamp stays. Thread-safe.
class ChangeStamp {
public:
    virtual ~ChangeStamp() = default;
    virtual std::uint64_t current() = 0;
    // The stamp, and the API keys' generation (KeyRows::generation) where the backend reads both in one
    // round trip to its server: a request's authentication then costs one read, not two.
    struct Reading {
        std::uint64_t stamp = 0;
        std::optional<std::int64_t> keyGeneration; // empty: read KeyRows::generation when needed
    };
    virtual Reading read() { return {current(), std::nullopt}; }
    // True when current() reads only this host's files (SQLite): it never waits on a server that may
    // stall, so it may be read on a thread that must not block for long.
    virtual bool isLocal() const { return false; }
};

} // namespace jobdeck
