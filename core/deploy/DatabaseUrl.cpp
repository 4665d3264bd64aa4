#include "core/deploy/DatabaseUrl.h"

#include "core/parameters/SecretMasking.h"
#include "core/text/AsciiText.h"

#include <algorithm>
#include <array>
#include <optional>

namespace jobdeck {

namespace {

constexpr std::array<std::string_view, 2> kUriSchemes{"postgresql://", "postgres://"};

// libpq's connection keywords (PostgreSQL 17, "Parameter Key Words").
constexpr std::string_view kLibpqKeywords[] = {"host",
                                               "hostaddr",
                                               "port",
                                               "dbname",
                                               "user",
                                               "password",
                                               "passfile",
                                               "require_auth",
                                               "channel_binding",
                                               "connect_timeout",
                                               "client_encoding",
                                               "options",
                                               "application_name",
                                               "fallback_application_name",
                                               "keepalives",
                                               "keepalives_idle",
                                               "keepalives_interval",
                                               "keepalives_count",
                                               "tcp_user_timeout",
                                               "replication",
                                               "gssencmode",
                                               "sslmode",
                                               "sslnegotiation",
                                               "requiressl",
                                               "sslcompression",
                                               "sslcert",
                                               "sslkey",
                                               "sslpassword",
                                               "sslcertmode",
                                               "sslrootcert",
                                               "sslcrl",
                                               "sslcrldir",
                                               "sslsni",
                                               "requirepeer",
                                               "ssl_min_protocol_version",
                                               "ssl_max_protocol_version",
                                               "krbsrvname",
                                               "gsslib",
                                               "gssdelegation",
                                               "service",
                                               "target_session_attrs",
                                               "load_balance_hosts"};

bool isBlank(char c) {
    return isAsciiSpace(c);
}

bool isKeywordCharacter(char c) {
    return isAsciiAlnum(c) || c == '_';
}

std::size_t uriSchemeLength(std::string_view value) {
    for (const auto scheme : kUriSchemes)
        if (value.starts_with(scheme))
            return scheme.size();
    return 0;
}

// One "keyword = value" of a keyword string: where the keyword and the value (quotes included) are.
struct KeywordPair {
    std::string_view keyword;
    std::size_t valueOffset = 0;
    std::size_t valueLength = 0;
    std::string value; // unquoted, escapes resolved
};

// Reads the pair starting at `at` (blanks skipped); nullopt when none starts there. `at` moves past it.
std::optional<KeywordPair> nextKeywordPair(std::string_view text, std::size_t& at) {
    while (at < text.size() && isBlank(text[at]))
        ++at;
    const std::size_t start = at;
    while (at < text.size() && isKeywordCharacter(text[at]))
        ++at;
    KeywordPair pair;
    pair.keyword = text.substr(start, at - start);
    while (at < text.size() && isBlank(text[at]))
        ++at;
    if (pair.keyword.empty() || at >= text.size() || text[at] != '=')
        return std::nullopt;
    ++at;
    while (at < text.size() && isBlank(text[at]))
        ++at;
    pair.valueOffset = at;
    const bool quoted = at < text.size() && text[at] == '\'';
    if (quoted)
        ++at;
    while (at < text.size() && (quoted ? text[at] != '\'' : !isBlank(text[at]))) {
        if (text[at] == '\\' && at + 1 < text.size())
            ++at;
        pair.value += text[at++];
    }
    if (quoted && at < text.size())
        ++at; // the closing quote
    pair.valueLength = at - pair.valueOffset;
    return pair;
}

std::vector<KeywordPair> keywordPairs(std::string_view text) {
    std::vector<KeywordPair> pairs;
    std::size_t at = 0;
    while (auto pair = nextKeywordPair(text, at))
        pairs.push_back(std::move(*pair));
    return pairs;
}

bool isLibpqKeyword(std::string_view word) {
    return std::find(std::begin(kLibpqKeywords), std::end(kLibpqKeywords), word) != std::end(kLibpqKeywords);
}

// The first keyword of a keyword-shaped value that libpq does not know; empty when all are known.
std::string_view unknownKeyword(std::string_view value) {
    for (const auto& pair : keywordPairs(value))
        if (!isLibpqKeyword(pair.keyword))
            return pair.keyword;
    return {};
}

// A URI's user info password and where its query starts.
struct UriParts {
    std::optional<TextRange> password;
    std::size_t query = std::string_view::npos; // the '?' or npos
};

UriParts uriParts(std::string_view value) {
    UriParts parts;
    const std::size_t authority = uriSchemeLength(value);
    std::size_t question = value.find('?', authority);
    std::size_t at = value.rfind('@', question == std::string_view::npos ? value.size() : question);
    if ((at == std::string_view::npos || at < authority) && question != std::string_view::npos)
        at = value.rfind('@'); // a raw '?' in the password
    if (at != std::string_view::npos && at >= authority) {
        const std::size_t colon = value.find(':', authority);
        if (colon != std::string_view::npos && colon < at)
            parts.password = TextRange{colon + 1, at - colon - 1};
        question = value.find('?', at);
    }
    parts.query = question;
    return parts;
}

void addSecretQueryRanges(std::string_view value, std::size_t query, std::vector<TextRange>& ranges) {
    std::size_t at = query + 1;
    while (at < value.size()) {
        std::size_t end = value.find('&', at);
        if (end == std::string_view::npos)
            end = value.size();
        const std::string_view parameter = value.substr(at, end - at);
        if (const std::size_t eq = parameter.find('='); eq != std::string_view::npos) {
            if (isSecretKey(parameter.substr(0, eq)))
                ranges.emplace_back(at + eq + 1, parameter.size() - eq - 1);
        }
        at = end + 1;
    }
}

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    const char lower = asciiLower(c);
    return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
}

bool startsPercentEscape(std::string_view text, std::size_t at) {
    return at + 2 < text.size() && text[at] == '%' && hexValue(text[at + 1]) >= 0 &&
           hexValue(text[at + 2]) >= 0;
}

std::string percentDecoded(std::string_view text) {
    std::string decoded;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (startsPercentEscape(text, i)) {
            decoded += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
            i += 2;
        } else {
            decoded += text[i];
        }
    }
    return decoded;
}

// Percent-encodes what a URI password may not hold raw; `inUserInfo` keeps the characters a user
// info password may hold (sub-delimiters and ':'), and `keepEscapes` a valid %XX as it is.
std::string percentEncodedPassword(std::string_view password, bool keepEscapes, bool inUserInfo = true) {
    static constexpr std::string_view hex = "0123456789ABCDEF";
    const std::string_view plainPunctuation = inUserInfo ? "-._~!$&'()*+,;=:" : "-._~";
    std::string encoded;
    for (std::size_t i = 0; i < password.size(); ++i) {
        const char c = password[i];
        const bool plain = isAsciiAlnum(c) || plainPunctuation.find(c) != std::string_view::npos;
        if (plain || (keepEscapes && startsPercentEscape(password, i))) {
            encoded += c;
        } else {
            const auto byte = static_cast<unsigned char>(c);
            encoded += '%';
            encoded += hex[byte >> 4];
            encoded += hex[byte & 15];
        }
    }
    return encoded;
}

} // namespace

DatabaseKind databaseKind(std::string_view value) {
    if (uriSchemeLength(value) > 0)
        return DatabaseKind::PostgresUri;
    if (value.starts_with("sqlite:"))
        return DatabaseKind::Sqlite;
    std::size_t at = 0;
    if (!nextKeywordPair(value, at))
        return DatabaseKind::Sqlite;
    return unknownKeyword(value).empty() ? DatabaseKind::PostgresKeywords : DatabaseKind::Invalid;
}

bool isPostgres(DatabaseKind kind) {
    return kind == DatabaseKind::PostgresUri || kind == DatabaseKind::PostgresKeywords;
}

std::vector<TextRange> databasePasswordRanges(std::string_view value) {
    std::vector<TextRange> ranges;
    const DatabaseKind kind = databaseKind(value);
    if (kind == DatabaseKind::PostgresUri) {
        const UriParts parts = uriParts(value);
        if (parts.password)
            ranges.push_back(*parts.password);
        if (parts.query != std::string_view::npos)
            addSecretQueryRanges(value, parts.query, ranges);
    } else if (kind == DatabaseKind::PostgresKeywords || kind == DatabaseKind::Invalid) {
        for (const auto& pair : keywordPairs(value))
            if (isSecretKey(pair.keyword))
                ranges.emplace_back(pair.valueOffset, pair.valueLength);
    }
    return ranges;
}

bool hasDatabasePassword(std::string_view value) {
    return !databasePasswordRanges(value).empty();
}

std::string maskDatabaseValue(std::string_view value) {
    std::string out(value);
    const auto ranges = databasePasswordRanges(value);
    for (auto range = ranges.rbegin(); range != ranges.rend(); ++range)
        out.replace(range->first, range->second, kMask);
    return out;
}

std::string blankDatabasePasswords(std::string_view value) {
    std::string out(value);
    for (const auto& [offset, length] : databasePasswordRanges(value))
        std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(offset), length, '*');
    return out;
}

std::vector<std::string> databaseSecrets(std::string_view value) {
    std::vector<std::string> secrets;
    const bool uri = databaseKind(value) == DatabaseKind::PostgresUri;
    for (const auto& [offset, length] : databasePasswordRanges(value)) {
        const std::string_view written = value.substr(offset, length);
        secrets.emplace_back(written);
        if (uri) {
            secrets.push_back(percentDecoded(written));
            secrets.push_back(percentEncodedPassword(written, true));
        }
    }
    if (!uri)
        for (const auto& pair : keywordPairs(value))
            if (isSecretKey(pair.keyword))
                secrets.push_back(pair.value);
    std::erase_if(secrets, [](const std::string& s) { return s.empty() || s == kMask; });
    std::sort(secrets.begin(), secrets.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    secrets.erase(std::unique(secrets.begin(), secrets.end()), secrets.end());
    return secrets;
}

std::string normalizedDatabaseValue(std::string_view value) {
    if (databaseKind(value) != DatabaseKind::PostgresUri)
        return std::string(value);
    const UriParts parts = uriParts(value);
    if (!parts.password)
        return std::string(value);
    const auto [offset, length] = *parts.password;
    return std::string(value.substr(0, offset)) + percentEncodedPassword(value.substr(offset, length), true) +
           std::string(value.substr(offset + length));
}

std::string withDatabasePassword(std::string_view value, std::string_view password) {
    if (databaseKind(value) == DatabaseKind::PostgresUri) {
        const char separator = uriParts(value).query == std::string_view::npos ? '?' : '&';
        return std::string(value) + separator + "password=" + percentEncodedPassword(password, false, false);
    }
    // A libpq literal: in single quotes, with its quotes and backslashes escaped.
    std::string literal(1, '\'');
    for (const char c : password) {
        if (c == '\'' || c == '\\')
            literal += '\\';
        literal += c;
    }
    literal += '\'';
    return std::string(value) + " password=" + literal;
}

std::string invalidDatabaseValueMessage(std::string_view value) {
    return "--database " + quoted(maskDatabaseValue(value)) +
           " is neither a postgresql:// URI nor a libpq connection string (" + quoted(unknownKeyword(value)) +
           " is no libpq keyword) nor a SQLite file; for a SQLite file whose name holds '=', write "
           "sqlite:<path>";
}

std::string databasePasswordOnCommandLineWarning() {
    return "the database password is on the command line (--database), where every user of this host "
           "can read it (ps) until jobdeckd has started and hidden it; give it with "
           "--database-password-file or in a PGPASSFILE instead";
}

std::string databasePasswordGivenTwiceMessage() {
    return "--database already holds a password; give it once, with --database-password-file alone";
}

std::string databasePasswordFileForSqliteMessage() {
    return "--database-password-file is for a PostgreSQL --database; a SQLite database has no password";
}

std::string databasePasswordFileUnreadableMessage(std::string_view path, std::string_view reason) {
    return "cannot read the database password file " + quoted(path) + ": " + std::string(reason);
}

std::string databasePasswordFileEmptyMessage(std::string_view path) {
    return "the database password file " + quoted(path) + " is empty: its first line is the password";
}

std::string secretFileReadableByOthersWarning(std::string_view path, unsigned mode, std::string_view what) {
    static constexpr std::string_view octal = "01234567";
    std::string modeText = "0";
    for (const int shift : {6, 3, 0})
        modeText += octal[(mode >> shift) & 7];
    return std::string(path) + " holds " + std::string(what) +
           " and other users of this host may read it (mode " + modeText + "); make it private: chmod 600 " +
           std::string(path);
}

} // namespace jobdeck
