#include "widgets/ProjectView.h"

#include "client/ApiClient.h"
#include "core/policy/ConcurrentRuns.h"
#include "core/statements/StatementPrinter.h"
#include "models/AllowlistModel.h"
#include "models/AuditLogModel.h"
#include "models/JsonTreeModel.h"
#include "models/QtStrings.h"
#include "widgets/AdminViewSupport.h"
#include "widgets/TableViewSupport.h"

#include "ui_ProjectSettingsTab.h"

#include <QCheckBox>
#include <QCompleter>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStringListModel>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace jobdeck {

namespace {

using json = nlohmann::json;

QTableView* makeTable(QAbstractItemModel* model, const QString& objectName, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(objectName);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    installCopyRows(view);
    return view;
}

// Completion from the Hudi catalogue: keys and families, matched anywhere in the name.
QCompleter* allowlistCompleter(QLineEdit* edit) {
    QStringList candidates;
    for (const std::string& c : allowlistEntryCandidates())
        candidates << QString::fromStdString(c);
    auto* completer = new QCompleter(new QStringListModel(candidates, edit), edit);
    completer->setObjectName(QStringLiteral("allowlistCompleter"));
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    return completer;
}

// The detail (a count, a status change) stays in view; a long statement is elided, whole in its tooltip.
void fitEffectColumns(QTreeWidget* effect) {
    effect->header()->setStretchLastSection(false);
    effect->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    effect->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    effect->setTextElideMode(Qt::ElideMiddle);
}

void showAllowlist(QTableView* view, QAbstractItemModel* model) {
    view->setModel(model);
    TableViewSupport::keepRowsVisible(view, 5);
    installCopyRows(view);
}

// In a dock shared with others a page scrolls rather than squeezing its tables to their headers.
QScrollArea* inScrollArea(QWidget* page, QWidget* parent) {
    auto* scroll = new QScrollArea(parent);
    scroll->setObjectName(page->objectName() + QStringLiteral("Scroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(page);
    return scroll;
}

} // namespace

ProjectView::ProjectView(ApiClient* client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_tabs(new QTabWidget(this))
    , m_busy(makeBusyBar(QStringLiteral("projectLoading"), this))
    , m_roleNote(makeNote(QStringLiteral("projectRoleNote"), this))
    , m_loadError(makeNote(QStringLiteral("projectLoadError"), this, true))
    , m_allowlist(new AllowlistModel(this))
    , m_settingsUi(std::make_unique<Ui::ProjectSettingsTab>())
    , m_audit(new AuditLogModel(this))
    , m_json(new JsonTreeModel(this))
    , m_jsonView(new QTreeView(this)) {
    setObjectName(QStringLiteral("projectView"));
    m_tabs->setObjectName(QStringLiteral("projectTabs"));
    m_roleNote->hide();
    m_loadError->hide();
    auto* settingsPage = new QWidget(m_tabs);
    buildSettingsTab(settingsPage);
    m_tabs->addTab(inScrollArea(settingsPage, m_tabs), tr("Settings"));
    m_tabs->addTab(buildAuditTab(), tr("Recent audit"));
    m_jsonView->setObjectName(QStringLiteral("projectJsonTree"));
    m_jsonView->setModel(m_json);
    m_tabs->addTab(m_jsonView, tr("DESCRIBE PROJECT"));
    auto* layout = new QVBoxLayout(this);
    for (QWidget* w : std::initializer_list<QWidget*>{m_busy, m_loadError, m_roleNote})
        layout->addWidget(w);
    layout->addWidget(m_tabs, 1);
    updateEditability();
}

ProjectView::~ProjectView() = default;

QWidget* ProjectView::buildAuditTab() {
    auto* page = new QWidget(m_tabs);
    auto* layout = new QVBoxLayout(page);
    m_auditNote = makeNote(QStringLiteral("projectAuditNote"), page);
    m_auditView = makeTable(m_audit, QStringLiteral("projectAuditView"), page);
    fitAuditColumns(m_auditView);
    layout->addWidget(m_auditNote);
    layout->addWidget(m_auditView, 1);
    return page;
}

void ProjectView::buildSettingsTab(QWidget* page) {
    m_settingsUi->setupUi(page); // widgets/ProjectSettingsTab.ui
    const Ui::ProjectSettingsTab& ui = *m_settingsUi;
    m_hudiSwitch = ui.hudiConfigsSwitch;
    m_concurrentSwitch = ui.concurrentRunsSwitch;
    m_limit = ui.maxConcurrentRunsLimit;
    m_limitNote = ui.limitNote;
    m_limitError = ui.limitError;
    m_allowlistView = ui.allowlistView;
    m_entryEdit = ui.allowlistEntryEdit;
    m_addButton = ui.addAllowlistEntryButton;
    m_removeButton = ui.removeAllowlistEntryButton;
    m_entryError = ui.allowlistEntryError;
    m_entryNote = ui.allowlistEntryNote;
    m_effectView = ui.settingsEffect;
    m_saveButton = ui.saveProjectButton;
    m_revertButton = ui.revertProjectButton;
    m_saveError = ui.projectSaveError;
    m_limit->setMaximum(int(kMaxConcurrentRunsCeiling));
    m_limitNote->setText(tr("Between 1 and %1. Jobs keep their own MAX_CONCURRENT_RUNS; a lower limit caps "
                            "what the project admits.")
                             .arg(kMaxConcurrentRunsCeiling));
    for (QLabel* label : {m_limitError, m_entryError, m_entryNote, m_saveError})
        label->hide();
    showAllowlist(m_allowlistView, m_allowlist);
    m_entryEdit->setCompleter(allowlistCompleter(m_entryEdit));
    fitEffectColumns(m_effectView);
    connectSettingsTab();
}

void ProjectView::connectSettingsTab() {
    connect(m_hudiSwitch, &QCheckBox::toggled, this, &ProjectView::updateEffect);
    connect(m_concurrentSwitch, &QCheckBox::toggled, this, [this] {
        m_limit->setEnabled(isEditable() && m_concurrentSwitch->isChecked());
        updateEffect();
    });
    connect(m_limit, &QSpinBox::valueChanged, this, &ProjectView::updateEffect);
    connect(m_addButton, &QPushButton::clicked, this, &ProjectView::addTypedEntry);
    connect(m_entryEdit, &QLineEdit::returnPressed, this, &ProjectView::addTypedEntry);
    connect(m_entryEdit, &QLineEdit::textEdited, m_entryError, &QWidget::hide);
    connect(m_entryEdit, &QLineEdit::textEdited, this, &ProjectView::hideEntryNote);
    connect(m_settingsUi->allowlistReplaceButton, &QPushButton::clicked, this,
            &ProjectView::replaceAddedEntry);
    connect(m_removeButton, &QPushButton::clicked, this, [this] {
        QList<int> rows;
        for (const QModelIndex& index : m_allowlistView->selectionModel()->selectedRows())
            rows << index.row();
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (const int row : rows)
            m_allowlist->removeEntry(row);
        updateEffect();
    });
    connect(m_saveButton, &QPushButton::clicked, this, &ProjectView::save);
    connect(m_revertButton, &QPushButton::clicked, this, &ProjectView::revert);
}

bool ProjectView::isEditable() const {
    if (!m_project || m_saving)
        return false;
    return !roleRefusal(QString::fromStdString(m_project->callerRole), AlterProjectStatement{});
}

void ProjectView::updateEditability() {
    const bool editable = isEditable();
    for (QWidget* w : std::initializer_list<QWidget*>{m_hudiSwitch, m_concurrentSwitch, m_entryEdit,
                                                      m_addButton, m_removeButton})
        w->setEnabled(editable);
    m_limit->setEnabled(editable && m_concurrentSwitch->isChecked());
    const bool changed = m_project && !alterProjectStatements(m_project->settings, editedSettings()).empty();
    m_saveButton->setEnabled(editable && changed);
    m_revertButton->setEnabled(editable && changed);
    const auto refusal =
        m_project ? roleRefusal(QString::fromStdString(m_project->callerRole), AlterProjectStatement{})
                  : std::nullopt;
    m_roleNote->setVisible(refusal.has_value());
    if (refusal)
        m_roleNote->setText(
            tr("Read-only for your key's role (%1): %2. Only an admin key changes the project's "
               "settings and allow-list.")
                .arg(QString::fromStdString(m_project->callerRole), *refusal));
}

void ProjectView::setLoading(bool loading) {
    m_loading = loading;
    m_busy->setVisible(loading || m_saving);
}

void ProjectView::forget() {
    ++m_generation; // answers still on their way are about the project forgotten
    m_project.reset();
    m_jobs.clear();
    m_refusedEntry.reset();
    m_saving = false;
    setLoading(false);
    m_loadError->hide();
    m_saveError->hide();
    hideEntryNote();
    m_json->setJson(json());
    m_allowlist->setStored({});
    m_audit->clear();
    updateEffect();
}

void ProjectView::reload() {
    if (!m_client->connection().isValid())
        return; // nothing to ask yet: AdminViews reloads the open views once the console is connected
    const int generation = ++m_generation;
    setLoading(true);
    m_client->execute(DescribeProjectStatement{})->then(this, [this, generation](const ApiReply<json>& r) {
        if (generation != m_generation)
            return; // a newer reload answers
        if (r.isError()) {
            setLoading(false);
            m_loadError->setText(tr("Could not read the project: %1").arg(r.error().message));
            m_loadError->show();
            return;
        }
        m_loadError->hide();
        showProject(r.value());
        loadJobs();
    });
}

void ProjectView::showProject(const json& apiResponse) {
    m_json->setJson(apiResponse);
    m_jsonView->expandToDepth(2);
    Project project;
    try {
        project = apiResponse.at("describeProjectApiResponse").at("project").get<Project>();
    } catch (const std::exception& e) {
        m_loadError->setText(tr("Could not read the project: %1").arg(QString::fromUtf8(e.what())));
        m_loadError->show();
        return;
    }
    // Edits not saved yet survive a re-read (another admin's change, or ours after a refusal).
    const std::optional<ProjectSettings> pending =
        m_project && !alterProjectStatements(m_project->settings, editedSettings()).empty()
            ? std::optional(editedSettings())
            : std::nullopt;
    m_project = std::move(project);
    const ProjectSettings& stored = m_project->settings; // after the move: `project` is empty now
    const ProjectSettings& shown = pending ? *pending : stored;
    const QSignalBlocker b1(m_hudiSwitch), b2(m_concurrentSwitch), b3(m_limit);
    m_hudiSwitch->setChecked(shown.hudiConfigsEnabled);
    m_concurrentSwitch->setChecked(shown.concurrentRunsEnabled);
    m_limit->setValue(shown.maxConcurrentRunsLimit);
    m_allowlist->setStored(stored.hudiConfigAllowlist);
    if (pending) {
        for (const std::string& e : stored.hudiConfigAllowlist)
            if (std::find(shown.hudiConfigAllowlist.begin(), shown.hudiConfigAllowlist.end(), e) ==
                shown.hudiConfigAllowlist.end())
                m_allowlist->removeEntry(m_allowlist->rowOf(e));
        for (const std::string& e : shown.hudiConfigAllowlist)
            if (m_allowlist->rowOf(e) < 0)
                m_allowlist->addEntry(QString::fromStdString(e));
    }
    if (m_refusedEntry)
        m_allowlist->setProblem(m_refusedEntry->first, m_refusedEntry->second);
    m_allowlistView->resizeColumnsToContents();
    if (m_project->recentAudit) {
        m_audit->merge(*m_project->recentAudit);
        m_auditNote->setText(tr("The newest statements of the project, secrets masked as the service masks "
                                "them. The Audit view (View menu) has the whole log with filters."));
    } else {
        m_audit->clear();
        m_auditNote->setText(
            tr("The audit log is shown to admin keys only: %1.")
                .arg(roleRefusal(QString::fromStdString(m_project->callerRole), ShowAuditLogStatement{})
                         .value_or(tr("your key's role may not read it"))));
    }
    updateEditability();
}

void ProjectView::loadJobs() {
    const int generation = m_generation;
    m_client->execute(ShowJobsStatement{})->then(this, [this, generation](const ApiReply<json>& r) {
        if (generation != m_generation)
            return;
        setLoading(false);
        m_jobs.clear();
        if (!r.isError()) {
            try {
                m_jobs = r.value().at("showJobsApiResponse").at("sparkJobs").get<std::vector<SparkJob>>();
            } catch (const std::exception&) {
                m_jobs.clear(); // the effect then lists nothing; Save is unaffected
            }
        }
        updateEffect();
        emit loaded();
    });
}

ProjectSettings ProjectView::editedSettings() const {
    ProjectSettings s = m_project ? m_project->settings : ProjectSettings{};
    s.hudiConfigsEnabled = m_hudiSwitch->isChecked();
    s.concurrentRunsEnabled = m_concurrentSwitch->isChecked();
    s.maxConcurrentRunsLimit = m_limit->value();
    s.hudiConfigAllowlist = m_allowlist->edited();
    return s;
}

bool ProjectView::addTypedEntry() {
    if (!isEditable())
        return false;
    hideEntryNote();
    if (const auto problem = m_allowlist->addEntry(m_entryEdit->text())) {
        m_entryError->setText(*problem);
        m_entryError->show();
        return false; // what was typed stays, to be corrected
    }
    m_entryError->hide();
    const std::string added = m_entryEdit->text().trimmed().toStdString();
    showEntryNote(added);
    m_entryEdit->clear();
    showAddedEntry(added);
    return true;
}

// Added as typed (the service would store it), with what it grants less than it seems to and, where core
// has one, the entry more likely meant, one click away.
void ProjectView::showEntryNote(const std::string& added) {
    const QString note = m_allowlist->noteOf(added);
    if (note.isEmpty())
        return;
    m_entryNote->setText(tr("Added. %1").arg(note));
    m_entryNote->show();
    m_noteOn = added;
    const auto replacement = m_allowlist->replacementOf(added);
    QPushButton* replace = m_settingsUi->allowlistReplaceButton;
    replace->setText(replacement ? tr("&Use %1").arg(QString::fromStdString(*replacement)) : QString());
    replace->setVisible(replacement.has_value());
}

void ProjectView::hideEntryNote() {
    m_entryNote->hide();
    m_settingsUi->allowlistReplaceButton->hide();
    m_noteOn.clear();
}

void ProjectView::replaceAddedEntry() {
    const auto replacement = m_allowlist->replacementOf(m_noteOn);
    if (!isEditable() || !replacement)
        return;
    if (const auto problem = m_allowlist->replaceAddedEntry(m_noteOn)) {
        m_entryError->setText(*problem);
        m_entryError->show();
        return;
    }
    hideEntryNote();
    showEntryNote(*replacement); // the key meant may have a note of its own (one the platform sets)
    showAddedEntry(*replacement);
}

void ProjectView::showAddedEntry(const std::string& entry) {
    m_allowlistView->resizeColumnsToContents();
    m_allowlistView->doItemsLayout(); // the scroll range includes the new row before it is scrolled to
    m_allowlistView->scrollTo(m_allowlist->index(m_allowlist->rowOf(entry), AllowlistModel::Entry));
    updateEffect();
}

void ProjectView::updateEffect() {
    m_effectView->clear();
    updateEditability();
    if (!m_project)
        return;
    const ProjectSettings edited = editedSettings();
    const auto statements = alterProjectStatements(m_project->settings, edited);
    m_effect = effectOnJobs(m_jobs, m_project->settings, edited);
    if (statements.empty())
        return;
    auto* sent =
        new QTreeWidgetItem(m_effectView, {tr("Statements Save sends"), QString::number(statements.size())});
    for (const auto& s : statements) {
        auto* item = new QTreeWidgetItem(sent, {q(printStatement(Statement{s})), QString()});
        item->setToolTip(0, item->text(0));
    }
    auto* configs = new QTreeWidgetItem(
        m_effectView, {tr("Job configurations that change"), QString::number(m_effect.hudiConfigs.size())});
    for (const auto& c : m_effect.hudiConfigs) {
        auto* item = new QTreeWidgetItem(configs, {q(c.job) + QStringLiteral(" / ") + q(c.key),
                                                   q(hudiConfigStatusName(c.before)) + QStringLiteral(" → ") +
                                                       q(hudiConfigStatusName(c.after))});
        item->setToolTip(0, item->text(0));
    }
    auto* limits = new QTreeWidgetItem(m_effectView, {tr("Jobs above the concurrent runs limit"),
                                                      QString::number(m_effect.concurrentRuns.size())});
    for (const auto& e : m_effect.concurrentRuns) {
        auto* item = new QTreeWidgetItem(limits, {q(e.job), q(e.message)});
        item->setToolTip(1, q(e.message));
    }
    m_effectView->expandAll();
}

void ProjectView::revert() {
    if (!m_project)
        return;
    const Project stored = *m_project;
    m_refusedEntry.reset();
    m_project.reset(); // nothing pending: showProject takes the stored settings
    showProject(json{{"describeProjectApiResponse", {{"project", stored}}}});
    m_saveError->hide();
    m_limitError->hide();
    hideEntryNote();
    updateEffect();
}

void ProjectView::save() {
    if (!isEditable())
        return;
    auto statements = alterProjectStatements(m_project->settings, editedSettings());
    if (statements.empty())
        return;
    m_saveError->hide();
    m_limitError->hide();
    hideEntryNote(); // about an entry not sent yet; once sent, its replacement is no longer one click
    m_refusedEntry.reset();
    m_saving = true;
    setLoading(m_loading);
    updateEditability();
    sendNext(std::move(statements));
}

void ProjectView::sendNext(std::vector<AlterProjectStatement> remaining) {
    if (remaining.empty()) {
        m_saving = false;
        reload();
        emit saveFinished(true);
        return;
    }
    const AlterProjectStatement statement = remaining.front();
    remaining.erase(remaining.begin());
    m_client->alterProject(statement)->then(this, [this, statement, remaining = std::move(remaining),
                                                   generation = m_generation](const ApiReply<json>& r) {
        if (generation != m_generation)
            return; // the view forgot that project (another connection)
        if (!r.isError()) {
            // Applied: what is stored now includes it, so a later refusal leaves only the rest pending.
            if (r.value().contains("alterProjectApiResponse"))
                m_project->settings = r.value()["alterProjectApiResponse"]
                                          .value("settings", json(m_project->settings))
                                          .get<ProjectSettings>();
            sendNext(remaining); // the reply calls this const: the rest is copied
            return;
        }
        m_saving = false;
        setLoading(m_loading);
        showRefusal(statement, r.error().message);
        updateEffect();
        emit saveFinished(false);
    });
}

void ProjectView::showRefusal(const AlterProjectStatement& statement, const QString& message) {
    if (!statement.allowlistEntries.empty()) {
        m_refusedEntry = {statement.allowlistEntries.front(), message};
        m_allowlist->setProblem(statement.allowlistEntries.front(), message);
    } else if (statement.maxConcurrentRunsLimit || statement.concurrentRuns) {
        m_limitError->setText(message);
        m_limitError->show();
    }
    m_saveError->setText(tr("Not saved: %1").arg(message));
    m_saveError->show();
}

void ProjectView::onEvents(const QList<ProjectEvent>& events) {
    for (const ProjectEvent& e : events)
        if (e.type == event_type::kProjectAltered || e.type == event_type::kJobCreated ||
            e.type == event_type::kJobAltered || e.type == event_type::kJobDeleted) {
            if (!m_saving)
                reload();
            return;
        }
}

} // namespace jobdeck
