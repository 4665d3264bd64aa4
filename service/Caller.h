#pragma once

#include "service/Principal.h"

#include <cstdint>

namespace jobdeck {

// Who sends one request, as its credentials were checked for it. Built per request and never kept:
// the stamp is what was committed when this request's key was checked, so an answer cached under it
// is current for this request only. A Principal, which is kept (the key cache) and reused, has none.
struct Caller final {
    Principal principal;
    // Storage::changeStamp() read when the key was checked, before anything the request reads.
    std::uint64_t changeStamp = 0;
};

} // namespace jobdeck
