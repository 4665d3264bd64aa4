#pragma once

#include "core/policy/ProjectSettings.h"
#include "core/wire/Project.h"

#include <optional>
#include <string>

namespace jobdeck {

// Projects and their settings (with the Hudi config allow-list).
class ProjectStore {
public:
    virtual ~ProjectStore() = default;
    // The project and its settings, without recentAudit.
    virtual std::optional<Project> findProject(const std::string& projectUid) = 0;
    virtual std::optional<std::string> findProjectUidByName(const std::string& projectName) = 0;
    // Creates a project with default settings and returns its uid.
    virtual std::string createProject(const std::string& projectName) = 0;
    // The defaults for an unknown project. Inside a step the project's row is held until the step ends
    // against writes of it (a share lock where the backend locks rows): ALTER PROJECT waits for the
    // admissions that read the settings, and they never wait for each other.
    virtual ProjectSettings projectSettings(const std::string& projectUid) = 0;
    // The settings read to be changed in the same step (ALTER PROJECT): the row is held as a writer holds
    // it, so two changes take turns instead of each holding a share the other's write waits for.
    virtual ProjectSettings projectSettingsForUpdate(const std::string& projectUid) = 0;
    // The settings as last committed, holding nothing even inside a step (findJobAsCommitted).
    virtual ProjectSettings projectSettingsAsCommitted(const std::string& projectUid) = 0;
    virtual void saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) = 0;
};

} // namespace jobdeck
