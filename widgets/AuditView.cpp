#include "widgets/AuditView.h"

#include "client/ApiClient.h"
#include "models/AuditLogModel.h"
#include "widgets/AdminViewSupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace jobdeck {

namespace {

using json = nlohmann::json;

// The service keeps the newest entries; asking for its ceiling shows as much history as it answers with.
constexpr std::int64_t kAuditRows = 1000;

TimePoint toTimePoint(const QDateTime& t) {
    return TimePoint(std::chrono::milliseconds(t.toMSecsSinceEpoch()));
}

} // namespace

AuditView::AuditView(ApiClient* client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_model(new AuditLogModel(this))
    , m_proxy(new AuditFilterProxy(this))
    , m_table(new QTableView(this))
    , m_text(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_outcome(new QComboBox(this))
    , m_useRange(new QCheckBox(tr("Between"), this))
    , m_showReads(new QCheckBox(tr("Show &reads"), this))
    , m_from(new QDateTimeEdit(this))
    , m_to(new QDateTimeEdit(this))
    , m_count(makeNote(QStringLiteral("auditCount"), this))
    , m_error(makeNote(QStringLiteral("auditError"), this, true))
    , m_busy(makeBusyBar(QStringLiteral("auditLoading"), this)) {
    setObjectName(QStringLiteral("auditView"));
    m_proxy->setSourceModel(m_model);
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    fitAuditColumns(m_table);
    installCopyRows(m_table);

    m_text->setObjectName(QStringLiteral("auditTextFilter"));
    m_text->setPlaceholderText(tr("Filter: statement, key, role, target, error…"));
    m_text->setClearButtonEnabled(true);
    m_kind->setObjectName(QStringLiteral("auditKindFilter"));
    m_kind->addItem(tr("Every kind"));
    m_outcome->setObjectName(QStringLiteral("auditOutcomeFilter"));
    m_outcome->addItem(tr("Every outcome"));
    for (const auto s :
         {ApiOperationStatus::Success, ApiOperationStatus::Failed, ApiOperationStatus::Invalid})
        m_outcome->addItem(auditOutcomeText(s), static_cast<int>(s));
    m_useRange->setObjectName(QStringLiteral("auditTimeRange"));
    m_showReads->setObjectName(QStringLiteral("auditShowReads"));
    m_showReads->setToolTip(tr("Also list DESCRIBE and SHOW statements, which change nothing"));
    for (QDateTimeEdit* edit : {m_from, m_to}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
        edit->setEnabled(false);
    }
    m_from->setObjectName(QStringLiteral("auditFrom"));
    m_to->setObjectName(QStringLiteral("auditTo"));
    m_from->setDateTime(QDateTime::currentDateTime().addDays(-1));
    m_to->setDateTime(QDateTime::currentDateTime().addDays(1));
    m_error->hide();

    // Two rows, so that the view fits a dock of half a 1280-pixel window beside the jobs.
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_text, 2);
    filters->addWidget(m_kind);
    filters->addWidget(m_outcome);
    filters->addWidget(m_showReads);
    auto* period = new QHBoxLayout;
    period->addWidget(m_useRange);
    period->addWidget(m_from);
    period->addWidget(new QLabel(tr("and"), this));
    period->addWidget(m_to);
    period->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_busy);
    layout->addWidget(m_error);
    layout->addLayout(filters);
    layout->addLayout(period);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_count);

    connect(m_text, &QLineEdit::textChanged, this, &AuditView::applyFilter);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &AuditView::applyFilter);
    connect(m_outcome, &QComboBox::currentIndexChanged, this, &AuditView::applyFilter);
    connect(m_useRange, &QCheckBox::toggled, this, [this](bool on) {
        m_from->setEnabled(on);
        m_to->setEnabled(on);
        applyFilter();
    });
    connect(m_showReads, &QCheckBox::toggled, this, &AuditView::applyFilter);
    connect(m_from, &QDateTimeEdit::dateTimeChanged, this, &AuditView::applyFilter);
    connect(m_to, &QDateTimeEdit::dateTimeChanged, this, &AuditView::applyFilter);
    m_eventsTimer.setSingleShot(true);
    m_eventsTimer.setInterval(std::chrono::milliseconds(300));
    connect(&m_eventsTimer, &QTimer::timeout, this, &AuditView::reload);
}

void AuditView::onEvents(const QList<ProjectEvent>& events) {
    if (!events.isEmpty() && isVisible() && !m_refused)
        m_eventsTimer.start();
}

void AuditView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    m_refused = false; // the connection may have changed since
    reload();
}

void AuditView::forget() {
    ++m_generation;
    m_loading = false;
    m_reloadAgain = false;
    m_refused = false;
    m_eventsTimer.stop();
    m_busy->hide();
    m_error->hide();
    m_model->clear();
    const QSignalBlocker block(m_kind);
    m_kind->clear();
    m_kind->addItem(tr("Every kind"));
    applyFilter();
}

void AuditView::reload() {
    if (!m_client->connection().isValid())
        return; // nothing to ask yet: AdminViews reloads the open views once the console is connected
    if (m_loading) {
        m_reloadAgain = true; // what the running request may have missed
        return;
    }
    m_loading = true;
    m_busy->setVisible(m_model->rowCount() == 0); // the first load; later ones only add rows
    ShowAuditLogStatement show;
    show.limit = kAuditRows;
    m_client->execute(show)->then(this, [this, generation = m_generation](const ApiReply<json>& r) {
        if (generation != m_generation)
            return;
        m_loading = false;
        m_busy->hide();
        if (std::exchange(m_reloadAgain, false))
            m_eventsTimer.start();
        if (r.isError()) {
            // Not an admin key, or the service is away: its message, and no rows.
            m_error->setText(tr("The audit log cannot be shown: %1").arg(r.error().message));
            m_error->show();
            m_refused = r.error().kind == ApiError::Kind::Failed; // until shown again
            emit loaded();
            return;
        }
        m_error->hide();
        try {
            const QString kind = m_kind->currentIndex() > 0 ? m_kind->currentText() : QString();
            m_model->merge(
                r.value().at("showAuditLogApiResponse").at("auditEntries").get<std::vector<AuditEntry>>());
            const QSignalBlocker block(m_kind);
            m_kind->clear();
            m_kind->addItem(tr("Every kind"));
            m_kind->addItems(m_model->kinds());
            m_kind->setCurrentIndex(std::max(0, m_kind->findText(kind)));
        } catch (const std::exception& e) {
            m_error->setText(tr("The audit log cannot be read: %1").arg(QString::fromUtf8(e.what())));
            m_error->show();
        }
        applyFilter();
        emit loaded();
    });
}

void AuditView::applyFilter() {
    AuditFilter filter;
    filter.text = m_text->text().toStdString();
    filter.includeReads = m_showReads->isChecked();
    if (m_kind->currentIndex() > 0)
        filter.kind = m_kind->currentText().toStdString();
    if (m_outcome->currentIndex() > 0)
        filter.outcome = static_cast<ApiOperationStatus>(m_outcome->currentData().toInt());
    if (m_useRange->isChecked()) {
        filter.from = toTimePoint(m_from->dateTime());
        filter.to = toTimePoint(m_to->dateTime());
    }
    m_proxy->setFilter(std::move(filter));
    m_count->setText(tr("%1 of %2 entries").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}

} // namespace jobdeck
