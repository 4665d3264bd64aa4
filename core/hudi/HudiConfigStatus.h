#pragma once

#include <optional>
#include <string_view>

namespace jobdeck {

// Why a stored --hudi-conf pair is or is not applied to runs (DESCRIBE JOB -> hudiConfigsStatus).
enum class HudiConfigStatus { Applied, NotAllowed, Reserved, OverriddenByPlatform };

inline std::string_view hudiConfigStatusName(HudiConfigStatus s) {
    switch (s) {
    case HudiConfigStatus::Applied:
        return "APPLIED";
    case HudiConfigStatus::NotAllowed:
        return "NOT_ALLOWED";
    case HudiConfigStatus::Reserved:
        return "RESERVED";
    case HudiConfigStatus::OverriddenByPlatform:
        return "OVERRIDDEN_BY_PLATFORM";
    }
    return "NOT_ALLOWED";
}

inline std::optional<HudiConfigStatus> hudiConfigStatusFromName(std::string_view name) {
    for (auto s : {HudiConfigStatus::Applied, HudiConfigStatus::NotAllowed, HudiConfigStatus::Reserved,
                   HudiConfigStatus::OverriddenByPlatform})
        if (hudiConfigStatusName(s) == name)
            return s;
    return std::nullopt;
}

} // namespace jobdeck
