#pragma once

#include <cstddef>
#include <string>

namespace jobdeck {

// Random identifiers and secrets, from OpenSSL's generator; throws DatabaseError when it is not available.
class RandomIds final {
public:
    // A UUID (v4).
    static std::string randomUuid();
    // A UUID v7 (RFC 9562): the time in milliseconds, then 74 random bits. Ids that are stored as
    // they come (request ids) then land at the end of their index instead of on a random page of it,
    // so a group commit of thousands writes a few pages, not one each.
    static std::string timeOrderedUuid();
    // `bytes` random bytes as lower-case hex.
    static std::string randomHex(std::size_t bytes);
    // `size` random bytes at `out`.
    static void fill(unsigned char* out, std::size_t size);
    static std::string toHex(const unsigned char* data, std::size_t size);
};

} // namespace jobdeck
