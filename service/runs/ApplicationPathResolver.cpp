#include "service/runs/ApplicationPathResolver.h"

#include "core/statements/NotFoundMessages.h"

#include <filesystem>
#include <system_error>

namespace jobdeck {
namespace {

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

} // namespace

ApplicationPathResolver::ApplicationPathResolver(std::string dataDir,
                                                 std::map<std::string, std::string> bucketDirs)
    : m_dataDir(std::move(dataDir))
    , m_bucketDirs(std::move(bucketDirs)) {}

std::optional<std::pair<std::string, std::string>>
ApplicationPathResolver::parseMapping(std::string_view text) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size())
        return std::nullopt;
    return std::make_pair(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
}

ApplicationPathResolver::Result ApplicationPathResolver::map(const std::string& applicationPath) const {
    namespace fs = std::filesystem;
    if (startsWith(applicationPath, "file://"))
        return {applicationPath.substr(7), {}};
    if (startsWith(applicationPath, "file:/"))
        return {applicationPath.substr(5), {}};
    for (std::string_view scheme : {"s3://", "s3a://", "s3n://"}) {
        if (!startsWith(applicationPath, scheme))
            continue;
        const std::string rest = applicationPath.substr(scheme.size());
        const auto slash = rest.find('/');
        if (slash == std::string::npos || slash == 0 || slash + 1 == rest.size())
            return {{}, applicationFileNotFoundMessage(applicationPath)};
        const std::string bucket = rest.substr(0, slash);
        const fs::path key = fs::path(rest.substr(slash + 1)).lexically_normal();
        // A key must stay inside its bucket's directory.
        if (key.is_absolute() || key.empty() || *key.begin() == "..")
            return {{}, applicationFileNotFoundMessage(applicationPath)};
        const auto mapped = m_bucketDirs.find(bucket);
        const fs::path dir =
            mapped != m_bucketDirs.end() ? fs::path(mapped->second) : fs::path(m_dataDir) / "s3" / bucket;
        return {(dir / key).string(), {}};
    }
    const auto scheme = applicationPath.find("://");
    if (scheme != std::string::npos)
        return {{}, applicationFileUnreadableMessage(applicationPath)};
    return {applicationPath, {}};
}

ApplicationPathResolver::Result ApplicationPathResolver::resolve(const std::string& applicationPath) const {
    Result result = map(applicationPath);
    if (!result.error.empty())
        return result;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(result.localPath, ec))
        return {{}, applicationFileNotFoundMessage(applicationPath)};
    return result;
}

} // namespace jobdeck
