#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>

namespace jobdeck {

// A vector whose first N elements live inside it, uninitialised until pushed: the validator's working
// lists for a typical job then cost no allocation (each malloc/free pair cost more than the work it
// held), and a long job's lists move to the heap once. Only for trivially copyable elements, so moving
// them is a copy and nothing needs destroying. Neither copyable nor movable: it points into itself.
template <typename T, std::size_t N> class SmallVector final {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    SmallVector() = default;
    ~SmallVector() {
        if (m_data != inlineData())
            std::allocator<T>().deallocate(m_data, m_capacity);
    }
    SmallVector(const SmallVector&) = delete;
    SmallVector& operator=(const SmallVector&) = delete;

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    T* data() { return m_data; }
    const T* data() const { return m_data; }
    T* begin() { return m_data; }
    T* end() { return m_data + m_size; }
    const T* begin() const { return m_data; }
    const T* end() const { return m_data + m_size; }
    T& operator[](std::size_t i) { return m_data[i]; }
    const T& operator[](std::size_t i) const { return m_data[i]; }
    T& back() { return m_data[m_size - 1]; }
    operator std::span<T>() { return {m_data, m_size}; }
    operator std::span<const T>() const { return {m_data, m_size}; }

    void reserve(std::size_t capacity) {
        if (capacity > m_capacity)
            grow(capacity);
    }

    void push_back(const T& value) {
        if (m_size == m_capacity)
            grow(2 * m_capacity);
        std::construct_at(m_data + m_size++, value);
    }

    // Makes it `count` copies of `value`.
    void assign(std::size_t count, const T& value) {
        m_size = 0;
        reserve(count);
        for (; m_size < count; ++m_size)
            std::construct_at(m_data + m_size, value);
    }

private:
    // The bytes implicitly hold T objects (C++20: an array of std::byte provides storage for them).
    T* inlineData() { return reinterpret_cast<T*>(m_inline); }

    void grow(std::size_t capacity) {
        T* heap = std::allocator<T>().allocate(capacity);
        std::uninitialized_copy_n(m_data, m_size, heap);
        if (m_data != inlineData())
            std::allocator<T>().deallocate(m_data, m_capacity);
        m_data = heap;
        m_capacity = capacity;
    }

    // Room for N elements, whatever T is (a pointer too).
    alignas(T) std::byte m_inline[N * sizeof(T)]; // NOLINT(bugprone-sizeof-expression)
    T* m_data = inlineData();                     // m_inline, or the heap once more than N were wanted
    std::size_t m_size = 0;
    std::size_t m_capacity = N;
};

} // namespace jobdeck
