#include "service/LogTarget.h"

#include "core/text/AsciiText.h"
#include "service/LogEscaping.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <sys/stat.h>

namespace jobdeck {

namespace {

// The sd-daemon priority of a spdlog level (syslog numbers: 2 critical ... 7 debug).
char priorityDigit(spdlog::level::level_enum level) {
    switch (level) {
    case spdlog::level::critical:
        return '2';
    case spdlog::level::err:
        return '3';
    case spdlog::level::warn:
        return '4';
    case spdlog::level::info:
        return '6';
    default:
        return '7';
    }
}

class PriorityFlag final : public spdlog::custom_flag_formatter {
public:
    void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& out) override {
        const char prefix[] = {'<', priorityDigit(message.level), '>'};
        out.append(prefix, prefix + sizeof prefix);
    }
    std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<PriorityFlag>(); }
};

} // namespace

void LogTarget::applyLevel(const std::string& level) {
    if (level == "debug")
        spdlog::set_level(spdlog::level::debug);
    else if (level == "info")
        spdlog::set_level(spdlog::level::info);
    else if (level == "warning")
        spdlog::set_level(spdlog::level::warn);
    else if (level == "error")
        spdlog::set_level(spdlog::level::err);
    else
        throw std::invalid_argument("invalid log level " + quoted(level) +
                                    ": expected debug, info, warning or error");
}

bool LogTarget::stderrIsJournal() {
    const char* stream = std::getenv("JOURNAL_STREAM");
    if (!stream || !*stream)
        return false;
    unsigned long long device = 0;
    unsigned long long inode = 0;
    if (std::sscanf(stream, "%llu:%llu", &device, &inode) != 2)
        return false;
    struct stat status {};
    return ::fstat(2, &status) == 0 && status.st_dev == device && status.st_ino == inode;
}

void LogTarget::apply(const std::string& target) {
    if (target != "auto" && target != "journal" && target != "stderr")
        throw std::invalid_argument("invalid log target " + quoted(target) +
                                    ": expected auto, journal or stderr");
    if (target == "stderr" || (target == "auto" && !stderrIsJournal()))
        return; // spdlog's default pattern, escaped (escapeEveryLogLine)
    auto formatter = escapingFormatter();
    formatter->add_flag<PriorityFlag>('*').set_pattern("%*%~");
    spdlog::set_formatter(std::move(formatter));
}

} // namespace jobdeck
