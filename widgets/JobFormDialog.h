#pragma once

#include "core/SparkJob.h"

#include <QDialog>
#include <QPointer>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace jobdeck {

class ApiClient;

// A minimal job form until the full parameter editor arrives: name, type, cluster, max concurrent
// runs and the parameters as a JSON array of strings. Save sends CREATE JOB (new) or ALTER JOB with the
// changed clauses (existing), and shows the service's message; on refusal the form keeps its content.
class JobFormDialog final : public QDialog {
    Q_OBJECT
public:
    JobFormDialog(ApiClient* client, std::optional<SparkJob> job, QWidget* parent = nullptr);

    void submit();
    QString messageText() const;
    bool isBusy() const { return m_busy; }

signals:
    // The service accepted the statement; `message` says what was done.
    void saved(const QString& jobName, const QString& message);

private:
    void setBusy(bool busy);
    void showMessage(const QString& text, bool error);

    QPointer<ApiClient> m_client;
    std::optional<SparkJob> m_job;
    QLineEdit* m_name;
    QComboBox* m_type;
    QLineEdit* m_cluster;
    QSpinBox* m_maxRuns;
    QPlainTextEdit* m_parameters;
    QLabel* m_message;
    QDialogButtonBox* m_buttons;
    bool m_busy = false;
};

} // namespace jobdeck
