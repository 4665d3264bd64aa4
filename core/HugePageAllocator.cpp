#include "core/HugePageAllocator.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace jobdeck::huge_pages {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kLarge = std::size_t(4) << 20;

std::size_t mappedSize(std::size_t bytes) {
    return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}
} // namespace

bool isLarge(std::size_t bytes) {
#if defined(__linux__)
    return bytes >= kLarge;
#else
    (void)bytes;
    return false;
#endif
}

void* allocate(std::size_t bytes) {
#if defined(__linux__)
    if (isLarge(bytes)) {
        const std::size_t size = mappedSize(bytes);
        // One huge page more than needed, so an aligned block fits; the ends outside it are unmapped.
        void* const raw =
            mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED)
            throw std::bad_alloc();
        const auto start = reinterpret_cast<std::uintptr_t>(raw);
        const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
        if (aligned > start)
            munmap(raw, aligned - start);
        if (const std::uintptr_t tail = start + size + kHugePage - (aligned + size); tail > 0)
            munmap(reinterpret_cast<void*>(aligned + size), tail);
        void* const block = reinterpret_cast<void*>(aligned);
        advise(block, size);
        return block;
    }
#endif
    return ::operator new(bytes);
}

void advise(const void* p, std::size_t bytes) noexcept {
#if defined(__linux__)
    const auto begin = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t from = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t to = (begin + bytes) & ~(kHugePage - 1);
    if (to > from) // a kernel without THP refuses: ordinary pages then
        madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

void deallocate(void* p, std::size_t bytes) noexcept {
#if defined(__linux__)
    if (isLarge(bytes)) {
        munmap(p, mappedSize(bytes));
        return;
    }
#endif
    ::operator delete(p);
}

} // namespace jobdeck::huge_pages
