// LIBS: jobdeck_service
// The key-existence timing oracle (docs/reliability.md): medians of KeyStore::authenticate for an
// unknown key and for a known (cached) key with a wrong secret, and for the right secret as the
// reference. The first two must be close: both look the key up and hash once.
#include "service/stores/SqliteStores.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace jobdeck;
using Clock = std::chrono::steady_clock;

namespace {

// Median in microseconds of `count` calls, interleaved with the others by the caller.
double median(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return samples.empty() ? 0 : samples[samples.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    const int count = argc > 1 ? std::atoi(argv[1]) : 2000;
    if (count < 1) {
        std::fprintf(stderr, "usage: %s [calls per case, default 2000]\n", argv[0]);
        return 2;
    }
    char pattern[] = "/tmp/bench_auth_timing.XXXXXX";
    if (!mkdtemp(pattern)) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::filesystem::path dir(pattern);
    int status = 0;
    try {
        auto stores = SqliteStores::open("sqlite:" + (dir / "jobdeck.db").string());
        const CreatedKey key = stores->keys().createKey("bench", Role::Viewer);
        const std::string wrongSecret(key.apiSecret.size(), '0');
        const std::string unknownKey(key.apiKey.size(), '0');
        stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret); // cached from here on
        std::vector<double> unknown, wrong, right;
        auto time = [&](std::vector<double>& into, const std::string& apiKey, const std::string& secret) {
            const auto start = Clock::now();
            stores->keys().authenticate(key.projectUid, apiKey, secret);
            into.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
        };
        for (int i = 0; i < count; ++i) { // interleaved, so drifts of the machine hit all three alike
            time(unknown, unknownKey, wrongSecret);
            time(wrong, key.apiKey, wrongSecret);
            time(right, key.apiKey, key.apiSecret);
        }
        const double u = median(unknown), w = median(wrong), r = median(right);
        std::printf("authenticate, median of %d calls each:\n", count);
        std::printf("  unknown key                 %8.2f us\n", u);
        std::printf("  known key, wrong secret     %8.2f us   (difference to unknown: %+.2f us)\n", w, w - u);
        std::printf("  known key, right secret     %8.2f us   (reference: cached, no lookup)\n", r);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_auth_timing: %s\n", e.what());
        status = 1;
    }
    std::filesystem::remove_all(dir);
    return status;
}
