// libFuzzer entry: the HTTP request path (parsing with the server's limits, routing, statement body,
// audited headers).
#include "fuzz/HttpFuzzEntries.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string failure = jobdeck::fuzz::checkHttpRequest({reinterpret_cast<const char*>(data), size});
    if (!failure.empty()) {
        std::fprintf(stderr, "fuzz_httprequest check failed: %s\n", failure.c_str());
        std::abort();
    }
    return 0;
}
