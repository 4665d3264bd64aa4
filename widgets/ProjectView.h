#pragma once

#include "core/policy/ProjectSettingsChange.h"
#include "core/wire/Project.h"
#include "core/wire/ProjectEvent.h"
#include "core/wire/SparkJob.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTreeView;
class QTreeWidget;

namespace Ui {
class ProjectSettingsTab;
}

namespace jobdeck {

class AllowlistModel;
class ApiClient;
class AuditLogModel;
class JsonTreeModel;

// The project's settings, readable: the --hudi-conf switch, the allow-list (exact keys and families), the
// concurrent runs switch and limit, the recent audit, and DESCRIBE PROJECT's tree as a tab. An admin edits
// them in place; entries are checked by core before they are listed, and before Save the view shows what
// the change does to the jobs the project has (core's effectOnJobs over their stored configs). Save sends
// one ALTER PROJECT per change; a refusal is shown on the entry or field it is about. Other roles see the
// same view read-only, with the service's reason. The view re-reads the settings on PROJECT_ALTERED.
class ProjectView final : public QWidget {
    Q_OBJECT
public:
    explicit ProjectView(ApiClient* client, QWidget* parent = nullptr);
    ~ProjectView() override;

    void reload();
    // Another service, or none: nothing of the project shown before stays, no answer about it is used.
    void forget();
    void onEvents(const QList<ProjectEvent>& events);

    bool isLoading() const { return m_loading; }
    bool isEditable() const;
    const std::optional<Project>& project() const { return m_project; }
    ProjectSettings editedSettings() const;
    const ProjectSettingsEffect& effect() const { return m_effect; }
    AllowlistModel* allowlistModel() const { return m_allowlist; }
    QTabWidget* tabs() const { return m_tabs; }

    // Adds the entry typed in the entry field, as the Add button does; false (and the reason shown) when
    // core refuses it.
    bool addTypedEntry();
    // Replaces the entry just added by the one core's note offers, as its button does.
    void replaceAddedEntry();
    void save();
    void revert();

signals:
    void loaded();
    void saveFinished(bool ok);

private:
    // The Settings tab is widgets/ProjectSettingsTab.ui; its widgets are bound to the members below.
    void buildSettingsTab(QWidget* page);
    void connectSettingsTab();
    QWidget* buildAuditTab();
    void showProject(const nlohmann::json& apiResponse);
    void loadJobs();
    void updateEffect();
    void showEntryNote(const std::string& added);
    void hideEntryNote();
    void showAddedEntry(const std::string& entry);
    void updateEditability();
    void sendNext(std::vector<AlterProjectStatement> remaining);
    void showRefusal(const AlterProjectStatement& statement, const QString& message);
    void setLoading(bool loading);

    ApiClient* m_client;
    std::optional<Project> m_project;
    std::vector<SparkJob> m_jobs;
    ProjectSettingsEffect m_effect;
    bool m_loading = false;
    bool m_saving = false;
    // The last refused allow-list entry and the service's message: kept on its entry across re-reads
    // (the statements before it were applied, and their PROJECT_ALTERED makes the view re-read).
    std::optional<std::pair<std::string, QString>> m_refusedEntry;
    int m_generation = 0;

    QTabWidget* m_tabs;
    QProgressBar* m_busy;
    QLabel* m_roleNote;
    QLabel* m_loadError;
    QCheckBox* m_hudiSwitch = nullptr;
    QCheckBox* m_concurrentSwitch = nullptr;
    QSpinBox* m_limit = nullptr;
    QLabel* m_limitNote = nullptr;
    QLabel* m_limitError = nullptr;
    QTableView* m_allowlistView = nullptr;
    AllowlistModel* m_allowlist;
    std::unique_ptr<Ui::ProjectSettingsTab> m_settingsUi;
    QLineEdit* m_entryEdit = nullptr;
    QPushButton* m_addButton = nullptr;
    QPushButton* m_removeButton = nullptr;
    QLabel* m_entryError = nullptr;
    QLabel* m_entryNote = nullptr;
    std::string m_noteOn; // the entry m_entryNote is about
    QTreeWidget* m_effectView = nullptr;
    QPushButton* m_saveButton = nullptr;
    QPushButton* m_revertButton = nullptr;
    QLabel* m_saveError = nullptr;
    QTableView* m_auditView = nullptr;
    AuditLogModel* m_audit;
    QLabel* m_auditNote = nullptr;
    JsonTreeModel* m_json;
    QTreeView* m_jsonView;
};

} // namespace jobdeck
