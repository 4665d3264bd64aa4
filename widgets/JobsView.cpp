#include "widgets/JobsView.h"

#include "models/JobsFilterProxy.h"
#include "models/JobsTableModel.h"
#include "widgets/ColumnFitter.h"
#include "widgets/StatusDotsDelegate.h"
#include "widgets/TableViewSupport.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace jobdeck {

JobsView::JobsView(JobsTableModel* model, JobsFilterProxy* proxy, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(proxy)
    , m_filter(new QLineEdit(this))
    , m_count(new QLabel(this))
    , m_table(new QTableView(this)) {
    setObjectName(QStringLiteral("jobsView"));
    m_filter->setObjectName(QStringLiteral("jobFilter"));
    m_filter->setPlaceholderText(tr("Filter jobs: name, cluster:demo, type:python, -excluded"));
    m_filter->setClearButtonEnabled(true);
    m_count->setObjectName(QStringLiteral("jobCount"));
    m_table->setObjectName(QStringLiteral("jobsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(JobsTableModel::Name, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_table->setItemDelegateForColumn(JobsTableModel::RecentRuns,
                                      new StatusDotsDelegate(JobsTableModel::RawDataRole, m_table));
    m_table->verticalHeader()->hide();
    // Fixed row heights keep scrolling through 100,000 rows cheap.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->resizeSection(JobsTableModel::Name, 220);
    m_table->horizontalHeader()->resizeSection(JobsTableModel::RecentRuns, 140);
    TableViewSupport::install(m_table);
    ColumnFitter::of(m_table)->keepWideEnough(JobsTableModel::Name);

    auto* top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(m_count);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    m_filter->installEventFilter(this);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &JobsFilterProxy::setFilterText);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &JobsView::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &JobsView::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &JobsView::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &JobsView::updateCount);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QModelIndex source = m_proxy->mapToSource(index);
        if (source.isValid())
            emit jobActivated(QString::fromUtf8(m_model->name(source.row())));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        m_current = currentJobName();
        emit currentJobChanged();
    });
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &JobsView::checkCurrentJob);
    updateCount();
}

void JobsView::setContextActions(const QList<QAction*>& actions) {
    m_table->addActions(actions);
}

std::optional<std::string> JobsView::currentJobName() const {
    const QModelIndex source = m_proxy->mapToSource(m_table->currentIndex());
    if (!source.isValid())
        return std::nullopt;
    return std::string(m_model->name(source.row()));
}

bool JobsView::selectJob(const std::string& name) {
    const int row = m_model->rowOf(name);
    if (row < 0)
        return false;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(row, JobsTableModel::Name));
    if (!proxyIndex.isValid())
        return false;
    m_table->setCurrentIndex(proxyIndex);
    m_table->selectRow(proxyIndex.row());
    m_table->scrollTo(proxyIndex);
    return true;
}

bool JobsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Down || key == Qt::Key_PageDown) && m_proxy->rowCount() > 0) {
            if (!m_table->currentIndex().isValid()) {
                m_table->setCurrentIndex(m_proxy->index(0, JobsTableModel::Name));
                m_table->selectRow(0);
            }
            m_table->setFocus(Qt::TabFocusReason);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void JobsView::checkCurrentJob() {
    const auto now = currentJobName();
    if (now == m_current)
        return;
    m_current = now;
    if (!now)
        m_table->clearSelection(); // no row looks selected while no job is current
    emit currentJobChanged();
}

void JobsView::focusFilter() {
    m_filter->setFocus();
    m_filter->selectAll();
}

void JobsView::setLoading(bool loading) {
    m_loading = loading;
    updateCount();
}

void JobsView::updateCount() {
    const int shown = m_proxy->rowCount();
    const int total = m_model->rowCount();
    // Words, not "%n job(s)": no translation supplies the English plural.
    const QString jobs = total == 1 ? tr("1 job") : tr("%1 jobs").arg(total);
    const QString count = shown == total ? jobs : tr("%1 of %2").arg(shown).arg(jobs);
    m_count->setText(m_loading ? tr("%1 so far, loading…").arg(count) : count);
}

QString JobsView::countText() const {
    return m_count->text();
}

} // namespace jobdeck
