#include "widgets/HudiConfigsExplainer.h"

#include "core/hudi/HudiConfigExplanation.h"
#include "models/JobConfigsModel.h"
#include "models/ThemeColors.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace jobdeck {

HudiConfigsExplainer::HudiConfigsExplainer(QWidget* parent)
    : QWidget(parent)
    , m_model(new JobConfigsModel(this))
    , m_summary(new QLabel(this))
    , m_misplaced(new QLabel(this))
    , m_table(new QTableView(this)) {
    setObjectName(QStringLiteral("hudiConfigsExplainer"));
    m_summary->setObjectName(QStringLiteral("configsSummary"));
    m_summary->setWordWrap(true);
    m_misplaced->setObjectName(QStringLiteral("misplacedNotice"));
    m_misplaced->setWordWrap(true);
    m_misplaced->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %3; padding: 6px; }")
            .arg(ThemeColors::css(ThemeColor::NoteText, palette()),
                 ThemeColors::css(ThemeColor::NoteBackground, palette()),
                 ThemeColors::css(ThemeColor::NoteBorder, palette())));
    m_misplaced->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_misplaced->hide();
    m_table->setObjectName(QStringLiteral("configsTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_misplaced);
    layout->addWidget(m_table, 1);
}

void HudiConfigsExplainer::clear() {
    m_model->clear();
    m_summary->clear();
    m_misplaced->clear();
    m_misplaced->hide();
}

void HudiConfigsExplainer::setJob(const SparkJob& job) {
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
}

QString HudiConfigsExplainer::summaryText() const {
    return m_summary->text();
}
QString HudiConfigsExplainer::misplacedText() const {
    return m_misplaced->text();
}

} // namespace jobdeck
