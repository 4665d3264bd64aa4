#pragma once

#include <QString>

#include <string_view>

namespace jobdeck {

// Core's text (UTF-8 std::string or std::string_view) as a QString: how every console model and view
// shows what core composed.
inline QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace jobdeck
