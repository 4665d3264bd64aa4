#include "service/ConfigFile.h"

#include "core/deploy/ConfigFileRules.h"
#include "core/deploy/DatabaseUrl.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <algorithm>
#include <iterator>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

namespace jobdeck {

namespace {

std::string_view trimmed(std::string_view text) {
    constexpr std::string_view blanks = " \t\r";
    const std::size_t first = text.find_first_not_of(blanks);
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

// Options a file cannot set: they are about the command line itself.
bool isCommandLineOnly(const std::string& key) {
    return key == "config" || key == "help" || key == "version" || key == "check";
}

} // namespace

ConfigFile ConfigFile::parse(std::string_view text, std::string source) {
    ConfigFile file;
    file.m_source = std::move(source);
    int lineNumber = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = trimmed(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++lineNumber;
        if (line.empty() || line.front() == '#')
            continue;
        const auto where = file.m_source + ":" + std::to_string(lineNumber) + ": ";
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos)
            throw std::runtime_error(where + configLineWithoutEqualsMessage());
        const std::string key(trimmed(line.substr(0, eq)));
        if (key.empty())
            throw std::runtime_error(where + configKeyMissingMessage());
        const std::string_view value = trimmed(line.substr(eq + 1));
        if (const auto quoting = configValueQuotingError(value))
            throw std::runtime_error(where + configValueRefusedMessage(key, *quoting));
        file.m_entries.push_back({key, std::string(unquotedConfigValue(value)), lineNumber});
    }
    return file;
}

ConfigFile ConfigFile::read(const std::string& path) {
    const auto unreadable = [&path] {
        return std::runtime_error(configFileUnreadableMessage(path, std::strerror(errno)));
    };
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        throw unreadable();
    if (S_ISDIR(info.st_mode))
        throw std::runtime_error(configFileIsDirectoryMessage(path));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw unreadable();
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad())
        throw unreadable();
    ConfigFile file = parse(text, path);
    if (file.holdsSecret() && (info.st_mode & (S_IRWXG | S_IRWXO)) != 0)
        spdlog::warn("{}", secretFileReadableByOthersWarning(path, info.st_mode & 07777,
                                                             configFileSecretDescription()));
    return file;
}

bool ConfigFile::holdsSecret() const {
    // database-password-file names a file: only a password in `database` itself is one.
    return std::any_of(m_entries.begin(), m_entries.end(), [](const Entry& entry) {
        return entry.key == "database" && hasDatabasePassword(entry.value);
    });
}

std::optional<ConfigFile> ConfigFile::forServe(const std::string& explicitPath) {
    if (!explicitPath.empty())
        return read(explicitPath);
    std::error_code ec;
    if (std::filesystem::exists(kDefaultPath, ec))
        return read(std::string(kDefaultPath));
    return std::nullopt;
}

void ConfigFile::applyTo(CLI::App& command) const {
    std::map<std::string, int> firstLine;
    std::set<const CLI::Option*> fromFile;
    for (const Entry& entry : m_entries) {
        const auto where = m_source + ":" + std::to_string(entry.line) + ": ";
        CLI::Option* option = isCommandLineOnly(entry.key) || entry.key.starts_with('-')
                                  ? nullptr
                                  : command.get_option_no_throw("--" + entry.key);
        if (option == nullptr)
            throw std::runtime_error(where + configKeyUnknownMessage(entry.key, command.get_name()));
        const bool manyValues = option->get_items_expected_max() > 1;
        const auto [earlier, first] = firstLine.emplace(entry.key, entry.line);
        if (!first && !manyValues)
            throw std::runtime_error(where + configKeyRepeatedMessage(entry.key, earlier->second));
        if (option->count() > 0 && !fromFile.contains(option))
            continue; // given on the command line, which wins
        try {
            const bool isFlag = option->get_items_expected_max() == 0;
            option->add_result(isFlag ? option->get_flag_value(entry.key, entry.value) : entry.value);
            option->run_callback();
        } catch (const CLI::Error& e) {
            throw std::runtime_error(where + configValueRefusedMessage(entry.key, e.what()));
        }
        fromFile.insert(option);
    }
}

} // namespace jobdeck
