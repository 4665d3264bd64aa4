#include "service/stores/RandomIds.h"

#include "core/wire/DatabaseFaults.h"

#include "service/stores/DatabaseError.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

namespace jobdeck {

void RandomIds::fill(unsigned char* out, std::size_t size) {
    if (RAND_bytes(out, static_cast<int>(size)) != 1)
        throw DatabaseError(randomSourceUnavailableMessage());
}

std::string RandomIds::toHex(const unsigned char* data, std::size_t size) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        hex += digits[data[i] >> 4];
        hex += digits[data[i] & 0xf];
    }
    return hex;
}

namespace {

// 16 random bytes. Ids are drawn per request: from the generator a few kilobytes at a time, since each
// call into it costs far more than the bytes. The buffer is per thread and its bytes are used once.
std::array<unsigned char, 16> randomBlock() {
    thread_local std::array<unsigned char, 4096> pool{};
    thread_local std::size_t used = pool.size();
    std::array<unsigned char, 16> b{};
    if (used + b.size() > pool.size()) {
        RandomIds::fill(pool.data(), pool.size());
        used = 0;
    }
    std::copy_n(pool.begin() + static_cast<std::ptrdiff_t>(used), b.size(), b.begin());
    OPENSSL_cleanse(pool.data() + used, b.size());
    used += b.size();
    return b;
}

// The RFC 9562 text form, with the version nibble and the variant bits set.
std::string uuidText(std::array<unsigned char, 16> b, unsigned version) {
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | (version << 4));
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
    const std::string hex = RandomIds::toHex(b.data(), b.size());
    std::string text;
    text.reserve(hex.size() + 4);
    for (std::size_t i = 0; i < hex.size(); ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20)
            text += '-';
        text += hex[i];
    }
    return text;
}

} // namespace

std::string RandomIds::randomHex(std::size_t bytes) {
    std::vector<unsigned char> buffer(bytes);
    fill(buffer.data(), buffer.size());
    return toHex(buffer.data(), buffer.size());
}

std::string RandomIds::randomUuid() {
    return uuidText(randomBlock(), 4);
}

std::string RandomIds::timeOrderedUuid() {
    auto b = randomBlock();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    for (int i = 0; i < 6; ++i)
        b[static_cast<std::size_t>(i)] =
            static_cast<unsigned char>(static_cast<std::uint64_t>(millis) >> (40 - 8 * i));
    return uuidText(b, 7);
}

} // namespace jobdeck
