#include "core/hudi/HudiConfigPolicy.h"

#include "core/text/AsciiText.h"

#include <array>

namespace jobdeck {

namespace {

constexpr std::array<std::string_view, 3> kReservedFamilies{"hoodie.write.concurrency.", "hoodie.write.lock.",
                                                            "hoodie.metrics."};
constexpr std::array<std::string_view, 3> kReservedKeys{
    "hoodie.cleaner.policy.failed.writes", "hoodie.clean.failed.writes.policy", "hoodie.write.config.freeze"};

constexpr std::string_view kHoodie = "hoodie.";

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
}

} // namespace

bool HudiConfigPolicy::isHudiKey(std::string_view key) {
    return key.size() > kHoodie.size() && key.starts_with(kHoodie);
}

bool HudiConfigPolicy::isReserved(std::string_view key) {
    return !reservingEntry(key).empty();
}

std::span<const std::string_view> HudiConfigPolicy::reservedFamilies() {
    return kReservedFamilies;
}
std::span<const std::string_view> HudiConfigPolicy::reservedKeys() {
    return kReservedKeys;
}

bool HudiConfigPolicy::allowlistCovers(const std::vector<std::string>& allowlist, std::string_view key) {
    return coveringEntry(allowlist, key) != nullptr;
}

const std::string* HudiConfigPolicy::coveringEntry(const std::vector<std::string>& allowlist,
                                                   std::string_view key) {
    if (!isHudiKey(key) || isReserved(key))
        return nullptr;
    // The exact key, else the narrowest family: the entry whose removal would matter most.
    const std::string* best = nullptr;
    for (const std::string& entry : allowlist) {
        if (entry == key)
            return &entry;
        if (entry.ends_with('.') && key.size() > entry.size() && key.starts_with(entry) &&
            (!best || entry.size() > best->size()))
            best = &entry;
    }
    return best;
}

std::string_view HudiConfigPolicy::reservingEntry(std::string_view key) {
    for (const auto family : kReservedFamilies)
        if (key.starts_with(family))
            return family;
    for (const auto exact : kReservedKeys)
        if (key == exact)
            return exact;
    return {};
}

std::string_view HudiConfigPolicy::reservedReason(std::string_view key) {
    const std::string_view entry = reservingEntry(key);
    if (entry.empty())
        return {};
    if (entry == "hoodie.metrics.")
        return "it is reserved for platform metrics collection";
    if (entry == "hoodie.write.config.freeze")
        return "it controls which configurations are protected in the first place";
    // hoodie.write.concurrency.*, hoodie.write.lock.* and the failed-writes cleaning policy (both names).
    return "the platform manages concurrency control; changing it risks data loss when another writer "
           "touches the table";
}

std::optional<std::string> HudiConfigPolicy::checkAllowlistEntry(std::string_view entry) {
    if (entry.empty())
        return "Allow-list entry is empty: give a hoodie.* key, or a family ending in '.'.";
    if (!entry.starts_with(kHoodie))
        return "Allow-list entry " + quoted(entry) +
               " is not a Hudi config: entries are hoodie.* keys, or families ending in '.'.";
    for (const char c : entry)
        if (!isNameChar(c))
            return "Allow-list entry " + quoted(entry) +
                   " is malformed: a key has only letters, digits, '.', '_' and '-'.";
    if (entry.find("..") != std::string_view::npos)
        return "Allow-list entry " + quoted(entry) + " is malformed: it has an empty name segment ('..').";
    if (!entry.ends_with('.')) {
        if (isReserved(entry))
            return "Allow-list entry " + quoted(entry) +
                   " is a reserved Hudi config: the platform manages it, " + "so it is never granted.";
        return std::nullopt;
    }
    for (const auto family : kReservedFamilies)
        if (entry.starts_with(family))
            return "Allow-list entry " + quoted(entry) + " is inside the reserved family " +
                   quoted(std::string(family) + "*") + ": the platform manages it, so it is never granted.";
    return std::nullopt;
}

HudiConfigStatus HudiConfigPolicy::statusOf(std::string_view key, const HudiConfigSettings& settings) {
    if (isReserved(key))
        return HudiConfigStatus::Reserved;
    if (!settings.hudiConfigsEnabled || !allowlistCovers(settings.hudiConfigAllowlist, key))
        return HudiConfigStatus::NotAllowed;
    if (platformManagedValue(key))
        return HudiConfigStatus::OverriddenByPlatform;
    return HudiConfigStatus::Applied;
}

const std::vector<std::pair<std::string, std::string>>& HudiConfigPolicy::platformManagedHudiConfigs() {
    static const std::vector<std::pair<std::string, std::string>> table{
        // Concurrent runs of one Job and the platform's table services share the table's metadata table; a
        // writer with it disabled leaves it out of date for every other reader and writer.
        {"hoodie.metadata.enable", "true"},
        // Several drivers share a cluster host (concurrent runs); a fixed timeline-server port makes the
        // second driver fail to bind, so every driver takes an ephemeral port.
        {"hoodie.embed.timeline.server.port", "0"},
    };
    return table;
}

const std::string* HudiConfigPolicy::platformManagedValue(std::string_view key) {
    for (const auto& [k, v] : platformManagedHudiConfigs())
        if (k == key)
            return &v;
    return nullptr;
}

} // namespace jobdeck
