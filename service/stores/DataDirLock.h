#pragma once

#include <string>

namespace jobdeck {

// An exclusive lock on a data directory (flock on `<dir>/jobdeckd.lock`), held while the object
// lives, so that a second `jobdeckd serve` on the same SQLite data directory refuses to start
// instead of running runs beside the first. The file holds the owner's process id, for the message.
class DataDirLock final {
public:
    // Throws std::runtime_error with one clear line when another process holds the lock or the
    // file cannot be made.
    explicit DataDirLock(const std::string& dataDir);
    ~DataDirLock();
    DataDirLock(const DataDirLock&) = delete;
    DataDirLock& operator=(const DataDirLock&) = delete;

private:
    int m_fd = -1;
};

} // namespace jobdeck
