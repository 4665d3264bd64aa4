// libFuzzer entry: classify + validate + text-form round trips of parameters split at '\n' / NUL.
#include "fuzz/FuzzEntries.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string failure =
        jobdeck::fuzz::checkParameterPipeline({reinterpret_cast<const char*>(data), size});
    if (!failure.empty()) {
        std::fprintf(stderr, "parameter pipeline check failed: %s\n", failure.c_str());
        std::abort();
    }
    return 0;
}
