#pragma once

#include "client/ConnectionInfo.h"
#include "core/wire/SparkJob.h"

#include <QDialog>

#include <memory>
#include <string>
#include <vector>

namespace Ui {
class RunDialog;
}

namespace jobdeck {

class ApiClient;
struct ApiError;
class ArgumentOverridesModel;

// Job > Run job…: triggers one run of a Job. The user can override or add application arguments and sees
// the arguments the run will get (refusals inline, with the service's own words, Run disabled meanwhile).
// Spark and Hudi configurations are shown read-only: they belong to the Job. The Idempotency-Key is
// required above a limit of 1 and pre-filled with a key for this run attempt (the Job's name, the time and
// a random part); a retry reuses it, so the service starts one run. The service's answer (the run id, or its
// exact refusal) stays in the dialog.
class RunDialog final : public QDialog {
    Q_OBJECT
public:
    RunDialog(ApiClient* client, SparkJob job, QWidget* parent = nullptr);
    ~RunDialog() override;
    // Run again: the overrides of the earlier run that were secret (DESCRIBE JOB_RUN shows ****, and no
    // run keeps them) are not filled in; the dialog says which, so that the user types them again.
    void noteSecretsNotRepeated(const QStringList& names);

    const SparkJob& job() const { return m_job; }
    ArgumentOverridesModel* overridesModel() const { return m_overrides; }
    // What the run will get after the application path; empty while the overrides are refused.
    const std::vector<std::string>& effectiveArguments() const { return m_effective; }
    QString overrideError() const { return m_overrideError; }
    bool isKeyRequired() const { return m_job.maxConcurrentRuns > 1; }
    QString idempotencyKey() const;
    void setIdempotencyKey(const QString& key);
    // Why Run is disabled, or empty when it is enabled.
    QString blockedReason() const;
    bool isSubmitting() const { return m_submitting; }
    QString lastRunId() const { return m_lastRunId; }
    // The service's exact message for the last refusal, or empty.
    QString lastError() const { return m_lastError; }

    // RUN JOB with the overrides and the key (a generated one when the field is empty, written back so a
    // retry sends the same).
    void submit();

signals:
    void runStarted(const QString& jobName, const QString& runId);
    // The last submission has its answer (started or refused).
    void submitFinished(bool started);

private:
    void fitConfigurationsHeight();
    void showEffectiveArguments(const QStringList& lines);
    // The Job's summary and the notes that name it or its limit.
    void describeJob();
    void recompute();
    void updateRunButton();
    void fillConfigurations();
    // A key for the next run attempt (core's suggestRunAttemptKey).
    QString newAttemptKey() const;
    // A refusal as shown: the contract's text with the Job's name beside its id, and the service's reason.
    QString refusalText(const ApiError& error) const;

    ApiClient* m_client;
    ConnectionInfo m_openedOn; // the service and project the dialog was opened on
    SparkJob m_job;
    std::unique_ptr<Ui::RunDialog> m_ui; // widgets/RunDialog.ui
    ArgumentOverridesModel* m_overrides;
    std::vector<std::string> m_effective;
    QStringList m_shownArguments; // the effective arguments last shown, masked
    QString m_overrideError;
    QString m_lastRunId;
    QString m_lastError;
    bool m_submitting = false;
};

} // namespace jobdeck
