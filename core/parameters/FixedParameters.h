#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace jobdeck {

// The corrected parameter list a Fix offers, held as the list it corrects plus the splices that correct
// it. The list is stored once, compactly, and shared with the splices of every fix made on it, so offering
// a fix costs no copy of the list. Reading it (list(), or as a std::vector<std::string>) builds the
// corrected list.
class FixedParameters final {
public:
    // Replaces the tokens [begin, end) by `with`; begin == end inserts before `begin`.
    struct Splice final {
        std::size_t begin = 0;
        std::size_t end = 0;
        std::vector<std::string> with;
    };

    // The list being corrected, frozen, and the splices of the fixes made on it (each fix's a contiguous
    // range). Whoever makes fixes makes one Base per list and appends to `splices` until it hands them out.
    class Base final {
    public:
        explicit Base(const std::vector<std::string>& parameters);
        std::size_t size() const { return m_size; }
        std::string at(std::size_t index) const;

        std::vector<Splice> splices;

    private:
        std::size_t endOf(std::size_t index) const;

        // Where each token ends (size() std::size_t, unaligned), then every token back to back: one
        // allocation, made for every validation that offers a fix.
        std::string m_data;
        std::size_t m_size = 0;
    };

    FixedParameters() = default;
    FixedParameters(const std::vector<std::string>& corrected); // a whole corrected list
    // The splices base->splices[first, first + count), in list order and not overlapping; positions past
    // the end of the list are clamped to it.
    FixedParameters(std::shared_ptr<const Base> base, std::size_t first, std::size_t count);

    std::vector<std::string> list() const;
    operator std::vector<std::string>() const { return list(); }
    // The same corrected list; fixes of one validation compare without building theirs.
    bool operator==(const FixedParameters& other) const;

private:
    std::shared_ptr<const Base> m_base;
    std::size_t m_first = 0;
    std::size_t m_count = 0;
};

} // namespace jobdeck
