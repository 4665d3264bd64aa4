#include "widgets/HudiConfigsExplainer.h"

#include "core/hudi/HudiConfigExplanation.h"
#include "core/hudi/HudiConfigRemedy.h"
#include "models/JobConfigsModel.h"
#include "models/ThemeColors.h"
#include "widgets/FullTextLabel.h"
#include "widgets/TableViewSupport.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace jobdeck {

HudiConfigsExplainer::HudiConfigsExplainer(QWidget* parent)
    : QWidget(parent)
    , m_model(new JobConfigsModel(this))
    , m_summary(new QLabel(this))
    , m_misplaced(new FullTextLabel(this))
    , m_table(new QTableView(this))
    , m_reason(new FullTextLabel(this))
    , m_copyStatement(new QPushButton(tr("Copy statement"), this)) {
    setObjectName(QStringLiteral("hudiConfigsExplainer"));
    m_summary->setObjectName(QStringLiteral("configsSummary"));
    m_summary->setWordWrap(true);
    m_misplaced->setObjectName(QStringLiteral("misplacedNotice"));
    m_misplaced->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %3; padding: 6px; }")
            .arg(ThemeColors::css(ThemeColor::NoteText, palette()),
                 ThemeColors::css(ThemeColor::NoteBackground, palette()),
                 ThemeColors::css(ThemeColor::NoteBorder, palette())));
    m_misplaced->hide();
    m_table->setObjectName(QStringLiteral("configsTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    TableViewSupport::keepRowsVisible(m_table, 2); // when a dock beside it grows
    m_reason->setObjectName(QStringLiteral("configReason"));
    m_copyStatement->setObjectName(QStringLiteral("copyStatementButton"));
    m_copyStatement->hide();
    connect(m_copyStatement, &QPushButton::clicked, this, &HudiConfigsExplainer::copyStatements);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &HudiConfigsExplainer::showSelectedReason);

    auto* reasonRow = new QHBoxLayout;
    reasonRow->addWidget(m_reason, 1);
    reasonRow->addWidget(m_copyStatement, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_misplaced);
    layout->addWidget(m_table, 1);
    layout->addLayout(reasonRow);
}

void HudiConfigsExplainer::clear() {
    m_model->clear();
    m_summary->clear();
    m_misplaced->clear();
    m_misplaced->hide();
    showSelectedReason();
}

void HudiConfigsExplainer::setJob(const SparkJob& job) {
    const QModelIndex current = m_table->currentIndex();
    const QString selectedKey =
        current.isValid() ? m_model->index(current.row(), JobConfigsModel::Key).data().toString() : QString();
    m_model->setJob(job);
    int applied = 0;
    for (const auto& [key, status] : job.hudiConfigsStatus)
        if (status == HudiConfigStatus::Applied && job.hudiConfigs.count(key))
            ++applied;
    const int total = static_cast<int>(job.hudiConfigs.size());
    QString summary =
        total == 0 ? tr("No --hudi-conf configurations are set on this job.")
                   : tr("%1 of %2 --hudi-conf configuration(s) are applied to runs.").arg(applied).arg(total);
    if (!job.sparkConfigs.empty())
        summary += QLatin1Char(' ') +
                   tr("%1 Spark configuration(s) are passed to spark-submit.").arg(job.sparkConfigs.size());
    m_summary->setText(summary);
    if (job.misplacedHudiConfigs.empty()) {
        m_misplaced->clear();
        m_misplaced->hide();
    } else {
        QStringList lines{tr("Passed to your application, not applied:")};
        for (const std::string& pair : job.misplacedHudiConfigs)
            lines << QString::fromStdString(misplacedHudiConfigMessage(pair.substr(0, pair.find('='))));
        m_misplaced->setText(lines.join(QStringLiteral("\n")));
        m_misplaced->show();
    }
    m_table->resizeColumnsToContents();
    selectKey(selectedKey);
}

void HudiConfigsExplainer::selectKey(const QString& key) {
    int row = -1;
    for (int r = 0; r < m_model->rowCount() && row < 0; ++r)
        if (!key.isEmpty() && m_model->index(r, JobConfigsModel::Key).data().toString() == key)
            row = r;
    const int appliedStatus = static_cast<int>(HudiConfigStatus::Applied);
    for (int r = 0; r < m_model->rowCount() && row < 0; ++r) {
        const QModelIndex status = m_model->index(r, JobConfigsModel::Status);
        const bool hudi =
            m_model->index(r, JobConfigsModel::Source).data(JobConfigsModel::RawDataRole).toInt() !=
            static_cast<int>(JobConfigsModel::RowKind::Spark);
        if (hudi && status.data(JobConfigsModel::RawDataRole).toInt() != appliedStatus)
            row = r;
    }
    if (row < 0 && m_model->rowCount() > 0)
        row = 0;
    // The row's first cell: the view scrolls to the current cell, and a key wider than a narrow pane
    // would scroll "Set with" out of view.
    if (row >= 0)
        m_table->selectionModel()->setCurrentIndex(m_model->index(row, JobConfigsModel::Source),
                                                   QItemSelectionModel::ClearAndSelect |
                                                       QItemSelectionModel::Rows);
    showSelectedReason();
}

void HudiConfigsExplainer::showSelectedReason() {
    const QModelIndex current = m_table->currentIndex();
    const QString reason = current.isValid()
                               ? m_model->index(current.row(), JobConfigsModel::Explanation).data().toString()
                               : QString();
    m_reason->setText(reason);
    m_reason->setVisible(!reason.isEmpty());
    m_statements.clear();
    for (const std::string& statement : alterProjectRemedyIn(reason.toStdString()))
        m_statements << QString::fromStdString(statement);
    m_copyStatement->setVisible(!m_statements.isEmpty());
    m_copyStatement->setToolTip(m_statements.join(QStringLiteral(";\n")));
}

void HudiConfigsExplainer::copyStatements() const {
    if (QClipboard* clipboard = QGuiApplication::clipboard(); clipboard && !m_statements.isEmpty())
        clipboard->setText(m_statements.join(QStringLiteral(";\n")) + QLatin1Char(';'));
}

QString HudiConfigsExplainer::summaryText() const {
    return m_summary->text();
}
QString HudiConfigsExplainer::misplacedText() const {
    return m_misplaced->text();
}
QString HudiConfigsExplainer::reasonText() const {
    return m_reason->text();
}

} // namespace jobdeck
