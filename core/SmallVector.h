#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace jobdeck {

// A vector whose first N elements live inside it, uninitialised until pushed: the validator's working
// lists for a typical job then cost no allocation (each malloc/free pair cost more than the work it
// held), and a long job's lists move to the heap once. Only for trivially copyable elements, so moving
// them is a copy and nothing needs destroying. Neither copyable nor movable: it lives where it is used.
template <typename T, std::size_t N> class SmallVector final {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    SmallVector() = default;
    SmallVector(const SmallVector&) = delete;
    SmallVector& operator=(const SmallVector&) = delete;

    std::size_t size() const { return m_spilled ? m_heap.size() : m_size; }
    bool empty() const { return size() == 0; }
    T* data() { return m_spilled ? m_heap.data() : inlineData(); }
    const T* data() const { return m_spilled ? m_heap.data() : inlineData(); }
    T* begin() { return data(); }
    T* end() { return data() + size(); }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size(); }
    T& operator[](std::size_t i) { return data()[i]; }
    const T& operator[](std::size_t i) const { return data()[i]; }
    T& back() { return data()[size() - 1]; }
    operator std::span<T>() { return {data(), size()}; }
    operator std::span<const T>() const { return {data(), size()}; }

    void reserve(std::size_t capacity) {
        if (m_spilled)
            m_heap.reserve(capacity);
        else if (capacity > N)
            spill(capacity);
    }

    void push_back(const T& value) {
        if (m_spilled) {
            m_heap.push_back(value);
            return;
        }
        if (m_size == N)
            spill(2 * N);
        else {
            std::construct_at(inlineData() + m_size++, value);
            return;
        }
        m_heap.push_back(value);
    }

    // Makes it `count` copies of `value`.
    void assign(std::size_t count, const T& value) {
        if (m_spilled || count > N) {
            m_heap.assign(count, value);
            m_spilled = true;
            return;
        }
        for (m_size = 0; m_size < count; ++m_size)
            std::construct_at(inlineData() + m_size, value);
    }

private:
    // The bytes implicitly hold T objects (C++20: an array of std::byte provides storage for them).
    T* inlineData() { return reinterpret_cast<T*>(m_inline); }
    const T* inlineData() const { return reinterpret_cast<const T*>(m_inline); }

    void spill(std::size_t capacity) {
        m_heap.reserve(capacity);
        m_heap.assign(inlineData(), inlineData() + m_size);
        m_spilled = true;
    }

    // Room for N elements, whatever T is (a pointer too).
    alignas(T) std::byte m_inline[N * sizeof(T)]; // NOLINT(bugprone-sizeof-expression)
    std::size_t m_size = 0; // elements inline, while not spilled
    bool m_spilled = false;
    std::vector<T> m_heap;
};

} // namespace jobdeck
