#include "widgets/JobPreviewPanel.h"

#include "core/hudi/HudiConfigExplanation.h"
#include "core/statements/StatementPrinter.h"
#include "models/QtStrings.h"
#include "models/ThemeColors.h"
#include "widgets/StatementHighlighter.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#ifdef JOBDECK_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

namespace jobdeck {

JobPreviewPanel::JobPreviewPanel(QWidget* parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_statementText(new QPlainTextEdit(this))
    , m_copyButton(new QPushButton(tr("Copy statement"), this)) {
    setObjectName(QStringLiteral("jobPreviewPanel"));
    m_tree->setObjectName(QStringLiteral("describePreview"));
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("DESCRIBE JOB"), tr("Value"), tr("Status"), tr("Why")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_statementText->setObjectName(QStringLiteral("statementPreview"));
    m_statementText->setReadOnly(true);
    m_statementText->setPlaceholderText(tr("-- nothing changed: Save has nothing to send"));
    m_statementText->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_statementText->setFont(mono);
    bool highlighted = false;
#ifdef JOBDECK_HAVE_KSYNTAXHIGHLIGHTING
    // resources/syntax/jobdeck-statements.xml, compiled in.
    static KSyntaxHighlighting::Repository repository;
    const auto definition = repository.definitionForName(QStringLiteral("Jobdeck Statements"));
    if (definition.isValid()) {
        auto* highlighter = new KSyntaxHighlighting::SyntaxHighlighter(m_statementText->document());
        highlighter->setTheme(repository.defaultTheme(ThemeColors::isDark(palette())
                                                          ? KSyntaxHighlighting::Repository::DarkTheme
                                                          : KSyntaxHighlighting::Repository::LightTheme));
        highlighter->setDefinition(definition);
        highlighted = true;
    }
#endif
    if (!highlighted)
        new StatementHighlighter(m_statementText->document());
    m_copyButton->setObjectName(QStringLiteral("copyStatementButton"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("What DESCRIBE JOB will show"), this));
    layout->addWidget(m_tree, 3);
    layout->addWidget(new QLabel(tr("Statement sent on Save"), this));
    layout->addWidget(m_statementText, 1);
    layout->addWidget(m_copyButton, 0, Qt::AlignRight);
    connect(m_copyButton, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_statementText->toPlainText()); });
}

std::optional<Statement> JobPreviewPanel::statementFor(const Input& input) {
    if (!input.stored) {
        CreateJobStatement create{input.name, input.type, input.parameters, input.cluster, std::nullopt};
        // MAX_CONCURRENT_RUNS defaults to 1; it is written only when it says something.
        if (input.maxConcurrentRuns != 1)
            create.maxConcurrentRuns = input.maxConcurrentRuns;
        return Statement{std::move(create)};
    }
    AlterJobStatement alter;
    alter.name = input.stored->name;
    if (input.parameters != input.stored->parameters)
        alter.parameters = input.parameters;
    if (input.cluster != input.stored->cluster)
        alter.cluster = input.cluster;
    if (input.maxConcurrentRuns != input.stored->maxConcurrentRuns)
        alter.maxConcurrentRuns = input.maxConcurrentRuns;
    if (!alter.parameters && !alter.cluster && !alter.maxConcurrentRuns)
        return std::nullopt;
    return Statement{std::move(alter)};
}

QString JobPreviewPanel::statementText() const {
    return m_statement ? m_statementText->toPlainText() : m_statementText->placeholderText();
}

void JobPreviewPanel::setInput(const Input& input) {
    const ProjectSettings& settings = input.settings;
    m_configuration = describeParameters(input.parameters, settings);
    m_statement = statementFor(input);
    // With nothing to send the note is the placeholder: it is not a statement, so it is not highlighted as
    // one.
    m_statementText->setPlainText(
        m_statement ? q(printStatement(*m_statement, StatementLayout::ParameterPerLine)) : QString());
    m_copyButton->setEnabled(m_statement.has_value());

    m_tree->setUpdatesEnabled(false);
    m_tree->clear();
    auto* path =
        new QTreeWidgetItem(m_tree, {QStringLiteral("applicationPath"),
                                     m_configuration.applicationPath ? q(*m_configuration.applicationPath)
                                                                     : tr("(none: the Job has no path)")});
    path->setData(0, Qt::UserRole, QStringLiteral("applicationPath"));
    auto* arguments =
        new QTreeWidgetItem(m_tree, {QStringLiteral("arguments"),
                                     tr("%n argument(s)", nullptr, int(m_configuration.arguments.size()))});
    for (const std::string& a : m_configuration.arguments)
        new QTreeWidgetItem(arguments, {QString(), q(a)});
    auto* spark =
        new QTreeWidgetItem(m_tree, {QStringLiteral("sparkConfigs"),
                                     tr("%n config(s)", nullptr, int(m_configuration.sparkConfigs.size()))});
    for (const auto& [k, v] : m_configuration.sparkConfigs)
        new QTreeWidgetItem(spark, {q(k), q(v)});
    auto* hudi =
        new QTreeWidgetItem(m_tree, {QStringLiteral("hudiConfigs"),
                                     tr("%n config(s)", nullptr, int(m_configuration.hudiConfigs.size()))});
    for (const auto& [k, v] : m_configuration.hudiConfigs) {
        const auto status = m_configuration.hudiConfigsStatus.find(k);
        if (!input.settingsKnown) {
            new QTreeWidgetItem(hudi, {q(k), q(v), tr("shown once the project's settings are read")});
            continue;
        }
        const QString statusName = status != m_configuration.hudiConfigsStatus.end()
                                       ? q(hudiConfigStatusName(status->second))
                                       : QString();
        // The reason DESCRIBE JOB will give (hudiConfigsStatusReasons), with what would make it apply.
        const QString why = q(explainHudiConfig(k, settings).text());
        auto* item = new QTreeWidgetItem(hudi, {q(k), q(v), statusName, why});
        item->setToolTip(3, why);
        if (status != m_configuration.hudiConfigsStatus.end() && status->second != HudiConfigStatus::Applied)
            item->setForeground(2, ThemeColors::color(ThemeColor::ErrorText, palette()));
    }
    if (!m_configuration.misplacedHudiConfigs.empty()) {
        auto* misplaced =
            new QTreeWidgetItem(m_tree, {tr("not in hudiConfigs"),
                                         tr("%n --hudi-conf pair(s) after the path: application arguments",
                                            nullptr, int(m_configuration.misplacedHudiConfigs.size()))});
        misplaced->setForeground(1, ThemeColors::color(ThemeColor::MisplacedText, palette()));
        for (const ConfigSetting& c : m_configuration.misplacedHudiConfigs) {
            const QString why = q(misplacedHudiConfigMessage(c.key));
            auto* item =
                new QTreeWidgetItem(misplaced, {q(c.key), q(c.value), tr("passed to the application"), why});
            item->setToolTip(3, why);
        }
    }
    m_tree->expandAll();
    m_tree->setUpdatesEnabled(true);
}

} // namespace jobdeck
