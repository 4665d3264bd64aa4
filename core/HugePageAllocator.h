#pragma once

#include <cstddef>
#include <new>

namespace jobdeck {

// Large blocks (4 MiB and more) on their own 2 MiB-aligned mapping that asks the kernel for
// transparent huge pages; smaller ones from operator new. For the arrays a load of 100,000 jobs makes
// at once (the job list's entries, the table's rows, sort keys, filter text): each first touch of a
// fresh 4 KiB page cost 12 to 15 microseconds on the VMs measured, 3 ms per MiB, and a huge page is
// one fault for 2 MiB. Where the kernel has no huge pages to give, the block is ordinary memory.
namespace huge_pages {
void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;
// Whether a block of `bytes` gets a mapping of its own.
bool isLarge(std::size_t bytes);
// Asks for huge pages for the whole 2 MiB pages inside [p, p + bytes) of memory allocated elsewhere (a
// large std::string's buffer, which malloc maps on its own): before it is first written, so it faults
// in 2 MiB at a time. Nothing where the kernel cannot.
void advise(const void* p, std::size_t bytes) noexcept;
} // namespace huge_pages

// Not final: the standard containers derive from their allocator (empty base optimisation).
template <class T> class HugePageAllocator {
public:
    using value_type = T;

    HugePageAllocator() = default;
    template <class U> HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T))
            throw std::bad_array_new_length();
        return static_cast<T*>(huge_pages::allocate(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t n) noexcept { huge_pages::deallocate(p, n * sizeof(T)); }

    template <class U> bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

} // namespace jobdeck
