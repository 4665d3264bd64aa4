#include "core/hudi/HudiConfigExplanation.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/hudi/HudiConfigRemedy.h"
#include "core/statements/StatementPrinter.h"

namespace jobdeck {

namespace {

std::string alterProject(AlterProjectStatement statement) {
    return printStatement(Statement{std::move(statement)});
}

std::string enableStatement() {
    AlterProjectStatement s;
    s.hudiConfigs = true;
    return alterProject(std::move(s));
}

std::string addStatement(std::string_view key) {
    AlterProjectStatement s;
    s.allowlistOp = AlterProjectStatement::AllowlistOp::Add;
    s.allowlistEntries = {std::string(key)};
    return alterProject(std::move(s));
}

std::string joined(const std::vector<std::string>& statements) {
    std::string out;
    for (const std::string& s : statements)
        out += (out.empty() ? "" : "; ") + s;
    return out;
}

void explainNotAllowed(HudiConfigExplanation& e, std::string_view key, const HudiConfigSettings& settings) {
    const std::string quotedKey = quoteString(key);
    const bool listed = HudiConfigPolicy::allowlistCovers(settings.hudiConfigAllowlist, key);
    if (!settings.hudiConfigsEnabled) {
        e.reason = HudiConfigExplanation::Reason::FeatureOff;
        e.detail = "Not applied: --hudi-conf is not enabled for this project" +
                   std::string(listed ? ", although " + quotedKey + " is on its allow-list."
                                      : ", and " + quotedKey + " is not on its allow-list either.");
        e.alterProject.push_back(enableStatement());
        if (!listed)
            e.alterProject.push_back(addStatement(key));
    } else {
        e.reason = HudiConfigExplanation::Reason::NotOnAllowlist;
        e.detail = "Not applied: no entry of the project's allow-list covers " + quotedKey +
                   " (neither the exact key nor a family ending in '.' that it is under).";
        e.alterProject.push_back(addStatement(key));
    }
    e.remedy = std::string(kAdminRemedyLead) + joined(e.alterProject) + ".";
}

} // namespace

std::string HudiConfigExplanation::text() const {
    return remedy.empty() ? detail : detail + " " + remedy;
}

HudiConfigExplanation explainHudiConfig(std::string_view key, const HudiConfigSettings& settings) {
    HudiConfigExplanation e;
    e.status = HudiConfigPolicy::statusOf(key, settings);
    e.because = hudiConfigStatusClause(e.status, settings);
    switch (e.status) {
    case HudiConfigStatus::Reserved: {
        e.reason = HudiConfigExplanation::Reason::Reserved;
        e.entry = HudiConfigPolicy::reservingEntry(key);
        const std::string what =
            e.entry.ends_with('.') ? "the reserved family " + quoteString(e.entry + "*") : "a reserved key";
        e.detail = "Not applied: " + quoteString(key) + " is " + (e.entry.ends_with('.') ? "in " : "") +
                   what + ": " + std::string(HudiConfigPolicy::reservedReason(key)) + ".";
        e.remedy = "Nothing makes it apply: reserved configs are never granted. Remove it from the Job.";
        break;
    }
    case HudiConfigStatus::NotAllowed:
        explainNotAllowed(e, key, settings);
        break;
    case HudiConfigStatus::OverriddenByPlatform:
        e.reason = HudiConfigExplanation::Reason::SetByPlatform;
        e.entry = *HudiConfigPolicy::platformManagedValue(key);
        e.detail = "Not applied: the platform sets " + quoteString(key) + " to " + quoteString(e.entry) +
                   " on every run, and the platform's value wins over the Job's.";
        e.remedy = "Nothing makes the Job's value apply; remove it from the Job.";
        break;
    case HudiConfigStatus::Applied:
        e.reason = HudiConfigExplanation::Reason::Applied;
        e.entry = *HudiConfigPolicy::coveringEntry(settings.hudiConfigAllowlist, key);
        e.detail = "Applied: allowed by the project's allow-list entry " + quoteString(e.entry) +
                   (e.entry.ends_with('.') ? " (a family)." : " (the exact key).");
        break;
    }
    return e;
}

std::string_view hudiConfigStatusClause(HudiConfigStatus status, const HudiConfigSettings& settings) {
    switch (status) {
    case HudiConfigStatus::Reserved:
        return "it is reserved for the platform";
    case HudiConfigStatus::NotAllowed:
        return settings.hudiConfigsEnabled ? "it is outside the project's allow-list"
                                           : "--hudi-conf is not enabled for this project";
    case HudiConfigStatus::OverriddenByPlatform:
        return "the platform sets it for every run";
    case HudiConfigStatus::Applied:
        return "it is on the project's allow-list";
    }
    return {};
}

std::string_view hudiConfigStatusMeaning(HudiConfigStatus status) {
    switch (status) {
    case HudiConfigStatus::Applied:
        return "runs of this Job get it";
    case HudiConfigStatus::NotAllowed:
        return "stored on the Job but not applied: outside the project's allow-list, or --hudi-conf is not "
               "enabled for the project";
    case HudiConfigStatus::Reserved:
        return "reserved: the platform manages it, so it is never granted and never applied";
    case HudiConfigStatus::OverriddenByPlatform:
        return "the platform sets it on every run, so the platform's value wins";
    }
    return {};
}

std::string misplacedHudiConfigMessage(std::string_view key) {
    return "--hudi-conf" + (key.empty() ? std::string() : " " + std::string(key)) +
           " comes after the application path, so it is passed to the application as an argument and is not "
           "a Job configuration. Move it before the path if it is meant for the Job.";
}

} // namespace jobdeck
