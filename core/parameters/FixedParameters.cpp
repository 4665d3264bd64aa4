#include "core/parameters/FixedParameters.h"

#include <algorithm>
#include <cstring>

namespace jobdeck {

FixedParameters::Base::Base(const std::vector<std::string>& parameters)
    : m_size(parameters.size()) {
    constexpr std::size_t kEnd = sizeof(std::size_t);
    std::size_t total = 0;
    for (const std::string& p : parameters)
        total += p.size();
    m_data.resize(m_size * kEnd + total);
    char* ends = m_data.data();
    char* text = ends + m_size * kEnd;
    std::size_t end = 0;
    for (const std::string& p : parameters) {
        end += p.size();
        std::memcpy(ends, &end, kEnd);
        ends += kEnd;
        text = std::copy(p.begin(), p.end(), text);
    }
}

std::size_t FixedParameters::Base::endOf(std::size_t index) const {
    std::size_t end = 0;
    std::memcpy(&end, m_data.data() + index * sizeof(std::size_t), sizeof(std::size_t));
    return end;
}

std::string FixedParameters::Base::at(std::size_t index) const {
    const std::size_t begin = index == 0 ? 0 : endOf(index - 1);
    return m_data.substr(m_size * sizeof(std::size_t) + begin, endOf(index) - begin);
}

FixedParameters::FixedParameters(const std::vector<std::string>& corrected)
    : FixedParameters(std::make_shared<const Base>(corrected), 0, 0) {}

FixedParameters::FixedParameters(std::shared_ptr<const Base> base, std::size_t first, std::size_t count)
    : m_base(std::move(base))
    , m_first(first)
    , m_count(count) {}

bool FixedParameters::operator==(const FixedParameters& other) const {
    if (m_base == other.m_base && m_first == other.m_first && m_count == other.m_count)
        return true;
    return list() == other.list();
}

std::vector<std::string> FixedParameters::list() const {
    std::vector<std::string> out;
    if (!m_base)
        return out;
    const std::size_t size = m_base->size();
    out.reserve(size);
    std::size_t next = 0; // the first token of the base not yet copied or replaced
    const auto copyUpTo = [&](std::size_t end) {
        for (; next < std::min(end, size); ++next)
            out.push_back(m_base->at(next));
    };
    for (std::size_t i = m_first; i < m_first + m_count; ++i) {
        const Splice& s = m_base->splices[i];
        copyUpTo(s.begin);
        out.insert(out.end(), s.with.begin(), s.with.end());
        next = std::max(next, std::min(s.end, size));
    }
    copyUpTo(size);
    return out;
}

} // namespace jobdeck
