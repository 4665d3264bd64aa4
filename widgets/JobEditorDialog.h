#pragma once

#include "client/ConnectionInfo.h"
#include "core/parameters/ParameterValidator.h"
#include "core/policy/ProjectSettings.h"
#include "core/wire/SparkJob.h"
#include "widgets/JobPreviewPanel.h"

#include <QDialog>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QMessageBox;
class QTimer;

namespace Ui {
class JobEditorDialog;
}

namespace jobdeck {

class ApiClient;
class DiagnosticsPanel;
class EventsSubscription;
class ParameterDiffView;
class ParameterEditor;

// Creates a Job or edits one: name, type, cluster (from SHOW CLUSTERS), max concurrent runs (bounded by the
// project's settings from DESCRIBE PROJECT), the parameter editor with its diagnostics, the live preview and,
// when editing, the difference to the stored parameters. Save sends CREATE JOB or an ALTER JOB of what
// changed; a refusal shows the service's exact message and marks the line it concerns. Closing with unsaved
// changes asks Save / Discard / Cancel. Keys: Ctrl+S save, Ctrl+Space complete, Ctrl+. or Alt+Enter fixes,
// F8 next diagnostic.
class JobEditorDialog final : public QDialog {
    Q_OBJECT
public:
    JobEditorDialog(ApiClient* client, std::optional<SparkJob> job, QWidget* parent = nullptr);
    ~JobEditorDialog() override;

    // Normally read with DESCRIBE PROJECT when the dialog opens, and again on each PROJECT_ALTERED event
    // once followProjectEvents() is called. Until they are read (or when they cannot be) the checks that
    // depend on them are held back, never made against default settings.
    void setProjectSettings(const ProjectSettings& settings);
    const ProjectSettings& projectSettings() const { return m_settings; }
    enum class SettingsState { Loading, Loaded, Failed };
    SettingsState settingsState() const { return m_settingsState; }
    void followProjectEvents(EventsSubscription* events);
    void setClusters(const QStringList& clusters);
    // A new Job prefilled as a copy of `copy` (its name already the copy's): type, cluster, limit and
    // parameters. Nothing is saved until Save; ignored when editing a stored Job.
    void setCopyOf(const SparkJob& copy);

    ParameterEditor* editor() const;
    JobPreviewPanel* preview() const;
    DiagnosticsPanel* diagnosticsPanel() const;
    ParameterDiffView* diffView() const { return m_diff; } // nullptr for a new Job
    JobPreviewPanel::Input currentInput() const;
    bool isModified() const;
    bool isBusy() const { return m_busy; }
    bool isLoading() const { return m_pendingLoads > 0; }
    QString messageText() const;
    void updatePreviewNow();

    void save();
    void reject() override;

signals:
    // The service accepted the statement; `message` says what was done.
    void saved(const QString& jobName, const QString& message);
    void saveFailed(const QString& message);
    void loaded();              // project settings and clusters have arrived (or failed to)
    void projectSettingsRead(); // a DESCRIBE PROJECT answered, whether or not it could be read

private:
    // The parts of the constructor: a stored Job in the form (editing), and the form's signals.
    void showStoredJob();
    void connectForm();
    JobType selectedType() const;
    // What the editor checks against before the project's settings are read: CREATE, or ALTER of m_job.
    ValidationContext initialContext() const;
    // The editor's findings in the panel, or how to start while a new Job's parameters are empty.
    void showDiagnostics();
    // The parameters the editor's text holds now, read without re-checking it.
    std::vector<std::string> parametersAsTyped() const;
    void loadFromService();
    void loadFinished();
    void readProjectSettings(bool initialLoad);
    void projectSettingsFailed(const QString& error);
    void updateMaxRunsRange();
    void updateMaxRunsNote();
    void schedulePreview();
    void showMessage(const QString& text, bool error);
    void setBusy(bool busy);
    // The errors the editor knows of, "Line <n>: <message>"; Save asks before sending them to the service.
    QStringList knownErrors() const;
    void askBeforeSavingWithErrors(const QStringList& errors);
    // Sends the statement (save() once nothing is left to ask).
    void send();
    // The console switched service: the edits stay; an edited job is not saved elsewhere, a new one is
    // saved where the console is connected now, and the message says which.
    void followConnection();
    bool savesElsewhere() const { return m_job && m_elsewhere; }

    QPointer<ApiClient> m_client;
    ConnectionInfo m_openedOn; // the service and project the editor was opened on
    bool m_elsewhere = false;
    std::optional<SparkJob> m_job;
    ProjectSettings m_settings;
    JobPreviewPanel::Input m_initial;
    std::unique_ptr<Ui::JobEditorDialog> m_ui; // widgets/JobEditorDialog.ui
    ParameterDiffView* m_diff = nullptr;
    QTimer* m_previewTimer;
    bool m_busy = false;
    bool m_refusalShown = false; // the banner shows the service's refusal of the text as sent
    QPointer<QMessageBox> m_saveWithErrors;
    int m_pendingLoads = 0;
    SettingsState m_settingsState = SettingsState::Loading;
    int m_settingsReads = 0; // numbers the DESCRIBE PROJECTs sent, so only the latest answer counts
    int m_copiedMaxRuns = 1; // a copy's MAX_CONCURRENT_RUNS, kept selectable like a stored Job's
};

} // namespace jobdeck
