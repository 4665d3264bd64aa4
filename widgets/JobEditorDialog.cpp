#include "widgets/JobEditorDialog.h"

#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/ParameterLineAnalysis.h"
#include "core/parameters/ParameterValidator.h"
#include "core/policy/ConcurrentRuns.h"
#include "models/QtStrings.h"
#include "models/ThemeColors.h"
#include "widgets/DiagnosticsPanel.h"
#include "widgets/ParameterDiffView.h"
#include "widgets/ParameterEditor.h"

#include "ui_JobEditorDialog.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextDocument>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace jobdeck {

JobEditorDialog::JobEditorDialog(ApiClient* client, std::optional<SparkJob> job, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_openedOn(client ? client->connection().service() : ConnectionInfo{}) // where an edited job is saved
    , m_job(std::move(job))
    , m_ui(std::make_unique<Ui::JobEditorDialog>())
    , m_previewTimer(new QTimer(this)) {
    m_ui->setupUi(this); // widgets/JobEditorDialog.ui
    setWindowTitle(m_job ? tr("Edit Job '%1'").arg(q(m_job->name)) : tr("New Job"));
    m_ui->mainSplitter->setStretchFactor(0, 3);
    m_ui->mainSplitter->setStretchFactor(1, 2);
    m_ui->editorSplitter->setStretchFactor(0, 3);
    m_ui->editorSplitter->setStretchFactor(1, 1);
    m_ui->parameterEditor->setPlaceholderText(q(emptyParametersGuidance()));
    if (m_job)
        showStoredJob();
    m_ui->parameterEditor->setProjectSettingsKnown(false);
    m_ui->parameterEditor->setValidationContext(initialContext());
    updateMaxRunsRange();
    if (m_job)
        m_ui->maxRunsSpin->setValue(m_job->maxConcurrentRuns);
    m_initial = currentInput();
    connectForm();
    showDiagnostics();
    updatePreviewNow();
    loadFromService();
    (m_job ? static_cast<QWidget*>(m_ui->parameterEditor) : m_ui->nameEdit)->setFocus();
}

JobEditorDialog::~JobEditorDialog() = default;

ParameterEditor* JobEditorDialog::editor() const {
    return m_ui->parameterEditor;
}
JobPreviewPanel* JobEditorDialog::preview() const {
    return m_ui->jobPreviewPanel;
}
DiagnosticsPanel* JobEditorDialog::diagnosticsPanel() const {
    return m_ui->diagnosticsPanel;
}

ValidationContext JobEditorDialog::initialContext() const {
    ValidationContext context;
    if (m_job) {
        context.mode = ValidationContext::Mode::Alter;
        context.previousParameters = m_job->parameters;
    }
    context.jobType = selectedType();
    return context;
}

JobType JobEditorDialog::selectedType() const {
    return m_ui->typeCombo->currentIndex() == 1 ? JobType::Python : JobType::Jar; // the form: JAR, PYTHON
}

void JobEditorDialog::showStoredJob() {
    m_ui->nameEdit->setText(q(m_job->name));
    m_ui->nameEdit->setReadOnly(true);
    m_ui->nameEdit->setToolTip(tr("ALTER JOB cannot rename a Job"));
    // Read-only looks read-only: the window's background, not an entry field's.
    QPalette readOnly = m_ui->nameEdit->palette();
    readOnly.setColor(QPalette::Base, readOnly.color(QPalette::Window));
    m_ui->nameEdit->setPalette(readOnly);
    m_ui->typeCombo->setCurrentIndex(m_job->type == JobType::Python ? 1 : 0);
    m_ui->typeCombo->setEnabled(false);
    m_ui->typeCombo->setToolTip(tr("ALTER JOB cannot change a Job's type"));
    m_ui->clusterCombo->addItem(q(m_job->cluster));
    m_ui->clusterCombo->setCurrentText(q(m_job->cluster));
    m_ui->parameterEditor->setParameters(m_job->parameters);
    m_diff = new ParameterDiffView(this);
    m_ui->sideTabs->addTab(m_diff, tr("Changes"));
}

void JobEditorDialog::connectForm() {
    ParameterEditor* editor = m_ui->parameterEditor;
    connect(m_ui->saveButton, &QPushButton::clicked, this, &JobEditorDialog::save);
    if (m_client)
        connect(m_client, &ApiClient::connectionChanged, this, &JobEditorDialog::followConnection);
    connect(m_ui->cancelButton, &QPushButton::clicked, this, &JobEditorDialog::reject);
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_S), this), &QShortcut::activated, this,
            &JobEditorDialog::save);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(120); // the preview of a long list is rebuilt once typing pauses
    connect(m_previewTimer, &QTimer::timeout, this, &JobEditorDialog::updatePreviewNow);
    connect(editor, &ParameterEditor::analysisUpdated, this, [this] {
        showDiagnostics();
        schedulePreview();
    });
    connect(m_ui->diagnosticsPanel, &DiagnosticsPanel::lineActivated, editor, &ParameterEditor::goToLine);
    m_ui->diagnosticsPanel->setFixProvider([editor](int row) { return editor->fixesForDiagnostic(row); });
    connect(m_ui->diagnosticsPanel, &DiagnosticsPanel::fixRequested, editor, &ParameterEditor::applyFix);
    connect(m_ui->nameEdit, &QLineEdit::textChanged, this, &JobEditorDialog::schedulePreview);
    connect(m_ui->typeCombo, &QComboBox::currentIndexChanged, this, [this] {
        // The application path's expected extension follows the type.
        ValidationContext context = m_ui->parameterEditor->validationContext();
        context.jobType = selectedType();
        m_ui->parameterEditor->setValidationContext(context);
        schedulePreview();
    });
    // A refusal shown in the banner is about the text the service saw: an edit makes it stale.
    connect(editor->document(), &QTextDocument::contentsChanged, this, [this] {
        if (std::exchange(m_refusalShown, false))
            showMessage(QString(), false);
    });
    connect(m_ui->clusterCombo, &QComboBox::currentTextChanged, this, &JobEditorDialog::schedulePreview);
    connect(m_ui->maxRunsSpin, &QSpinBox::valueChanged, this, &JobEditorDialog::schedulePreview);
    connect(m_ui->maxRunsSpin, &QSpinBox::valueChanged, this, &JobEditorDialog::updateMaxRunsNote);
}

void JobEditorDialog::showDiagnostics() {
    const ParameterEditor* editor = m_ui->parameterEditor;
    const auto& found = editor->diagnostics();
    // A new Job with nothing typed yet: how to start, not the empty list's error (Save still asks first).
    if (!m_job && found.size() == 1 && hasCode(found.front(), DiagnosticCode::ParametersEmpty))
        m_ui->diagnosticsPanel->showGuidance(q(emptyParametersGuidance()));
    else
        m_ui->diagnosticsPanel->setDiagnostics(found, editor->diagnosticLines());
}

std::vector<std::string> JobEditorDialog::parametersAsTyped() const {
    const ParameterEditor* editor = m_ui->parameterEditor;
    if (!editor->recheckPending())
        return editor->parameters();
    // Read as the editor reads its lines, without re-checking them (that changes the editor).
    std::vector<std::string> parameters;
    for (QTextBlock block = editor->document()->begin(); block.isValid(); block = block.next()) {
        const QString text = block.text();
        if (auto parameter = readParameterLine(text.toStdString(), int(text.size())).parameter)
            parameters.push_back(std::move(*parameter));
    }
    return parameters;
}

void JobEditorDialog::loadFromService() {
    if (!m_client) {
        projectSettingsFailed(tr("not connected to a Jobs service"));
        return;
    }
    m_pendingLoads = 2;
    showMessage(tr("Checking the project's settings…"), false);
    readProjectSettings(true);
    m_client->showClusters()->then(this, [this](const ApiReply<std::vector<Cluster>>& r) {
        if (!r.isError()) {
            QStringList names;
            for (const Cluster& c : r.value())
                names << q(c.name);
            setClusters(names);
        }
        loadFinished();
    });
}

void JobEditorDialog::followProjectEvents(EventsSubscription* events) {
    connect(events, &EventsSubscription::eventsReceived, this, [this](const QList<ProjectEvent>& list) {
        if (std::any_of(list.begin(), list.end(),
                        [](const ProjectEvent& e) { return e.type == event_type::kProjectAltered; }))
            readProjectSettings(false);
    });
    // Events were dropped: one of them may have been the project's.
    connect(events, &EventsSubscription::reloadNeeded, this, [this] { readProjectSettings(false); });
}

void JobEditorDialog::readProjectSettings(bool initialLoad) {
    if (!m_client)
        return;
    const int read = ++m_settingsReads;
    m_client->describeProject()->then(this, [this, read, initialLoad](const ApiReply<Project>& r) {
        if (read == m_settingsReads) {
            if (r.isError())
                projectSettingsFailed(r.error().message);
            else
                setProjectSettings(r.value().settings);
            emit projectSettingsRead();
        }
        if (initialLoad)
            loadFinished();
    });
}

void JobEditorDialog::projectSettingsFailed(const QString& error) {
    if (m_settingsState == SettingsState::Loaded)
        return; // the settings read before stay the best known
    m_settingsState = SettingsState::Failed;
    updateMaxRunsRange();
    showMessage(tr("Could not read the project's settings (%1): the --hudi-conf and concurrent-runs checks "
                   "that depend on them are left to the service, which makes them on Save.")
                    .arg(error),
                true);
}

void JobEditorDialog::loadFinished() {
    if (--m_pendingLoads == 0)
        emit loaded();
}

void JobEditorDialog::setProjectSettings(const ProjectSettings& settings) {
    if (m_settingsState != SettingsState::Loaded && !m_busy)
        showMessage(QString(), false); // the "checking" or "could not read" note no longer holds
    m_settingsState = SettingsState::Loaded;
    m_settings = settings;
    ValidationContext context = m_ui->parameterEditor->validationContext();
    context.settings = settings;
    m_ui->parameterEditor->setValidationContext(context);
    m_ui->parameterEditor->setProjectSettingsKnown(true);
    updateMaxRunsRange();
    updatePreviewNow();
}

void JobEditorDialog::setClusters(const QStringList& clusters) {
    const QString current = m_ui->clusterCombo->currentText();
    const QSignalBlocker block(m_ui->clusterCombo);
    m_ui->clusterCombo->clear();
    m_ui->clusterCombo->addItems(clusters);
    if (!current.isEmpty())
        m_ui->clusterCombo->setCurrentText(current);
    else if (!clusters.isEmpty())
        m_ui->clusterCombo->setCurrentIndex(0);
    if (!m_job)
        m_initial.cluster =
            m_ui->clusterCombo->currentText().toStdString(); // choosing the first is not an edit
    updatePreviewNow();
}

void JobEditorDialog::setCopyOf(const SparkJob& copy) {
    if (m_job)
        return;
    m_ui->nameEdit->setText(q(copy.name));
    m_ui->typeCombo->setCurrentIndex(copy.type == JobType::Python ? 1 : 0);
    m_ui->clusterCombo->setCurrentText(q(copy.cluster));
    m_ui->parameterEditor->setParameters(copy.parameters);
    m_copiedMaxRuns = std::max(1, copy.maxConcurrentRuns);
    updateMaxRunsRange();
    m_ui->maxRunsSpin->setValue(m_copiedMaxRuns);
    updatePreviewNow();
}

void JobEditorDialog::updateMaxRunsRange() {
    const int stored = m_job ? m_job->maxConcurrentRuns : m_copiedMaxRuns;
    if (m_settingsState != SettingsState::Loaded) {
        // Not the default settings' limit of 1: unknown while loading, and left to the service if unreadable.
        m_ui->maxRunsSpin->setRange(1, m_settingsState == SettingsState::Failed
                                           ? int(kMaxConcurrentRunsCeiling)
                                           : std::max(1, stored));
        m_ui->maxRunsSpin->setEnabled(m_settingsState == SettingsState::Failed);
        updateMaxRunsNote();
        return;
    }
    const int limit = maxConcurrentRunsAllowed(m_settings);
    // A stored value above today's limit stays selectable so opening the dialog never changes it silently.
    m_ui->maxRunsSpin->setRange(1, std::max(limit, stored));
    m_ui->maxRunsSpin->setEnabled(m_settings.concurrentRunsEnabled || stored > 1);
    updateMaxRunsNote();
}

void JobEditorDialog::updateMaxRunsNote() {
    if (m_settingsState == SettingsState::Loading) {
        m_ui->maxRunsNote->setText(tr("Checking the project's limit…"));
        return;
    }
    if (m_settingsState == SettingsState::Failed) {
        m_ui->maxRunsNote->setText(
            tr("The project's limit could not be read: the service checks it on Save."));
        return;
    }
    // A stored value the project no longer allows: the service's own reason, as Save would get it.
    if (const auto problem = maxConcurrentRunsProblem(m_ui->maxRunsSpin->value(), m_settings)) {
        m_ui->maxRunsNote->setText(QString::fromStdString(problem->message));
        return;
    }
    m_ui->maxRunsNote->setText(
        m_settings.concurrentRunsEnabled
            ? tr("Up to %1 (the project's limit); above 1, RUN JOB needs an Idempotency-Key.")
                  .arg(maxConcurrentRunsAllowed(m_settings))
            : tr("Concurrent runs are not enabled for this project: the Job runs one at a time."));
}

JobPreviewPanel::Input JobEditorDialog::currentInput() const {
    JobPreviewPanel::Input in;
    in.name = m_ui->nameEdit->text().trimmed().toStdString();
    in.type = selectedType();
    in.cluster = m_ui->clusterCombo->currentText().trimmed().toStdString();
    in.maxConcurrentRuns = m_ui->maxRunsSpin->value();
    in.parameters = m_ui->parameterEditor->parameters();
    in.settings = m_settings;
    in.settingsKnown = m_settingsState == SettingsState::Loaded;
    in.stored = m_job;
    return in;
}

bool JobEditorDialog::isModified() const {
    const JobPreviewPanel::Input now = currentInput();
    return now.name != m_initial.name || now.type != m_initial.type || now.cluster != m_initial.cluster ||
           now.maxConcurrentRuns != m_initial.maxConcurrentRuns ||
           parametersAsTyped() != m_initial.parameters;
}

void JobEditorDialog::schedulePreview() {
    m_previewTimer->start();
}

void JobEditorDialog::updatePreviewNow() {
    m_previewTimer->stop();
    m_ui->jobPreviewPanel->setInput(currentInput());
    if (m_diff) {
        m_diff->setParameters(m_job->parameters, m_ui->parameterEditor->parameters());
        m_ui->sideTabs->setTabText(m_ui->sideTabs->indexOf(m_diff),
                                   tr("Changes (%1)").arg(m_diff->summary()));
    }
}

QString JobEditorDialog::messageText() const {
    return m_ui->messageLabel->text();
}

void JobEditorDialog::showMessage(const QString& text, bool error) {
    m_ui->messageLabel->setText(text);
    m_ui->messageLabel->setStyleSheet(
        error ? QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette()))
              : QString());
}

void JobEditorDialog::setBusy(bool busy) {
    m_busy = busy;
    m_ui->saveButton->setEnabled(!busy && !savesElsewhere());
}

void JobEditorDialog::followConnection() {
    const ConnectionInfo& now = m_client->connection();
    m_elsewhere = !now.sameServiceAs(m_openedOn);
    setBusy(m_busy);
    if (!m_elsewhere) {
        showMessage(tr("The console is connected to %1 again: Save sends the job there.")
                        .arg(m_openedOn.baseUrl.toString()),
                    false);
    } else if (m_job) {
        showMessage(tr("The console is now connected to %1 (project %2). This job was opened on %3: Save is "
                       "off until the console is connected there again. Your edits are kept.")
                        .arg(now.baseUrl.toString(), now.projectUid, m_openedOn.baseUrl.toString()),
                    true);
    } else {
        showMessage(tr("The console is now connected to %1 (project %2): Save creates the job there, not "
                       "on %3 where this editor was opened. Your edits are kept.")
                        .arg(now.baseUrl.toString(), now.projectUid, m_openedOn.baseUrl.toString()),
                    true);
    }
    readProjectSettings(false); // the checks follow the project Save would send to
}

void JobEditorDialog::save() {
    if (m_busy || savesElsewhere())
        return;
    m_ui->parameterEditor->recheckNow();
    if (const QStringList errors = knownErrors(); !errors.isEmpty()) {
        askBeforeSavingWithErrors(errors);
        return;
    }
    send();
}

QStringList JobEditorDialog::knownErrors() const {
    QStringList errors;
    const auto& found = m_ui->parameterEditor->diagnostics();
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (found[i].severity != Severity::Error || hasCode(found[i], DiagnosticCode::ServiceRefusal))
            continue;
        const int line = m_ui->parameterEditor->diagnosticLines()[i];
        errors << (line >= 0 ? tr("Line %1: %2").arg(line + 1).arg(q(found[i].message))
                             : q(found[i].message));
    }
    return errors;
}

void JobEditorDialog::askBeforeSavingWithErrors(const QStringList& errors) {
    if (m_saveWithErrors)
        m_saveWithErrors->close();
    m_saveWithErrors =
        new QMessageBox(QMessageBox::Warning, tr("Jobdeck"),
                        tr("The parameters have %n error(s): the service will refuse the Job as it is.",
                           nullptr, int(errors.size())),
                        QMessageBox::NoButton, this);
    m_saveWithErrors->setObjectName(QStringLiteral("saveWithErrorsBox"));
    constexpr int kListed = 5;
    QStringList listed = errors.mid(0, kListed);
    if (errors.size() > kListed)
        listed << tr("… and %n more.", nullptr, int(errors.size() - kListed));
    m_saveWithErrors->setInformativeText(listed.join(QLatin1Char('\n')));
    QPushButton* anyway = m_saveWithErrors->addButton(tr("Save anyway"), QMessageBox::AcceptRole);
    anyway->setObjectName(QStringLiteral("saveAnywayButton"));
    QPushButton* keep = m_saveWithErrors->addButton(tr("Keep editing"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepEditingButton"));
    m_saveWithErrors->setDefaultButton(keep);
    m_saveWithErrors->setEscapeButton(keep);
    m_saveWithErrors->setAttribute(Qt::WA_DeleteOnClose);
    connect(anyway, &QPushButton::clicked, this, &JobEditorDialog::send);
    connect(keep, &QPushButton::clicked, m_ui->parameterEditor, [this] {
        activateWindow(); // back to editing, with the keyboard
        m_ui->parameterEditor->setFocus();
    });
    m_saveWithErrors->open();
}

void JobEditorDialog::send() {
    if (m_busy)
        return;
    updatePreviewNow();
    const JobPreviewPanel::Input input = currentInput();
    if (input.name.empty()) {
        showMessage(tr("Enter the Job's name."), true);
        m_ui->nameEdit->setFocus();
        return;
    }
    if (input.cluster.empty()) {
        showMessage(tr("Choose the cluster the Job runs on."), true);
        m_ui->clusterCombo->setFocus();
        return;
    }
    const std::optional<Statement> statement = m_ui->jobPreviewPanel->statement();
    if (!statement) {
        showMessage(tr("Nothing changed, nothing to save."), false);
        return;
    }
    if (!m_client) {
        showMessage(tr("Not connected to a Jobs service."), true);
        return;
    }
    setBusy(true);
    showMessage(tr("Saving…"), false);
    ApiReply<nlohmann::json>* reply = std::holds_alternative<CreateJobStatement>(*statement)
                                          ? m_client->createJob(std::get<CreateJobStatement>(*statement))
                                          : m_client->alterJob(std::get<AlterJobStatement>(*statement));
    const QString name = q(input.name);
    const bool creating = !m_job;
    reply->then(this, [this, name, creating, input](const ApiReply<nlohmann::json>& r) {
        setBusy(false);
        if (r.isError()) {
            const ApiError& e = r.error();
            showMessage(e.message, true);
            m_refusalShown = true;
            if (e.kind == ApiError::Kind::Failed || e.kind == ApiError::Kind::Invalid) {
                const int line = m_ui->parameterEditor->setServiceRefusal(e.message, e.parameterIndex);
                if (line >= 0)
                    m_ui->parameterEditor->goToLine(line);
            }
            emit saveFailed(e.message);
            return;
        }
        const QString message =
            creating ? tr("Job '%1' created.").arg(name) : tr("Job '%1' altered.").arg(name);
        showMessage(message, false);
        m_initial = input;
        emit saved(name, message);
        accept();
    });
}

void JobEditorDialog::reject() {
    if (m_busy || !isModified()) {
        if (!m_busy)
            QDialog::reject();
        return;
    }
    QMessageBox box(QMessageBox::Question, tr("Unsaved changes"),
                    m_job ? tr("Job '%1' has unsaved changes.").arg(q(m_job->name))
                          : tr("The new Job is not saved."),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedChangesBox"));
    box.setInformativeText(tr("Save sends it to the service; Discard drops the changes."));
    box.setDefaultButton(QMessageBox::Cancel);
    switch (box.exec()) {
    case QMessageBox::Save:
        save();
        break; // closes once the service accepts
    case QMessageBox::Discard:
        QDialog::reject();
        break;
    default:
        break;
    }
}

} // namespace jobdeck
