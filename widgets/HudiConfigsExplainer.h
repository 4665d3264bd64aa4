#pragma once

#include "core/wire/SparkJob.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace jobdeck {

class FullTextLabel;
class JobConfigsModel;

// The job's configuration in plain words: each --hudi-conf key with whether runs get it and why,
// the Spark configurations, and the --hudi-conf pairs after the application path (passed to the
// application, not applied) with the fix. Answers "I set it and nothing changed" without raw JSON.
// Below the table the selected configuration's reason is shown whole (selectable, so support staff can
// copy it), with "Copy statement" when it ends with the ALTER PROJECT an admin would run. The banner,
// the table and the reason keep the room they need however a dock beside them is sized.
class HudiConfigsExplainer final : public QWidget {
    Q_OBJECT
public:
    explicit HudiConfigsExplainer(QWidget* parent = nullptr);

    // Keeps the configuration selected before when the job still has it; otherwise selects the first
    // one that is not applied (what a reader comes for), or the first.
    void setJob(const SparkJob& job);
    void clear();

    JobConfigsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QString summaryText() const;
    QString misplacedText() const;
    QString reasonText() const;
    // The ALTER PROJECT statements "Copy statement" copies for the selected configuration; empty when none.
    QStringList remedyStatements() const { return m_statements; }
    void selectKey(const QString& key);

private:
    void showSelectedReason();
    void copyStatements() const;

    JobConfigsModel* m_model;
    QLabel* m_summary;
    FullTextLabel* m_misplaced;
    QTableView* m_table;
    FullTextLabel* m_reason;
    QPushButton* m_copyStatement;
    QStringList m_statements;
};

} // namespace jobdeck
