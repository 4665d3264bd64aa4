#pragma once

#include "service/stores/ChangeStamp.h"
#include "service/stores/SqliteDatabase.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace jobdeck {

// The change stamp of a SQLite database: SQLite's PRAGMA data_version, read on connections of its own
// that never write (up to 4, about one per IO thread that looks at once). One small read.
class SqliteChangeStamp final : public ChangeStamp {
public:
    explicit SqliteChangeStamp(std::string path)
        : m_path(std::move(path)) {}
    std::uint64_t current() override;
    bool isLocal() const override { return true; }

private:
    // A connection that only ever reads data_version, and the value it last saw.
    struct Watch {
        std::mutex mutex;
        std::unique_ptr<SqliteDatabase> db;
        std::int64_t version = -1;
    };

    const std::string m_path;
    std::mutex m_watchesMutex;
    std::vector<std::unique_ptr<Watch>> m_watches;
    std::size_t m_looks = 0; // spreads waiting looks over the watches when all are busy
    std::atomic<std::uint64_t> m_stamp{0};
};

} // namespace jobdeck
