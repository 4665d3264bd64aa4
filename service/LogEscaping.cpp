#include "service/LogEscaping.h"

#include "core/text/Utf8.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <memory>

namespace jobdeck {

namespace {

bool needsEscape(unsigned char c) {
    return c < 0x20 || c == 0x7f || c >= 0x80;
}

void appendEscaped(std::string& out, unsigned char c) {
    static constexpr char hex[] = "0123456789abcdef";
    switch (c) {
    case '\n':
        out += "\\n";
        return;
    case '\r':
        out += "\\r";
        return;
    case '\t':
        out += "\\t";
        return;
    default:
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 0xf];
    }
}

// The message part of a line (spdlog's %v), escaped.
class EscapedMessage final : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
        const std::string_view payload(message.payload.data(), message.payload.size());
        bool plain = true;
        for (const char c : payload)
            plain = plain && !needsEscape(static_cast<unsigned char>(c));
        if (plain) { // the usual case: no copy
            out.append(payload.data(), payload.data() + payload.size());
            return;
        }
        const std::string escaped = escapeForLog(payload);
        out.append(escaped.data(), escaped.data() + escaped.size());
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<EscapedMessage>();
    }
};

} // namespace

std::string escapeForLog(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const auto c = static_cast<unsigned char>(text[pos]);
        if (!needsEscape(c)) {
            out += static_cast<char>(c);
            ++pos;
            continue;
        }
        const std::size_t length = c >= 0x80 ? utf8SequenceLength(text, pos) : 0;
        if (length > 0) { // well-formed UTF-8 stays readable
            out.append(text.substr(pos, length));
            pos += length;
        } else {
            appendEscaped(out, c);
            ++pos;
        }
    }
    return out;
}

std::unique_ptr<spdlog::pattern_formatter> escapingFormatter() {
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<EscapedMessage>('~');
    return formatter;
}

void escapeEveryLogLine() {
    auto formatter = escapingFormatter();
    formatter->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%n] [%^%l%$] %~"); // spdlog's default, escaped
    spdlog::set_formatter(std::move(formatter));
}

} // namespace jobdeck
