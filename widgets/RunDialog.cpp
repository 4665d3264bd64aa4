#include "widgets/RunDialog.h"

#include "client/ApiClient.h"
#include "core/parameters/ArgumentOverrides.h"
#include "core/policy/IdempotencyKey.h"
#include "core/policy/RunRefusal.h"
#include "models/ArgumentOverridesModel.h"
#include "models/JobConfigsModel.h"
#include "models/ThemeColors.h"
#include "widgets/OverridesEditor.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QTableWidget>
#include <QVBoxLayout>

#include <chrono>

namespace jobdeck {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QLabel* note(const QString& text, const QString& objectName, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

RunDialog::RunDialog(ApiClient* client, SparkJob job, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_job(std::move(job)) {
    setObjectName(QStringLiteral("runDialog"));
    setWindowTitle(tr("Run Job %1").arg(qs(m_job.name)));

    auto* summary =
        note(tr("<b>%1</b> (%2) on cluster %3 &mdash; application %4 &mdash; at most %5 concurrent "
                "run(s)")
                 .arg(qs(m_job.name).toHtmlEscaped(), qs(std::string(jobTypeName(m_job.type))),
                      qs(m_job.cluster).toHtmlEscaped(), qs(m_job.applicationPath).toHtmlEscaped())
                 .arg(m_job.maxConcurrentRuns),
             QStringLiteral("jobSummary"), this);
    summary->setTextFormat(Qt::RichText);

    // Arguments: overrides and the effective list.
    m_overrides = new ArgumentOverridesModel(this);
    m_overrides->setJobArguments(m_job.arguments);
    m_editor = new OverridesEditor(m_overrides, this);
    m_editor->setObjectName(QStringLiteral("overridesEditor"));
    m_overrideErrorLabel = note({}, QStringLiteral("overrideError"), this);
    m_overrideErrorLabel->setStyleSheet(
        QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette())));
    m_overrideErrorLabel->hide();
    m_effectiveView = new QPlainTextEdit(this);
    m_effectiveView->setObjectName(QStringLiteral("effectiveArguments"));
    m_effectiveView->setReadOnly(true);
    m_effectiveView->setMaximumHeight(110);
    auto* argumentsBox = new QGroupBox(tr("Argument overrides (this run only)"), this);
    auto* argumentsLayout = new QVBoxLayout(argumentsBox);
    argumentsLayout->addWidget(
        note(tr("Change the value of one of the Job's application arguments, or add one. "
                "Arguments you do not change are inherited from the Job."),
             QStringLiteral("overridesNote"), argumentsBox));
    argumentsLayout->addWidget(m_editor);
    argumentsLayout->addWidget(m_overrideErrorLabel);
    argumentsLayout->addWidget(
        new QLabel(tr("The run's arguments after the application path:"), argumentsBox));
    argumentsLayout->addWidget(m_effectiveView);

    // Configurations: read-only, with why and how to change them.
    m_configurations = new QTableWidget(this);
    m_configurations->setObjectName(QStringLiteral("configurationsView"));
    m_configurations->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_configurations->setColumnCount(4);
    m_configurations->setHorizontalHeaderLabels({tr("Kind"), tr("Key"), tr("Value"), tr("Applied")});
    m_configurations->verticalHeader()->hide();
    m_configurations->horizontalHeader()->setStretchLastSection(true);
    m_configurations->setMaximumHeight(130);
    fillConfigurations();
    auto* configBox = new QGroupBox(tr("Spark and Hudi configurations (read-only)"), this);
    auto* configLayout = new QVBoxLayout(configBox);
    configLayout->addWidget(m_configurations);
    configLayout->addWidget(
        note(tr("These belong to the Job and apply to every run, so a run cannot change them (overrides are "
                "limited to application arguments; --conf and --hudi-conf are refused). To change them, edit "
                "the Job (Actions > Edit) or use ALTER JOB %1 SET PARAMETERS = (...).")
                 .arg(qs(m_job.name)),
             QStringLiteral("configurationsNote"), configBox));

    // Idempotency key.
    m_key = new QLineEdit(this);
    m_key->setObjectName(QStringLiteral("idempotencyKeyEdit"));
    m_key->setMaxLength(static_cast<int>(kMaxIdempotencyKeyLength) * 2); // longer input is reported, not cut
    m_key->setText(newAttemptKey());
    m_key->setPlaceholderText(isKeyRequired() ? tr("required for this Job") : tr("empty: a random key"));
    m_keyNote = note(
        (isKeyRequired() ? tr("Required: this Job allows %1 concurrent runs, so the key is what stops a "
                              "retried request from "
                              "starting a second run.")
                               .arg(m_job.maxConcurrentRuns)
                         : tr("Optional at a limit of 1, but a good idea.")) +
            QLatin1Char(' ') +
            tr("The key names one logical run: sending it again while that run is queued or running returns "
               "its "
               "run id instead of starting another (Run again after a lost answer is safe). The same key "
               "with "
               "different overrides is refused; a key whose run has finished starts a new run. The "
               "suggestion is the Job name, the time and a random part: each Run starts a run of its own, "
               "and Retry after a failed submission sends the same key again. An orchestrator's run id "
               "works well too. At most 64 printable ASCII characters, no spaces."),
        QStringLiteral("idempotencyKeyNote"), this);
    auto* keyBox = new QGroupBox(tr("Idempotency-Key"), this);
    auto* keyLayout = new QVBoxLayout(keyBox);
    keyLayout->addWidget(m_key);
    keyLayout->addWidget(m_keyNote);

    m_blocked = note({}, QStringLiteral("runBlockedReason"), this);
    m_result = note({}, QStringLiteral("resultLabel"), this);
    m_result->setTextFormat(Qt::PlainText);

    auto* buttons = new QDialogButtonBox(this);
    m_run = buttons->addButton(tr("Run"), QDialogButtonBox::AcceptRole);
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setDefault(true);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("closeButton"));
    connect(m_run, &QPushButton::clicked, this, &RunDialog::submit);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary);
    layout->addWidget(argumentsBox, 1);
    layout->addWidget(configBox);
    layout->addWidget(keyBox);
    layout->addWidget(m_blocked);
    layout->addWidget(m_result);
    layout->addWidget(buttons);
    resize(720, 760);

    connect(m_overrides, &ArgumentOverridesModel::overridesChanged, this, &RunDialog::recompute);
    connect(m_key, &QLineEdit::textChanged, this, &RunDialog::updateRunButton);
    recompute();
}

QString RunDialog::newAttemptKey() const {
    return qs(suggestRunAttemptKey(m_job.name, std::chrono::system_clock::now(),
                                   QRandomGenerator::global()->generate()));
}

QString RunDialog::idempotencyKey() const {
    return m_key->text();
}
void RunDialog::setIdempotencyKey(const QString& key) {
    m_key->setText(key);
}

QString RunDialog::refusalText(const ApiError& error) const {
    return qs(
        runRefusalText(error.message.toStdString(), m_job.jobId, m_job.name, error.reason.toStdString()));
}

void RunDialog::fillConfigurations() {
    m_configurations->setRowCount(0);
    const auto addRow = [this](const QString& kind, const std::string& key, const std::string& value,
                               const QString& applied) {
        const int row = m_configurations->rowCount();
        m_configurations->insertRow(row);
        const QStringList cells{kind, qs(key), qs(value), applied};
        for (int column = 0; column < cells.size(); ++column)
            m_configurations->setItem(row, column, new QTableWidgetItem(cells[column]));
    };
    for (const auto& [key, value] : m_job.sparkConfigs)
        addRow(tr("Spark"), key, value, tr("every run"));
    for (const auto& [key, value] : m_job.hudiConfigs) {
        const auto status = m_job.hudiConfigsStatus.find(key);
        addRow(tr("Hudi"), key, value,
               status == m_job.hudiConfigsStatus.end()
                   ? tr("every run")
                   : JobConfigsModel::explain(m_job, key, status->second));
    }
    m_configurations->resizeColumnsToContents();
}

void RunDialog::recompute() {
    const auto result = applyArgumentOverrides(m_job.arguments, m_overrides->overrides(), m_job.name);
    m_effective = result.effective;
    m_overrideError = result.error ? qs(*result.error) : QString();
    m_overrideErrorLabel->setText(m_overrideError);
    m_overrideErrorLabel->setVisible(!m_overrideError.isEmpty());
    if (m_overrideError.isEmpty()) {
        QStringList lines;
        for (const std::string& argument : m_effective)
            lines << qs(argument);
        m_effectiveView->setPlainText(lines.isEmpty() ? tr("(no arguments)") : lines.join(QLatin1Char('\n')));
    } else {
        m_effectiveView->setPlainText(tr("(refused: see above)"));
    }
    updateRunButton();
}

QString RunDialog::blockedReason() const {
    if (m_submitting)
        return tr("Waiting for the service's answer...");
    if (!m_overrideError.isEmpty())
        return tr("Run is disabled until the argument overrides are fixed.");
    const QString key = m_key->text();
    if (key.isEmpty()) {
        if (isKeyRequired())
            return tr("Run is disabled: an Idempotency-Key is required because this Job allows %1 concurrent "
                      "runs.")
                .arg(m_job.maxConcurrentRuns);
        return {};
    }
    if (const auto problem = idempotencyKeyProblem(key.toStdString()))
        return tr("Run is disabled: %1").arg(qs(*problem));
    return {};
}

void RunDialog::updateRunButton() {
    const QString reason = blockedReason();
    m_run->setEnabled(reason.isEmpty());
    m_blocked->setText(reason);
    m_blocked->setVisible(!reason.isEmpty());
}

void RunDialog::submit() {
    if (!blockedReason().isEmpty())
        return;
    if (m_key->text().isEmpty())
        m_key->setText(ApiClient::newIdempotencyKey()); // kept, so that Run again is a retry
    m_submitting = true;
    m_lastError.clear();
    m_result->setText(tr("Starting a run of %1...").arg(qs(m_job.name)));
    updateRunButton();
    const QString jobName = qs(m_job.name);
    const QString key = m_key->text();
    m_client->runJob(jobName, m_overrides->overrides(), key)
        ->then(this, [this, jobName, key](const ApiReply<QString>& reply) {
            m_submitting = false;
            if (reply.isError()) {
                const ApiError& error = reply.error();
                m_lastError = error.message;
                const bool transient =
                    error.kind == ApiError::Kind::Network || error.kind == ApiError::Kind::Timeout;
                m_result->setText(transient
                                      ? tr("%1\nRun again to retry with the same key (%2); the service will "
                                           "start at most one run for it.")
                                            .arg(error.toString(), key)
                                      : refusalText(error));
                m_result->setStyleSheet(
                    QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette())));
                m_run->setText(transient ? tr("Retry") : tr("Run"));
                updateRunButton();
                emit submitFinished(false);
                return;
            }
            const QString& runId = reply.value();
            m_result->setStyleSheet({});
            m_result->setText(
                runId == m_lastRunId
                    ? tr("Run %1 is the run already started with key %2; no second run was started.")
                          .arg(runId, key)
                    : tr("Started run %1 (key %2).").arg(runId, key));
            m_lastRunId = runId;
            m_key->setText(newAttemptKey()); // the next Run is another run, not a retry of this one
            m_run->setText(tr("Run"));
            updateRunButton();
            emit runStarted(jobName, runId);
            emit submitFinished(true);
        });
}

} // namespace jobdeck
