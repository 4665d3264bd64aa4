#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// What a `--database` value names (docs/service.md, docs/scale-out.md):
// - PostgresUri: postgresql://… or postgres://… (a libpq connection URI);
// - PostgresKeywords: a libpq keyword string, "host=db port=5432 dbname=jobdeck" (its first word is a
//   libpq keyword followed by '=');
// - Sqlite: sqlite:<path>, or a plain path;
// - Invalid: shaped like a keyword string ("word=…") but with a word that is no libpq keyword; never
//   taken as a file name (it may hold a password). invalidDatabaseValueMessage() says why.
enum class DatabaseKind { Sqlite, PostgresUri, PostgresKeywords, Invalid };
DatabaseKind databaseKind(std::string_view value);
bool isPostgres(DatabaseKind kind);

// Where passwords sit inside a --database value, as byte ranges {offset, length}, in order:
// - a URI's password: after the first ':' of the user info up to its end, the last '@' before the
//   query (so a raw '@' or '/' in the password is inside it); the value of each query parameter whose
//   name is secret (password, sslpassword; isSecretKey);
// - a keyword string's value (quoted or bare) of each secret keyword.
using TextRange = std::pair<std::size_t, std::size_t>;
std::vector<TextRange> databasePasswordRanges(std::string_view value);
bool hasDatabasePassword(std::string_view value);

// The value as every message shows it: each password range as ****.
std::string maskDatabaseValue(std::string_view value);
// The same text with each password byte replaced by '*' (same length): what jobdeckd leaves in its own
// argv, which `ps` shows to every user of the host.
std::string blankDatabasePasswords(std::string_view value);
// What a message about the value must not contain: each password as written, percent-decoded (URI) or
// unquoted (keyword string). Longest first, none empty.
std::vector<std::string> databaseSecrets(std::string_view value);

// The value libpq is given: a URI's password is percent-encoded where it holds '@', '/', '?', '#' or
// a '%' that starts no %XX, so that libpq reads the host where it is meant to be (and never quotes a
// piece of the password as a host name); anything else is returned as it is.
std::string normalizedDatabaseValue(std::string_view value);
// `value` with `password` (from --database-password-file) as its password: a URI gets the query
// parameter password=<percent-encoded>, a keyword string password='<escaped>'.
std::string withDatabasePassword(std::string_view value, std::string_view password);

// Messages (docs/service.md); none quotes a password.
std::string invalidDatabaseValueMessage(std::string_view value);
std::string databasePasswordOnCommandLineWarning();
std::string databasePasswordGivenTwiceMessage();
std::string databasePasswordFileForSqliteMessage();
std::string databasePasswordFileUnreadableMessage(std::string_view path, std::string_view reason);
std::string databasePasswordFileEmptyMessage(std::string_view path);
// A file holding a secret (the password file, a config file with a password) that others may read.
std::string secretFileReadableByOthersWarning(std::string_view path, unsigned mode, std::string_view what);

} // namespace jobdeck
