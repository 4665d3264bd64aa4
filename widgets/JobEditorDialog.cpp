#include "widgets/JobEditorDialog.h"

#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "core/parameters/DiagnosticCode.h"
#include "core/policy/ConcurrentRuns.h"
#include "models/QtStrings.h"
#include "models/ThemeColors.h"
#include "widgets/DiagnosticsPanel.h"
#include "widgets/ParameterDiffView.h"
#include "widgets/ParameterEditor.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace jobdeck {

JobEditorDialog::JobEditorDialog(ApiClient* client, std::optional<SparkJob> job, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_job(std::move(job))
    , m_name(new QLineEdit(this))
    , m_type(new QComboBox(this))
    , m_cluster(new QComboBox(this))
    , m_maxRuns(new QSpinBox(this))
    , m_maxRunsNote(new QLabel(this))
    , m_editor(new ParameterEditor(this))
    , m_diagnostics(new DiagnosticsPanel(this))
    , m_preview(new JobPreviewPanel(this))
    , m_tabs(new QTabWidget(this))
    , m_message(new QLabel(this))
    , m_saveButton(new QPushButton(tr("Save"), this))
    , m_previewTimer(new QTimer(this)) {
    setObjectName(QStringLiteral("jobEditorDialog"));
    setWindowTitle(m_job ? tr("Edit Job %1").arg(q(m_job->name)) : tr("New Job"));
    resize(1200, 760);

    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_type->setObjectName(QStringLiteral("typeCombo"));
    m_type->addItem(QStringLiteral("JAR"), int(JobType::Jar));
    m_type->addItem(QStringLiteral("PYTHON"), int(JobType::Python));
    m_cluster->setObjectName(QStringLiteral("clusterCombo"));
    m_cluster->setEditable(true);
    m_maxRuns->setObjectName(QStringLiteral("maxRunsSpin"));
    m_maxRunsNote->setObjectName(QStringLiteral("maxRunsNote"));
    m_maxRunsNote->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_saveButton->setObjectName(QStringLiteral("saveButton"));
    m_saveButton->setDefault(false);
    m_saveButton->setAutoDefault(false);
    m_saveButton->setToolTip(tr("Send the statement to the service (Ctrl+S)"));

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Type"), m_type);
    form->addRow(tr("Cluster"), m_cluster);
    auto* runs = new QHBoxLayout;
    runs->addWidget(m_maxRuns);
    runs->addWidget(m_maxRunsNote, 1);
    form->addRow(tr("Max concurrent runs"), runs);

    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(m_editor);
    left->addWidget(m_diagnostics);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    m_tabs->setObjectName(QStringLiteral("sideTabs"));
    m_tabs->addTab(m_preview, tr("Preview"));
    if (m_job) {
        m_diff = new ParameterDiffView(this);
        m_tabs->addTab(m_diff, tr("Changes"));
    }
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_saveButton, QDialogButtonBox::AcceptRole);
    QPushButton* cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setAutoDefault(false);
    connect(m_saveButton, &QPushButton::clicked, this, &JobEditorDialog::save);
    connect(cancel, &QPushButton::clicked, this, &JobEditorDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(split, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);

    auto* saveShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_S), this);
    connect(saveShortcut, &QShortcut::activated, this, &JobEditorDialog::save);

    ValidationContext context;
    if (m_job) {
        m_name->setText(q(m_job->name));
        m_name->setReadOnly(true);
        m_name->setToolTip(tr("ALTER JOB cannot rename a Job"));
        // Read-only looks read-only: the window's background, not an entry field's.
        QPalette readOnly = m_name->palette();
        readOnly.setColor(QPalette::Base, readOnly.color(QPalette::Window));
        m_name->setPalette(readOnly);
        m_type->setCurrentIndex(m_job->type == JobType::Python ? 1 : 0);
        m_type->setEnabled(false);
        m_type->setToolTip(tr("ALTER JOB cannot change a Job's type"));
        m_cluster->addItem(q(m_job->cluster));
        m_cluster->setCurrentText(q(m_job->cluster));
        m_editor->setParameters(m_job->parameters);
        context.mode = ValidationContext::Mode::Alter;
        context.previousParameters = m_job->parameters;
    }
    context.jobType = JobType(m_type->currentData().toInt());
    m_editor->setProjectSettingsKnown(false);
    m_editor->setValidationContext(context);
    updateMaxRunsRange();
    if (m_job)
        m_maxRuns->setValue(m_job->maxConcurrentRuns);
    m_initial = currentInput();

    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(120); // the preview of a long list is rebuilt once typing pauses
    connect(m_previewTimer, &QTimer::timeout, this, &JobEditorDialog::updatePreviewNow);
    connect(m_editor, &ParameterEditor::analysisUpdated, this, [this] {
        m_diagnostics->setDiagnostics(m_editor->diagnostics(), m_editor->diagnosticLines());
        schedulePreview();
    });
    connect(m_diagnostics, &DiagnosticsPanel::lineActivated, m_editor, &ParameterEditor::goToLine);
    m_diagnostics->setFixProvider([this](int row) { return m_editor->fixesForDiagnostic(row); });
    connect(m_diagnostics, &DiagnosticsPanel::fixRequested, m_editor, &ParameterEditor::applyFix);
    connect(m_name, &QLineEdit::textChanged, this, &JobEditorDialog::schedulePreview);
    connect(m_type, &QComboBox::currentIndexChanged, this, &JobEditorDialog::schedulePreview);
    connect(m_type, &QComboBox::currentIndexChanged, this, [this] {
        // The application path's expected extension follows the type.
        ValidationContext context = m_editor->validationContext();
        context.jobType = JobType(m_type->currentData().toInt());
        m_editor->setValidationContext(context);
    });
    // A refusal shown in the banner is about the text the service saw: an edit makes it stale.
    connect(m_editor->document(), &QTextDocument::contentsChanged, this, [this] {
        if (std::exchange(m_refusalShown, false))
            showMessage(QString(), false);
    });
    connect(m_cluster, &QComboBox::currentTextChanged, this, &JobEditorDialog::schedulePreview);
    connect(m_maxRuns, &QSpinBox::valueChanged, this, &JobEditorDialog::schedulePreview);
    connect(m_maxRuns, &QSpinBox::valueChanged, this, &JobEditorDialog::updateMaxRunsNote);

    m_diagnostics->setDiagnostics(m_editor->diagnostics(), m_editor->diagnosticLines());
    updatePreviewNow();
    loadFromService();
    (m_job ? m_editor : static_cast<QWidget*>(m_name))->setFocus();
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
    ValidationContext context = m_editor->validationContext();
    context.settings = settings;
    m_editor->setValidationContext(context);
    m_editor->setProjectSettingsKnown(true);
    updateMaxRunsRange();
    updatePreviewNow();
}

void JobEditorDialog::setClusters(const QStringList& clusters) {
    const QString current = m_cluster->currentText();
    const QSignalBlocker block(m_cluster);
    m_cluster->clear();
    m_cluster->addItems(clusters);
    if (!current.isEmpty())
        m_cluster->setCurrentText(current);
    else if (!clusters.isEmpty())
        m_cluster->setCurrentIndex(0);
    if (!m_job)
        m_initial.cluster = m_cluster->currentText().toStdString(); // choosing the first is not an edit
    updatePreviewNow();
}

void JobEditorDialog::setCopyOf(const SparkJob& copy) {
    if (m_job)
        return;
    m_name->setText(q(copy.name));
    m_type->setCurrentIndex(copy.type == JobType::Python ? 1 : 0);
    m_cluster->setCurrentText(q(copy.cluster));
    m_editor->setParameters(copy.parameters);
    m_copiedMaxRuns = std::max(1, copy.maxConcurrentRuns);
    updateMaxRunsRange();
    m_maxRuns->setValue(m_copiedMaxRuns);
    updatePreviewNow();
}

void JobEditorDialog::updateMaxRunsRange() {
    const int stored = m_job ? m_job->maxConcurrentRuns : m_copiedMaxRuns;
    if (m_settingsState != SettingsState::Loaded) {
        // Not the default settings' limit of 1: unknown while loading, and left to the service if unreadable.
        m_maxRuns->setRange(1, m_settingsState == SettingsState::Failed ? int(kMaxConcurrentRunsCeiling)
                                                                        : std::max(1, stored));
        m_maxRuns->setEnabled(m_settingsState == SettingsState::Failed);
        updateMaxRunsNote();
        return;
    }
    const int limit = maxConcurrentRunsAllowed(m_settings);
    // A stored value above today's limit stays selectable so opening the dialog never changes it silently.
    m_maxRuns->setRange(1, std::max(limit, stored));
    m_maxRuns->setEnabled(m_settings.concurrentRunsEnabled || stored > 1);
    updateMaxRunsNote();
}

void JobEditorDialog::updateMaxRunsNote() {
    if (m_settingsState == SettingsState::Loading) {
        m_maxRunsNote->setText(tr("Checking the project's limit…"));
        return;
    }
    if (m_settingsState == SettingsState::Failed) {
        m_maxRunsNote->setText(tr("The project's limit could not be read: the service checks it on Save."));
        return;
    }
    // A stored value the project no longer allows: the service's own reason, as Save would get it.
    if (const auto problem = maxConcurrentRunsProblem(m_maxRuns->value(), m_settings)) {
        m_maxRunsNote->setText(QString::fromStdString(problem->message));
        return;
    }
    m_maxRunsNote->setText(
        m_settings.concurrentRunsEnabled
            ? tr("Up to %1 (the project's limit); above 1, RUN JOB needs an Idempotency-Key.")
                  .arg(maxConcurrentRunsAllowed(m_settings))
            : tr("Concurrent runs are not enabled for this project: the Job runs one at a time."));
}

JobPreviewPanel::Input JobEditorDialog::currentInput() const {
    JobPreviewPanel::Input in;
    in.name = m_name->text().trimmed().toStdString();
    in.type = JobType(m_type->currentData().toInt());
    in.cluster = m_cluster->currentText().trimmed().toStdString();
    in.maxConcurrentRuns = m_maxRuns->value();
    in.parameters = m_editor->parameters();
    in.settings = m_settings;
    in.settingsKnown = m_settingsState == SettingsState::Loaded;
    in.stored = m_job;
    return in;
}

bool JobEditorDialog::isModified() const {
    if (m_editor->recheckPending())
        const_cast<ParameterEditor*>(m_editor)->recheckNow();
    const JobPreviewPanel::Input now = currentInput();
    return now.name != m_initial.name || now.type != m_initial.type || now.cluster != m_initial.cluster ||
           now.maxConcurrentRuns != m_initial.maxConcurrentRuns || now.parameters != m_initial.parameters;
}

void JobEditorDialog::schedulePreview() {
    m_previewTimer->start();
}

void JobEditorDialog::updatePreviewNow() {
    m_previewTimer->stop();
    m_preview->setInput(currentInput());
    if (m_diff) {
        m_diff->setParameters(m_job->parameters, m_editor->parameters());
        m_tabs->setTabText(m_tabs->indexOf(m_diff), tr("Changes (%1)").arg(m_diff->summary()));
    }
}

QString JobEditorDialog::messageText() const {
    return m_message->text();
}

void JobEditorDialog::showMessage(const QString& text, bool error) {
    m_message->setText(text);
    m_message->setStyleSheet(
        error ? QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette()))
              : QString());
}

void JobEditorDialog::setBusy(bool busy) {
    m_busy = busy;
    m_saveButton->setEnabled(!busy);
}

void JobEditorDialog::save() {
    if (m_busy)
        return;
    m_editor->recheckNow();
    if (const QStringList errors = knownErrors(); !errors.isEmpty()) {
        askBeforeSavingWithErrors(errors);
        return;
    }
    send();
}

QStringList JobEditorDialog::knownErrors() const {
    QStringList errors;
    const auto& found = m_editor->diagnostics();
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (found[i].severity != Severity::Error || hasCode(found[i], DiagnosticCode::ServiceRefusal))
            continue;
        const int line = m_editor->diagnosticLines()[i];
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
    connect(keep, &QPushButton::clicked, m_editor, [this] {
        activateWindow(); // back to editing, with the keyboard
        m_editor->setFocus();
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
        m_name->setFocus();
        return;
    }
    if (input.cluster.empty()) {
        showMessage(tr("Choose the cluster the Job runs on."), true);
        m_cluster->setFocus();
        return;
    }
    const std::optional<Statement> statement = m_preview->statement();
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
                const int line = m_editor->setServiceRefusal(e.message, e.parameterIndex);
                if (line >= 0)
                    m_editor->goToLine(line);
            }
            emit saveFailed(e.message);
            return;
        }
        const QString message = creating ? tr("Job %1 created.").arg(name) : tr("Job %1 altered.").arg(name);
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
