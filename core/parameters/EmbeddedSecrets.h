#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// A secret value inside a longer text, found by the syntax around it rather than by the parameter or
// pair that holds the text: the bytes [offset, offset + length) of the text, and the key it belongs to.
struct EmbeddedSecret final {
    std::string key;
    std::size_t offset = 0;
    std::size_t length = 0;

    bool operator==(const EmbeddedSecret&) const = default;
};

// Every secret value (a value whose key isSecretKey) the text holds in one of these forms:
// - a "key=value" pair after '?', '&', ';' or a blank: URL queries and JDBC properties
//   ("jdbc:postgresql://h/db?user=u&password=X", "jdbc:sqlserver://h;password=X"), JAAS options
//   ("... required username=\"u\" password=\"X\";"). The value is what its quotes (' or ") hold, else
//   runs to the next '&' or ';' (blanks included: "jdbc:sqlserver://h;password=my pass;"), and for a
//   pair after a blank also to the next blank. A pair that starts the text is its holder's business: a
//   parameter "password=X" is read as a whole, and a pair's value "password=1" is a value;
// - the password of a URL's user info, "scheme://user:X@host/...", up to the authority's last '@'; its
//   key is "scheme://user@host";
// - a member of a JSON object or a Python dict, its key quoted: {"password": "X"}, {'token': 12}; or of
//   YAML, its key a bare word after the start, a blank, '{' or ',' and followed by ": ": "password: X",
//   "{user: u, password: X}" ("https://h" and "jdbc:x" are no members). A quoted value is what its
//   quotes hold; any other runs to the next ',', '}', ']' or line break, without the blanks at its end.
// In the order of the text, none empty; a form found inside a value found earlier is not reported again.
std::vector<EmbeddedSecret> findEmbeddedSecrets(std::string_view text);

} // namespace jobdeck
