#pragma once

#include "core/wire/SparkJob.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace jobdeck {

class JobConfigsModel;

// The job's configuration in plain words: each --hudi-conf key with whether runs get it and why,
// the Spark configurations, and the --hudi-conf pairs after the application path (passed to the
// application, not applied) with the fix. Answers "I set it and nothing changed" without raw JSON.
class HudiConfigsExplainer final : public QWidget {
    Q_OBJECT
public:
    explicit HudiConfigsExplainer(QWidget* parent = nullptr);

    void setJob(const SparkJob& job);
    void clear();

    JobConfigsModel* model() const { return m_model; }
    QString summaryText() const;
    QString misplacedText() const;

private:
    JobConfigsModel* m_model;
    QLabel* m_summary;
    QLabel* m_misplaced;
    QTableView* m_table;
};

} // namespace jobdeck
