#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace jobdeck {

// Hashes std::string keys and looks them up by std::string_view (with std::equal_to<>), so a lookup
// by a view makes no string first.
struct TextHash final {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

} // namespace jobdeck
