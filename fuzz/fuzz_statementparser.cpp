// libFuzzer entry: statement parser and its print/parse round trip.
#include "fuzz/FuzzEntries.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string failure =
        jobdeck::fuzz::checkStatementParser({reinterpret_cast<const char*>(data), size});
    if (!failure.empty()) {
        std::fprintf(stderr, "statement parser check failed: %s\n", failure.c_str());
        std::abort();
    }
    return 0;
}
