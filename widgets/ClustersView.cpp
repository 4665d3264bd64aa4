#include "widgets/ClustersView.h"

#include "client/ApiClient.h"
#include "core/policy/ClusterRules.h"
#include "core/wire/Project.h"
#include "core/wire/SparkJob.h"
#include "models/ClustersModel.h"
#include "widgets/AdminViewSupport.h"
#include "widgets/ClusterDialog.h"
#include "widgets/FocusReturn.h"

#include <QAbstractButton>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <chrono>

namespace jobdeck {

namespace {

using json = nlohmann::json;

} // namespace

ClustersView::ClustersView(ApiClient* client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_model(new ClustersModel(this))
    , m_table(new QTableView(this))
    , m_createButton(new QPushButton(tr("&New cluster…"), this))
    , m_alterButton(new QPushButton(tr("&Alter…"), this))
    , m_deleteButton(new QPushButton(tr("&Delete…"), this))
    , m_roleNote(makeNote(QStringLiteral("clustersRoleNote"), this))
    , m_error(makeNote(QStringLiteral("clustersError"), this, true))
    , m_busy(makeBusyBar(QStringLiteral("clustersLoading"), this)) {
    setObjectName(QStringLiteral("clustersView"));
    m_table->setObjectName(QStringLiteral("clustersTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    installCopyRows(m_table);
    m_createButton->setObjectName(QStringLiteral("createClusterButton"));
    m_alterButton->setObjectName(QStringLiteral("alterClusterButton"));
    m_deleteButton->setObjectName(QStringLiteral("deleteClusterButton"));
    m_roleNote->hide();
    m_error->hide();

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_createButton);
    buttons->addWidget(m_alterButton);
    buttons->addWidget(m_deleteButton);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_busy);
    layout->addWidget(m_roleNote);
    layout->addWidget(m_error);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_createButton, &QPushButton::clicked, this, [this] { openCreateDialog(); });
    connect(m_alterButton, &QPushButton::clicked, this, [this] { openAlterDialog(); });
    connect(m_deleteButton, &QPushButton::clicked, this, [this] {
        const QString name = selectedCluster();
        if (name.isEmpty())
            return;
        // A child box (not exec()): the window stays live, and tests find it by name.
        auto* confirm =
            new QMessageBox(QMessageBox::Question, tr("Jobdeck"), tr("Delete the cluster '%1'?").arg(name),
                            QMessageBox::NoButton, this);
        confirm->setObjectName(QStringLiteral("confirmDeleteCluster"));
        QPushButton* remove = confirm->addButton(tr("Delete cluster"), QMessageBox::DestructiveRole);
        remove->setObjectName(QStringLiteral("confirmDeleteClusterButton"));
        QPushButton* keep = confirm->addButton(tr("Keep cluster"), QMessageBox::RejectRole);
        confirm->setDefaultButton(keep);
        confirm->setEscapeButton(keep);
        confirm->setAttribute(Qt::WA_DeleteOnClose);
        connect(remove, &QAbstractButton::clicked, this, [this, name] { deleteCluster(name); });
        openReturningFocus(confirm);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ClustersView::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ClustersView::updateButtons);
    m_runsTimer.setSingleShot(true);
    m_runsTimer.setInterval(std::chrono::milliseconds(200));
    connect(&m_runsTimer, &QTimer::timeout, this, &ClustersView::loadRuns);
    updateButtons();
}

QString ClustersView::selectedCluster() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.front().data(ClustersModel::NameRole).toString();
}

bool ClustersView::selectCluster(const QString& name) {
    const int row = m_model->rowOf(name.toStdString());
    if (row < 0)
        return false;
    m_table->selectRow(row);
    return true;
}

QString ClustersView::errorText() const {
    return m_error->isVisible() ? m_error->text() : QString();
}

void ClustersView::showError(const QString& message) {
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void ClustersView::updateButtons() {
    const auto refusal = roleRefusal(m_role, CreateClusterStatement{});
    m_roleNote->setVisible(refusal.has_value());
    if (refusal)
        m_roleNote->setText(tr("Read-only for your key's role (%1): %2. Operators and admins create, alter "
                               "and delete clusters.")
                                .arg(m_role, *refusal));
    const bool mayChange = !refusal;
    const bool selected = !selectedCluster().isEmpty();
    m_createButton->setEnabled(mayChange);
    m_alterButton->setEnabled(mayChange && selected);
    m_deleteButton->setEnabled(mayChange && selected);
}

void ClustersView::forget() {
    ++m_generation; // answers still on their way are about the clusters forgotten
    m_pending = 0;
    m_busy->hide();
    m_error->hide();
    m_runsTimer.stop();
    m_clusters.clear();
    m_jobClusters.clear();
    m_runs.clear();
    m_role.clear();
    m_model->setState({}, {}, {});
    updateButtons();
}

void ClustersView::reload() {
    if (!m_client->connection().isValid())
        return; // nothing to ask yet: AdminViews reloads the open views once the console is connected
    ++m_generation;
    m_pending = 4;
    m_busy->show();
    requestAll();
}

void ClustersView::requestAll() {
    const int generation = m_generation;
    const auto stale = [this, generation] { return generation != m_generation; };
    m_client->describeProject()->then(this, [this, stale](const ApiReply<Project>& r) {
        if (stale())
            return;
        if (!r.isError())
            m_role = QString::fromStdString(r.value().callerRole);
        finishOne();
    });
    m_client->showClusters()->then(this, [this, stale](const ApiReply<std::vector<Cluster>>& r) {
        if (stale())
            return;
        if (r.isError())
            showError(tr("Could not read the clusters: %1").arg(r.error().message));
        else
            m_clusters = r.value();
        finishOne();
    });
    m_client->execute(ShowJobsStatement{})->then(this, [this, stale](const ApiReply<json>& r) {
        if (stale())
            return;
        if (!r.isError()) {
            m_jobClusters.clear();
            for (const json& job : r.value().at("showJobsApiResponse").at("sparkJobs"))
                m_jobClusters[job.at("name").get<std::string>()] = job.at("cluster").get<std::string>();
        }
        finishOne();
    });
    ShowJobRunsStatement active;
    active.activeOnly = true;
    m_client->showJobRuns(active)->then(this, [this, stale](const ApiReply<std::vector<SparkJobRun>>& r) {
        if (stale())
            return;
        if (!r.isError())
            m_runs = r.value();
        finishOne();
    });
}

void ClustersView::finishOne() {
    if (m_pending > 0 && --m_pending > 0)
        return;
    m_busy->hide();
    const QString selected = selectedCluster();
    m_model->setState(m_clusters, m_jobClusters, m_runs);
    if (!selected.isEmpty())
        selectCluster(selected);
    m_table->resizeColumnsToContents();
    updateButtons();
    emit loaded();
}

void ClustersView::loadRuns() {
    if (m_pending > 0) {
        m_runsTimer.start(); // after the full load
        return;
    }
    const int generation = m_generation;
    m_pending = 1;
    ShowJobRunsStatement active;
    active.activeOnly = true;
    m_client->showJobRuns(active)->then(this,
                                        [this, generation](const ApiReply<std::vector<SparkJobRun>>& r) {
                                            if (generation != m_generation)
                                                return;
                                            if (!r.isError())
                                                m_runs = r.value();
                                            finishOne();
                                        });
}

void ClustersView::onEvents(const QList<ProjectEvent>& events) {
    bool runs = false;
    for (const ProjectEvent& e : events) {
        if (e.type == event_type::kClustersChanged || e.type == event_type::kJobCreated ||
            e.type == event_type::kJobAltered || e.type == event_type::kJobDeleted) {
            reload();
            return;
        }
        runs = runs || e.type == event_type::kRunStatusChanged;
    }
    if (runs)
        m_runsTimer.start();
}

ClusterDialog* ClustersView::openCreateDialog() {
    auto* dialog = new ClusterDialog(m_client, std::nullopt, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ClusterDialog::saved, this, [this](const QString&) { reload(); });
    openReturningFocus(dialog);
    return dialog;
}

ClusterDialog* ClustersView::openAlterDialog() {
    const int row = m_model->rowOf(selectedCluster().toStdString());
    if (row < 0)
        return nullptr;
    auto* dialog = new ClusterDialog(m_client, m_model->cluster(row), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ClusterDialog::saved, this, [this](const QString&) { reload(); });
    openReturningFocus(dialog);
    return dialog;
}

void ClustersView::deleteCluster(const QString& name) {
    const int row = m_model->rowOf(name.toStdString());
    if (row >= 0 && !m_model->jobs(row).empty()) {
        // The service would refuse it with the same words; nothing is sent.
        showError(QString::fromStdString(clusterInUseMessage(name.toStdString(), m_model->jobs(row))));
        emit deleteFinished(false);
        return;
    }
    showError({});
    m_busy->show();
    m_client->deleteCluster(name)->then(this, [this](const ApiReply<json>& r) {
        m_busy->hide();
        if (r.isError()) {
            showError(r.error().message);
            emit deleteFinished(false);
            return;
        }
        reload();
        emit deleteFinished(true);
    });
}

} // namespace jobdeck
