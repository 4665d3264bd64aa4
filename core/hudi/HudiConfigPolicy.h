#pragma once

#include "core/hudi/HudiConfigSettings.h"
#include "core/hudi/HudiConfigStatus.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// Which --hudi-conf keys a project may set and whether a run gets them (CONTRACT §3).
class HudiConfigPolicy final {
public:
    // "hoodie." followed by a name.
    static bool isHudiKey(std::string_view key);

    // hoodie.write.concurrency.*, hoodie.write.lock.*, hoodie.metrics.*, hoodie.cleaner.policy.failed.writes,
    // hoodie.clean.failed.writes.policy, hoodie.write.config.freeze: never granted, never applied.
    static bool isReserved(std::string_view key);
    static std::span<const std::string_view> reservedFamilies(); // each ends in '.'
    static std::span<const std::string_view> reservedKeys();

    // An entry ending in '.' covers every key under that prefix, any other entry exactly one key; no entry
    // ever covers a reserved key.
    static bool allowlistCovers(const std::vector<std::string>& allowlist, std::string_view key);
    // The entry of `allowlist` that covers `key` most narrowly (the exact key, else the longest family),
    // nullptr when none does.
    static const std::string* coveringEntry(const std::vector<std::string>& allowlist, std::string_view key);

    // The reserved family (ending in '.') or exact key that reserves `key`, empty when it is not reserved,
    // and why the platform keeps it (the reasons the documentation gives).
    static std::string_view reservingEntry(std::string_view key);
    static std::string_view reservedReason(std::string_view key);

    // Why `entry` cannot be added to an allow-list, nullopt when it can: empty, malformed, not hoodie.*,
    // a reserved key, or a family inside a reserved family. A wider family ("hoodie.write.") is accepted.
    static std::optional<std::string> checkAllowlistEntry(std::string_view entry);

    // RESERVED > NOT_ALLOWED (feature off or outside the allow-list) > OVERRIDDEN_BY_PLATFORM > APPLIED.
    static HudiConfigStatus statusOf(std::string_view key, const HudiConfigSettings& settings);

    // Keys the platform sets on every run for correctness (they always win), with their values. They are
    // not reserved: a Job may carry them, they show as OVERRIDDEN_BY_PLATFORM. Reasons: docs/parameters.md.
    static const std::vector<std::pair<std::string, std::string>>& platformManagedHudiConfigs();
    static const std::string* platformManagedValue(std::string_view key);
};

} // namespace jobdeck
