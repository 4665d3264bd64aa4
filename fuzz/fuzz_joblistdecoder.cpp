// libFuzzer entry: the SHOW JOBS list and status decoders against json::parse and from_json.
#include "fuzz/FuzzEntries.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string failure =
        jobdeck::fuzz::checkJobListDecoder({reinterpret_cast<const char*>(data), size});
    if (!failure.empty()) {
        std::fprintf(stderr, "fuzz_joblistdecoder check failed: %s\n", failure.c_str());
        std::abort();
    }
    return 0;
}
