#include "service/stores/DatabaseMarker.h"

#include "core/wire/DatabaseFaults.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace jobdeck {

namespace {

namespace fs = std::filesystem;

fs::path markerOf(const fs::path& database) {
    return database.parent_path() / DatabaseMarker::kFileName;
}

// Whether the marker next to `database` names it.
bool markerNames(const fs::path& database) {
    std::ifstream marker(markerOf(database));
    const std::string name = database.filename().string();
    for (std::string line; std::getline(marker, line);)
        if (line == name)
            return true;
    return false;
}

// A data directory from before markers that held a database: its runs' directories are there.
bool hasRunDirectories(const fs::path& database) {
    std::error_code ec;
    const fs::path runs = database.parent_path() / "runs";
    return fs::is_directory(runs, ec) && !fs::is_empty(runs, ec);
}

} // namespace

std::string DatabaseMarker::sqlitePath(const std::string& databaseUrl) {
    std::string path = databaseUrl;
    if (path.starts_with("sqlite:"))
        path = path.substr(std::strlen("sqlite:"));
    else if (path.find("://") != std::string::npos)
        return {};
    if (path.empty() || path == ":memory:" || path.starts_with("file:"))
        return {};
    return path;
}

void DatabaseMarker::checkBeforeOpen(const std::string& path, bool init) {
    const fs::path database = fs::absolute(path);
    std::error_code ec;
    if (init || fs::exists(database, ec) || ec)
        return;
    if (markerNames(database) || hasRunDirectories(database))
        throw std::runtime_error(missingDatabaseMessage(path, database.parent_path().string()));
}

void DatabaseMarker::record(const std::string& path) {
    const fs::path database = fs::absolute(path);
    if (markerNames(database))
        return;
    const fs::path marker = markerOf(database);
    const int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        throw std::runtime_error("cannot write the marker " + marker.string() + ": " + std::strerror(errno));
    const std::string line = database.filename().string() + "\n";
    const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!written || !synced)
        throw std::runtime_error("cannot write the marker " + marker.string() + ": " + std::strerror(errno));
}

} // namespace jobdeck
