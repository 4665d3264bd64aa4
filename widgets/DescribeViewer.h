#pragma once

#include <QString>
#include <QWidget>
#include <optional>

#include <nlohmann/json.hpp>

class QLabel;
class QPlainTextEdit;
class QSyntaxHighlighter;
class QTabWidget;
class QTreeView;

namespace jobdeck {

class HudiConfigsExplainer;
class JsonSearchBar;
class JsonTreeModel;

// Shows a DESCRIBE answer (JOB, JOB_RUN, CLUSTER, PROJECT): the JSON as a tree, the raw JSON with
// highlighting, copy and search (Ctrl+F, F3 / Shift+F3), and for a job its configuration explained.
class DescribeViewer final : public QWidget {
    Q_OBJECT
public:
    enum class Subject { Job, JobRun, Cluster, Project };

    explicit DescribeViewer(QWidget* parent = nullptr);

    // `apiResponse` is the statement's whole apiResponse object.
    void showResponse(Subject subject, const QString& name, const nlohmann::json& apiResponse);
    void showMessage(const QString& title, const QString& message);
    void clear();
    // Nothing described: the prompt to select a job (at start, and when the described job is no
    // longer selected, e.g. a filter hid it).
    void showPrompt();
    // What is shown: nullopt for the prompt or a message.
    std::optional<Subject> subject() const { return m_subject; }

    QString title() const;
    QString rawText() const;
    void copyRaw() const;
    void find(); // Ctrl+F

    JsonTreeModel* treeModel() const { return m_treeModel; }
    QTreeView* treeView() const { return m_tree; }
    QPlainTextEdit* rawEditor() const { return m_raw; }
    JsonSearchBar* searchBar() const { return m_search; }
    HudiConfigsExplainer* explainer() const { return m_explainer; }
    QTabWidget* tabs() const { return m_tabs; }
    // The tab a job is shown on (0 Configuration, 1 Tree, 2 JSON): the one the user last chose while a
    // job was shown, kept between starts by the main window.
    int jobTab() const { return m_jobTab; }
    void setJobTab(int index);
    bool usesBuiltInHighlighter() const;

private:
    QLabel* m_title;
    QTabWidget* m_tabs;
    HudiConfigsExplainer* m_explainer;
    QWidget* m_explainerPage;
    QTreeView* m_tree;
    JsonTreeModel* m_treeModel;
    QPlainTextEdit* m_raw;
    JsonSearchBar* m_search;
    QSyntaxHighlighter* m_highlighter;
    std::optional<Subject> m_subject;
    int m_jobTab = 0;
};

} // namespace jobdeck
