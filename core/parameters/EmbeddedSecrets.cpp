#include "core/parameters/EmbeddedSecrets.h"

#include "core/parameters/SecretMasking.h"
#include "core/text/AsciiText.h"

#include <algorithm>
#include <optional>

namespace jobdeck {
namespace {

bool isQuote(char c) {
    return c == '"' || c == '\'';
}

bool isKeyCharacter(char c) {
    return isAsciiAlnum(c) || c == '_' || c == '.' || c == '-';
}

// What starts a "key=value" pair inside a text: a URL query's '?' and '&', a JDBC property list's ';'
// and an option list's blank.
bool startsPair(char c) {
    return c == '?' || c == '&' || c == ';' || isAsciiSpace(c);
}

struct Span {
    std::size_t begin = 0;
    std::size_t end = 0;  // the content's end
    std::size_t next = 0; // where reading goes on: after the closing quote
};

// The content of the string whose opening quote is at `open`, a backslash escaping the next character;
// an unterminated one runs to the end of the text.
Span quotedSpan(std::string_view text, std::size_t open) {
    const char quote = text[open];
    std::size_t i = open + 1;
    while (i < text.size() && text[i] != quote)
        i += text[i] == '\\' ? 2 : 1;
    i = std::min(i, text.size());
    return {open + 1, i, std::min(i + 1, text.size())};
}

// A pair's value from `from`: the content of its quotes, or the characters up to '&', ';' or, in a
// blank-separated list (`inList`), a blank. A URL query's or a JDBC property list's value runs over
// blanks: "jdbc:sqlserver://h;password=my pass;" holds the password "my pass".
Span pairValue(std::string_view text, std::size_t from, bool inList) {
    if (from < text.size() && isQuote(text[from]))
        return quotedSpan(text, from);
    std::size_t end = from;
    while (end < text.size() && text[end] != '&' && text[end] != ';' && !(inList && isAsciiSpace(text[end])))
        ++end;
    return {from, end, end};
}

// An empty value hides nothing: it is left as it is.
void add(std::vector<EmbeddedSecret>& found, std::string key, const Span& value) {
    if (value.end > value.begin)
        found.push_back({std::move(key), value.begin, value.end - value.begin});
}

void pairSecrets(std::string_view text, std::vector<EmbeddedSecret>& found) {
    for (std::size_t eq = text.find('='); eq != std::string_view::npos; eq = text.find('=', eq + 1)) {
        std::size_t key = eq;
        while (key > 0 && isKeyCharacter(text[key - 1]))
            --key;
        if (key == eq || key == 0 || !startsPair(text[key - 1]))
            continue;
        const std::string_view name = text.substr(key, eq - key);
        if (isSecretKey(name))
            add(found, std::string(name), pairValue(text, eq + 1, isAsciiSpace(text[key - 1])));
    }
}

void userInfoSecrets(std::string_view text, std::vector<EmbeddedSecret>& found) {
    for (std::size_t at = text.find("://"); at != std::string_view::npos; at = text.find("://", at + 3)) {
        const std::size_t authority = at + 3;
        std::size_t end = authority;
        while (end < text.size() && std::string_view("/?#\"'").find(text[end]) == std::string_view::npos &&
               !isAsciiSpace(text[end]))
            ++end;
        const std::size_t userEnd = text.substr(authority, end - authority).rfind('@');
        if (userEnd == std::string_view::npos)
            continue;
        const std::string_view userInfo = text.substr(authority, userEnd);
        const std::size_t colon = userInfo.find(':');
        if (colon == std::string_view::npos)
            continue;
        std::size_t scheme = at;
        while (scheme > 0 && (isAsciiAlnum(text[scheme - 1]) ||
                              std::string_view("+-.").find(text[scheme - 1]) != std::string_view::npos))
            --scheme;
        const std::string key =
            std::string(text.substr(scheme, authority - scheme)) + std::string(userInfo.substr(0, colon)) +
            "@" + std::string(text.substr(authority + userEnd + 1, end - authority - userEnd - 1));
        add(found, key, {authority + colon + 1, authority + userEnd, end});
    }
}

// What may come before a member's bare (YAML) key: the start, a blank, '{' or ','.
bool startsMember(std::string_view text, std::size_t at) {
    return at == 0 || isAsciiSpace(text[at - 1]) || text[at - 1] == '{' || text[at - 1] == ',';
}

struct MemberKey {
    Span span;
    bool quoted = false;
};

// A member's key at `at`: a quoted string, or a bare word where a member can start; nullopt otherwise.
std::optional<MemberKey> memberKey(std::string_view text, std::size_t at) {
    if (isQuote(text[at]))
        return MemberKey{quotedSpan(text, at), true};
    if (!isKeyCharacter(text[at]) || !startsMember(text, at))
        return std::nullopt;
    std::size_t end = at;
    while (end < text.size() && isKeyCharacter(text[end]))
        ++end;
    return MemberKey{{at, end, end}, false};
}

// A member's value from `from`: what its quotes hold, or the characters up to ',', '}', ']' or the end of
// the line, without the blanks at its end.
Span memberValue(std::string_view text, std::size_t from) {
    if (from < text.size() && isQuote(text[from]))
        return quotedSpan(text, from);
    std::size_t end = from;
    while (end < text.size() && std::string_view(",}]\n\r").find(text[end]) == std::string_view::npos)
        ++end;
    const std::size_t next = end;
    while (end > from && isAsciiSpace(text[end - 1]))
        --end;
    return {from, end, next};
}

void memberSecrets(std::string_view text, std::vector<EmbeddedSecret>& found) {
    for (std::size_t i = 0; i < text.size();) {
        const auto key = memberKey(text, i);
        if (!key) {
            ++i;
            continue;
        }
        i = key->span.next;
        std::size_t colon = key->span.next;
        while (colon < text.size() && isAsciiSpace(text[colon]))
            ++colon;
        // A bare key's ':' is followed by a blank, as YAML has it: "https://h" and "jdbc:x" are no members.
        if (colon >= text.size() || text[colon] != ':' ||
            (!key->quoted && (colon + 1 >= text.size() || !isAsciiSpace(text[colon + 1]))))
            continue;
        std::size_t from = colon + 1;
        while (from < text.size() && isAsciiSpace(text[from]))
            ++from;
        const Span value = memberValue(text, from);
        const std::string_view name = text.substr(key->span.begin, key->span.end - key->span.begin);
        if (isSecretKey(name)) {
            add(found, std::string(name), value);
            i = value.next;
        }
    }
}

} // namespace

std::vector<EmbeddedSecret> findEmbeddedSecrets(std::string_view text) {
    std::vector<EmbeddedSecret> found;
    // Most texts hold none of the characters these forms need: they need no reading.
    if (text.find_first_of("=:") == std::string_view::npos)
        return found;
    pairSecrets(text, found);
    userInfoSecrets(text, found);
    memberSecrets(text, found);
    std::stable_sort(found.begin(), found.end(),
                     [](const EmbeddedSecret& a, const EmbeddedSecret& b) { return a.offset < b.offset; });
    std::vector<EmbeddedSecret> kept;
    std::size_t covered = 0;
    for (auto& secret : found) {
        if (secret.offset < covered)
            continue;
        covered = secret.offset + secret.length;
        kept.push_back(std::move(secret));
    }
    return kept;
}

} // namespace jobdeck
