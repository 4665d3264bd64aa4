#include "widgets/RunDialog.h"

#include "client/ApiClient.h"
#include "core/parameters/ArgumentOverrides.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/IdempotencyKey.h"
#include "core/policy/RunRefusal.h"
#include "models/ArgumentOverridesModel.h"
#include "models/JobConfigsModel.h"
#include "models/QtStrings.h"
#include "models/ThemeColors.h"
#include "widgets/OverridesEditor.h"

#include "ui_RunDialog.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>
#include <chrono>

namespace jobdeck {

RunDialog::RunDialog(ApiClient* client, SparkJob job, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_openedOn(client->connection().service()) // the Job is that service's: Run is not another's
    , m_job(std::move(job))
    , m_ui(std::make_unique<Ui::RunDialog>())
    , m_overrides(new ArgumentOverridesModel(this)) {
    m_ui->setupUi(this); // widgets/RunDialog.ui
    setWindowTitle(tr("Run Job '%1'").arg(q(m_job.name)));
    m_overrides->setJobArguments(m_job.arguments);
    m_ui->overridesEditor->setModel(m_overrides);
    m_ui->overrideError->setStyleSheet(
        QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette())));
    m_ui->overrideError->hide();
    describeJob();
    fillConfigurations();
    // Longer input than a key may be is reported, not cut.
    m_ui->idempotencyKeyEdit->setMaxLength(static_cast<int>(kMaxIdempotencyKeyLength) * 2);
    m_ui->idempotencyKeyEdit->setText(newAttemptKey());
    connect(m_ui->runButton, &QPushButton::clicked, this, &RunDialog::submit);
    connect(m_client, &ApiClient::connectionChanged, this, &RunDialog::updateRunButton);
    connect(m_ui->closeButton, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_overrides, &ArgumentOverridesModel::overridesChanged, this, &RunDialog::recompute);
    connect(m_ui->idempotencyKeyEdit, &QLineEdit::textChanged, this, &RunDialog::updateRunButton);
    recompute();
}

// An override still being edited is committed when the dialog hides, and ~QDialog hides it after this
// class's members are gone: the overrides' changes must no longer reach recompute() by then.
RunDialog::~RunDialog() {
    disconnect(m_overrides, nullptr, this, nullptr);
}

void RunDialog::describeJob() {
    m_ui->jobSummary->setText(
        tr("<b>%1</b> (%2) on cluster %3 &mdash; application %4 &mdash; at most %5 concurrent run(s)")
            .arg(q(m_job.name).toHtmlEscaped(), q(jobTypeName(m_job.type)), q(m_job.cluster).toHtmlEscaped(),
                 q(m_job.applicationPath).toHtmlEscaped())
            .arg(m_job.maxConcurrentRuns));
    m_ui->configurationsNote->setText(
        tr("These belong to the Job and apply to every run, so a run cannot change them (overrides are "
           "limited to application arguments; --conf and --hudi-conf are refused). To change them, edit "
           "the Job (Job > Edit job…, Ctrl+E) or use ALTER JOB %1 SET PARAMETERS = (...).")
            .arg(q(m_job.name)));
    m_ui->idempotencyKeyEdit->setPlaceholderText(isKeyRequired() ? tr("required for this Job")
                                                                 : tr("empty: a random key"));
    m_ui->idempotencyKeyNote->setText(
        (isKeyRequired() ? tr("Required: this Job allows %1 concurrent runs, so the key is what stops a "
                              "retried request from starting a second run.")
                               .arg(m_job.maxConcurrentRuns)
                         : tr("Optional at a limit of 1, but a good idea.")) +
        QLatin1Char(' ') +
        tr("The key names one logical run: sending it again while that run is queued or running returns its "
           "run id instead of starting another (Run again after a lost answer is safe). The same key with "
           "different overrides is refused; a key whose run has finished starts a new run. The suggestion "
           "is the Job name, the time and a random part: each Run starts a run of its own, and Retry after "
           "a failed submission sends the same key again. An orchestrator's run id works well too. At most "
           "64 printable ASCII characters, no spaces."));
}

QString RunDialog::newAttemptKey() const {
    return q(suggestRunAttemptKey(m_job.name, std::chrono::system_clock::now(),
                                  QRandomGenerator::global()->generate()));
}

QString RunDialog::idempotencyKey() const {
    return m_ui->idempotencyKeyEdit->text();
}
void RunDialog::setIdempotencyKey(const QString& key) {
    m_ui->idempotencyKeyEdit->setText(key);
}

QString RunDialog::refusalText(const ApiError& error) const {
    return q(
        runRefusalText(error.message.toStdString(), m_job.jobId, m_job.name, error.reason.toStdString()));
}

void RunDialog::fillConfigurations() {
    m_ui->configurationsView->setRowCount(0);
    const auto addRow = [this](const QString& kind, const std::string& key, const std::string& value,
                               const QString& applied) {
        const int row = m_ui->configurationsView->rowCount();
        m_ui->configurationsView->insertRow(row);
        const QStringList cells{kind, q(key), q(value), applied};
        for (int column = 0; column < cells.size(); ++column)
            m_ui->configurationsView->setItem(row, column, new QTableWidgetItem(cells[column]));
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
    m_ui->configurationsView->resizeColumnsToContents();
    fitConfigurationsHeight();
}

// As tall as its rows, up to four (then it scrolls): a Job has few configurations, and the height a
// 1280x800 screen gives the dialog goes to the overrides above instead.
void RunDialog::fitConfigurationsHeight() {
    constexpr int kRowsShown = 4;
    QTableWidget* view = m_ui->configurationsView;
    int height = view->horizontalHeader()->sizeHint().height() + 2 * view->frameWidth();
    for (int row = 0; row < std::min(view->rowCount(), kRowsShown); ++row)
        height += view->rowHeight(row);
    if (view->rowCount() == 0)
        height += view->verticalHeader()->defaultSectionSize();
    if (view->rowCount() > kRowsShown)
        height += view->horizontalScrollBar()->sizeHint().height();
    view->setMaximumHeight(height);
}

void RunDialog::noteSecretsNotRepeated(const QStringList& names) {
    if (names.isEmpty())
        return;
    m_ui->overridesNote->setText(
        m_ui->overridesNote->text() + QLatin1Char(' ') +
        tr("Not repeated: %1, secret in the run you run again (shown as ****, and not kept). Type the value "
           "again, or the Job's value is used.")
            .arg(names.join(QStringLiteral(", "))));
}

void RunDialog::recompute() {
    const auto result = applyArgumentOverrides(m_job.arguments, m_overrides->overrides(), m_job.name);
    m_effective = result.effective;
    m_overrideError = result.error ? q(*result.error) : QString();
    m_ui->overrideError->setText(m_overrideError);
    m_ui->overrideError->setVisible(!m_overrideError.isEmpty());
    if (m_overrideError.isEmpty()) {
        // Masked as DESCRIBE JOB_RUN will show them: an override typed in clear is not shown in clear.
        QStringList lines;
        for (const std::string& argument : maskArguments(m_effective))
            lines << q(argument);
        showEffectiveArguments(lines);
    } else {
        m_ui->effectiveArguments->setPlainText(tr("(refused: see above)"));
    }
    updateRunButton();
}

// The first line that changed since the last list shown (a refusal in between does not count: an added
// argument is refused until it is named) is scrolled into view, as an added argument lands below what the
// box shows.
void RunDialog::showEffectiveArguments(const QStringList& lines) {
    QPlainTextEdit* view = m_ui->effectiveArguments;
    qsizetype changed = 0;
    while (changed < m_shownArguments.size() && changed < lines.size() &&
           m_shownArguments[changed] == lines[changed])
        ++changed;
    m_shownArguments = lines;
    view->setPlainText(lines.isEmpty() ? tr("(no arguments)") : lines.join(QLatin1Char('\n')));
    const auto line =
        static_cast<int>(std::clamp<qsizetype>(changed, 0, std::max<qsizetype>(0, lines.size() - 1)));
    view->setTextCursor(QTextCursor(view->document()->findBlockByNumber(line)));
    view->ensureCursorVisible();
}

QString RunDialog::blockedReason() const {
    if (m_submitting)
        return tr("Waiting for the service's answer...");
    if (const ConnectionInfo& now = m_client->connection(); !now.sameServiceAs(m_openedOn))
        return tr("Run is disabled: the console is now connected to %1 (project %2), and this Job is %3's. "
                  "Your overrides are kept until it is connected there again.")
            .arg(now.baseUrl.toString(), now.projectUid, m_openedOn.baseUrl.toString());
    if (!m_overrideError.isEmpty())
        return tr("Run is disabled until the argument overrides are fixed.");
    const QString key = m_ui->idempotencyKeyEdit->text();
    if (key.isEmpty()) {
        if (isKeyRequired())
            return tr("Run is disabled: an Idempotency-Key is required because this Job allows %1 concurrent "
                      "runs.")
                .arg(m_job.maxConcurrentRuns);
        return {};
    }
    if (const auto problem = idempotencyKeyProblem(key.toStdString()))
        return tr("Run is disabled: %1").arg(q(*problem));
    return {};
}

void RunDialog::updateRunButton() {
    const QString reason = blockedReason();
    m_ui->runButton->setEnabled(reason.isEmpty());
    m_ui->runBlockedReason->setText(reason);
    m_ui->runBlockedReason->setVisible(!reason.isEmpty());
}

void RunDialog::submit() {
    if (!blockedReason().isEmpty())
        return;
    if (m_ui->idempotencyKeyEdit->text().isEmpty())
        m_ui->idempotencyKeyEdit->setText(
            ApiClient::newIdempotencyKey()); // kept, so that Run again is a retry
    m_submitting = true;
    m_lastError.clear();
    m_ui->resultLabel->setText(tr("Starting a run of '%1'…").arg(q(m_job.name)));
    updateRunButton();
    const QString jobName = q(m_job.name);
    const QString key = m_ui->idempotencyKeyEdit->text();
    m_client->runJob(jobName, m_overrides->overrides(), key)
        ->then(this, [this, jobName, key](const ApiReply<QString>& reply) {
            m_submitting = false;
            if (reply.isError()) {
                const ApiError& error = reply.error();
                m_lastError = error.message;
                const bool transient =
                    error.kind == ApiError::Kind::Network || error.kind == ApiError::Kind::Timeout;
                m_ui->resultLabel->setText(
                    transient ? tr("%1\nRun again to retry with the same key (%2); the service will "
                                   "start at most one run for it.")
                                    .arg(error.toString(), key)
                              : refusalText(error));
                m_ui->resultLabel->setStyleSheet(
                    QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette())));
                m_ui->runButton->setText(transient ? tr("Retry") : tr("Run"));
                updateRunButton();
                emit submitFinished(false);
                return;
            }
            const QString& runId = reply.value();
            m_ui->resultLabel->setStyleSheet({});
            m_ui->resultLabel->setText(
                runId == m_lastRunId
                    ? tr("Run %1 is the run already started with key %2; no second run was started.")
                          .arg(runId, key)
                    : tr("Started run %1 (key %2).").arg(runId, key));
            m_lastRunId = runId;
            m_ui->idempotencyKeyEdit->setText(
                newAttemptKey()); // the next Run is another run, not a retry of this one
            m_ui->runButton->setText(tr("Run"));
            updateRunButton();
            emit runStarted(jobName, runId);
            emit submitFinished(true);
        });
}

} // namespace jobdeck
