#include "core/deploy/DriverEnvironment.h"

#include "core/text/AsciiText.h"

#include <algorithm>

namespace jobdeck {

namespace {

constexpr std::string_view kAllowed[] = {
    "PATH",          "HOME",       "USER",           "LOGNAME",     "SHELL",
    "TMPDIR",        "TZ",         "LANG",           "LANGUAGE",    "LC_*",
    "JAVA_HOME",     "SPARK_HOME", "SPARK_CONF_DIR", "HADOOP_HOME", "HADOOP_CONF_DIR",
    "YARN_CONF_DIR", "PYSPARK_*",  "PYTHONPATH"};

// `pattern` is a name, or a prefix followed by '*'.
bool matches(std::string_view pattern, std::string_view name) {
    if (pattern.ends_with('*'))
        return name.starts_with(pattern.substr(0, pattern.size() - 1));
    return pattern == name;
}

// libpq reads every PG* variable (PGPASSWORD, PGPASSFILE, PGHOST, PGSERVICEFILE, ...).
bool configuresTheDatabase(std::string_view name) {
    return name.starts_with("PG");
}

} // namespace

bool passesToDriver(std::string_view name, const std::vector<std::string>& adminNames) {
    if (name.empty() || configuresTheDatabase(name))
        return false;
    return std::any_of(std::begin(kAllowed), std::end(kAllowed),
                       [&](std::string_view pattern) { return matches(pattern, name); }) ||
           std::any_of(adminNames.begin(), adminNames.end(),
                       [&](const std::string& pattern) { return matches(pattern, name); });
}

std::optional<std::string> driverEnvironmentNameRefusal(std::string_view name) {
    const std::string_view stem = name.ends_with('*') ? name.substr(0, name.size() - 1) : name;
    const bool wellFormed = !stem.empty() && std::all_of(stem.begin(), stem.end(),
                                                         [](char c) { return isAsciiAlnum(c) || c == '_'; });
    if (!wellFormed)
        return "--driver-env " + quoted(name) +
               ": expected a variable name (letters, digits, '_'), or a prefix followed by '*'";
    if (configuresTheDatabase(stem))
        return "--driver-env " + quoted(name) +
               ": variables that configure jobdeckd's own database (PG*) are never passed to drivers";
    return std::nullopt;
}

} // namespace jobdeck
