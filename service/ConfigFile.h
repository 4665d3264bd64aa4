#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace jobdeck {

// A jobdeckd configuration file (`jobdeckd serve --config FILE`): `key = value` lines, blank lines and
// `#` comment lines. Every key is the name of a long option of the command without its dashes
// (`listen = 127.0.0.1:8420`, `no-access-log = true`), so each option added to the command line is a
// key too; options that take several values (`s3-map`) may be given on several lines.
class ConfigFile final {
public:
    struct Entry {
        std::string key;
        std::string value;
        int line = 0;
    };

    // The default file of `serve`, read when it exists and --config is not given.
    static constexpr std::string_view kDefaultPath = "/etc/jobdeck/jobdeckd.conf";

    // Throws std::runtime_error("<source>:<line>: ...") for a line that is not `key = value` or whose
    // value's double quotes do not pair (core configValueQuotingError); no message quotes a value.
    static ConfigFile parse(std::string_view text, std::string source);
    // The file `serve` reads: `explicitPath` when given, else kDefaultPath when it exists, else none.
    static std::optional<ConfigFile> forServe(const std::string& explicitPath);
    // Reads and parses `path`; throws std::runtime_error naming the file when it cannot be read or is
    // a directory. Warns (log) when it holds a secret (holdsSecret) and other users may read it.
    static ConfigFile read(const std::string& path);
    // Whether an entry holds a secret: the database password in `database`.
    bool holdsSecret() const;

    // Gives each entry to the option --<key> of `command`, after the command line was parsed, unless
    // the command line set that option (flags win). Throws std::runtime_error("<source>:<line>: ...")
    // naming the key for an unknown key, a single-valued key given twice, or a value the option
    // refuses.
    void applyTo(CLI::App& command) const;

    const std::vector<Entry>& entries() const { return m_entries; }
    const std::string& source() const { return m_source; }

private:
    std::string m_source;
    std::vector<Entry> m_entries;
};

} // namespace jobdeck
