#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace jobdeck {

// The parts one after the other, in one allocation: for messages built on every validation, where a chain
// of operator+ allocates once per part.
inline std::string concat(std::initializer_list<std::string_view> parts) {
    std::size_t size = 0;
    for (const std::string_view p : parts)
        size += p.size();
    std::string out;
    out.reserve(size);
    for (const std::string_view p : parts)
        out += p;
    return out;
}

} // namespace jobdeck
