#include "core/policy/AuditText.h"

#include <algorithm>

namespace jobdeck {

namespace {

std::string withoutNul(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (c == '\0')
            out += "\xEF\xBF\xBD"; // U+FFFD
        else
            out.push_back(c);
    }
    return out;
}

} // namespace

std::optional<std::string> auditedTextReplacement(std::string_view text) {
    const bool hasNul = text.find('\0') != std::string_view::npos;
    if (text.size() <= kAuditedTextLimit && !hasNul)
        return std::nullopt;
    if (text.size() <= kAuditedTextLimit)
        return withoutNul(text);
    std::size_t kept = kAuditedTextLimit;
    while (kept > 0 && (static_cast<unsigned char>(text[kept]) & 0xC0) == 0x80)
        --kept; // text[kept] continues a character: cut before the character starts
    return withoutNul(text.substr(0, kept)) + " ... [" + std::to_string(text.size() - kept) + " of " +
           std::to_string(text.size()) + " bytes cut: the audit keeps the first " +
           std::to_string(kAuditedTextLimit) + "]";
}

} // namespace jobdeck
