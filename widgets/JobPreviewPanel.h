#pragma once

#include "core/policy/ProjectSettings.h"
#include "core/statements/Statement.h"
#include "core/wire/SparkJob.h"

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace jobdeck {

// What the Job will look like once saved, computed by the core as the service computes it: DESCRIBE JOB's
// applicationPath, arguments, sparkConfigs and hudiConfigs with their statuses and secret values masked
// (describeJob), and the CREATE JOB / ALTER JOB statement Save sends, printed with its secret values masked
// (as the audit log shows it) and a copy button that copies what is shown.
class JobPreviewPanel final : public QWidget {
    Q_OBJECT
public:
    struct Input final {
        std::string name;
        JobType type = JobType::Jar;
        std::string cluster;
        int maxConcurrentRuns = 1;
        std::vector<std::string> parameters;
        ProjectSettings settings;
        bool settingsKnown = true;      // false: `settings` are not read yet, so no config gets a status
        std::optional<SparkJob> stored; // set when editing: the statement is an ALTER of what changed
    };

    explicit JobPreviewPanel(QWidget* parent = nullptr);

    void setInput(const Input& input);
    // The Job as DESCRIBE JOB will show it once saved.
    const SparkJob& described() const { return m_described; }
    // The statement Save sends, secret values in clear; nullopt when editing and nothing changed.
    const std::optional<Statement>& statement() const { return m_statement; }
    // What the panel shows of it: secret values masked, or the note that there is nothing to send.
    QString statementText() const;
    QTreeWidget* describeTree() const { return m_tree; }

    // CREATE for a new Job; for an existing one an ALTER with only the clauses that changed (nullopt: none).
    static std::optional<Statement> statementFor(const Input& input);

private:
    void fillTree(const Input& input);
    void addMisplacedHudiConfigs();

    SparkJob m_described;
    std::optional<Statement> m_statement;
    QTreeWidget* m_tree;
    QPlainTextEdit* m_statementText;
    QLabel* m_maskNote;
    QPushButton* m_copyButton;
};

} // namespace jobdeck
