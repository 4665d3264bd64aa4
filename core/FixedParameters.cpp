#include "core/FixedParameters.h"

#include <algorithm>

namespace jobdeck {

FixedParameters::Base::Base(const std::vector<std::string>& parameters)
    : m_ends(parameters.size()) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < parameters.size(); ++i)
        m_ends[i] = total += parameters[i].size();
    m_text.resize(total);
    char* out = m_text.data();
    for (const std::string& p : parameters)
        out = std::copy(p.begin(), p.end(), out);
}

std::string FixedParameters::Base::at(std::size_t index) const {
    const std::size_t begin = index == 0 ? 0 : m_ends[index - 1];
    return m_text.substr(begin, m_ends[index] - begin);
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
