#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace jobdeck {

// Finds a row by its name: an open-addressing table of row pointers, keyed by each row's own name
// (`row->summary.name`, which must stay put while the row is indexed). One array instead of a node per
// row: 100,000 nodes were 100,000 allocations at every load. The table holds rows, not row numbers, so
// rows moving up or down (an insert, a removal) leave it unchanged.
template <class Row> class RowNameIndex final {
public:
    void clear() {
        m_slots.assign(16, nullptr);
        m_count = 0;
    }
    // Room for n rows without growing.
    void reserve(std::size_t n) {
        std::size_t size = 16;
        while (size < 2 * n)
            size *= 2;
        if (size > m_slots.size())
            rehash(size);
    }
    std::size_t size() const { return m_count; }

    Row* find(std::string_view name) const {
        if (m_slots.empty())
            return nullptr;
        for (std::size_t i = home(name);; i = next(i)) {
            Row* const row = m_slots[i];
            if (row == nullptr || row->summary.name == name)
                return row;
        }
    }
    // Adds the row, or replaces the one with its name.
    void insert(Row* row) {
        if (2 * (m_count + 1) > m_slots.size())
            rehash(m_slots.empty() ? 16 : 2 * m_slots.size());
        std::size_t i = home(row->summary.name);
        while (m_slots[i] != nullptr && m_slots[i]->summary.name != row->summary.name)
            i = next(i);
        m_count += m_slots[i] == nullptr ? 1 : 0;
        m_slots[i] = row;
    }
    void erase(std::string_view name) {
        if (m_slots.empty())
            return;
        std::size_t i = home(name);
        while (m_slots[i] != nullptr && m_slots[i]->summary.name != name)
            i = next(i);
        if (m_slots[i] == nullptr)
            return;
        // Backward shift: each following entry that may sit in the hole (the hole lies between its home
        // and where it is) moves into it, so a lookup never stops short at an empty slot.
        for (std::size_t j = next(i); m_slots[j] != nullptr; j = next(j)) {
            const std::size_t k = home(m_slots[j]->summary.name);
            if (((j - k) & mask()) >= ((j - i) & mask())) {
                m_slots[i] = m_slots[j];
                i = j;
            }
        }
        m_slots[i] = nullptr;
        --m_count;
    }

private:
    std::size_t mask() const { return m_slots.size() - 1; }
    std::size_t home(std::string_view name) const { return std::hash<std::string_view>{}(name)&mask(); }
    std::size_t next(std::size_t i) const { return (i + 1) & mask(); }
    void rehash(std::size_t size) {
        std::vector<Row*> old(size, nullptr);
        old.swap(m_slots);
        m_count = 0;
        for (Row* row : old)
            if (row != nullptr)
                insert(row);
    }

    std::vector<Row*> m_slots; // a power of two in size, at most half full
    std::size_t m_count = 0;
};

} // namespace jobdeck
