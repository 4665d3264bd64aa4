#include "core/HeapRetention.h"

#include <cstdlib> // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace jobdeck {

void retainFreedHeap() {
#if defined(__GLIBC__)
    constexpr int kTrimThreshold = 32 * 1024 * 1024;
    constexpr int kMmapThreshold = 4 * 1024 * 1024;
    mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
#endif
}

} // namespace jobdeck
