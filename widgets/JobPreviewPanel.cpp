#include "widgets/JobPreviewPanel.h"

#include "core/hudi/HudiConfigExplanation.h"
#include "core/parameters/JobDescription.h"
#include "core/parameters/SecretMasking.h"
#include "core/statements/StatementPrinter.h"
#include "models/QtStrings.h"
#include "models/ThemeColors.h"
#include "widgets/StatementHighlighter.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
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
    , m_maskNote(
          new QLabel(tr("Secret values are shown and copied as ****; Save sends what you typed."), this))
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
    m_maskNote->setObjectName(QStringLiteral("secretsMaskedNote"));
    m_maskNote->setWordWrap(true);
    m_maskNote->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("What DESCRIBE JOB will show"), this));
    layout->addWidget(m_tree, 3);
    layout->addWidget(new QLabel(tr("Statement sent on Save"), this));
    layout->addWidget(m_statementText, 1);
    auto* below = new QHBoxLayout;
    below->addWidget(m_maskNote, 1);
    below->addWidget(m_copyButton, 0, Qt::AlignRight | Qt::AlignTop);
    layout->addLayout(below);
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
    m_statement = statementFor(input);
    // Masked as the audit log shows it: the preview is looked at, copied and shared, and a **** copied
    // into a CREATE is refused by the service rather than stored.
    const MaskedStatement shown =
        m_statement ? maskStatement(*m_statement, StatementLayout::ParameterPerLine) : MaskedStatement{};
    // With nothing to send the note is the placeholder: it is not a statement, so it is not highlighted as
    // one.
    m_statementText->setPlainText(q(shown.text));
    m_maskNote->setVisible(!shown.secrets.empty());
    m_copyButton->setEnabled(m_statement.has_value());
    fillTree(input);
}

void JobPreviewPanel::fillTree(const Input& input) {
    SparkJob job;
    job.parameters = input.parameters;
    m_described = describeJob(std::move(job), input.settings, HudiConfigReasons::Given);
    m_tree->setUpdatesEnabled(false);
    m_tree->clear();
    auto* path = new QTreeWidgetItem(
        m_tree, {QStringLiteral("applicationPath"), !m_described.applicationPath.empty()
                                                        ? q(m_described.applicationPath)
                                                        : tr("(none: the Job has no path)")});
    path->setData(0, Qt::UserRole, QStringLiteral("applicationPath"));
    auto* arguments =
        new QTreeWidgetItem(m_tree, {QStringLiteral("arguments"),
                                     tr("%n argument(s)", nullptr, int(m_described.arguments.size()))});
    for (const std::string& a : m_described.arguments)
        new QTreeWidgetItem(arguments, {QString(), q(a)});
    auto* spark =
        new QTreeWidgetItem(m_tree, {QStringLiteral("sparkConfigs"),
                                     tr("%n config(s)", nullptr, int(m_described.sparkConfigs.size()))});
    for (const auto& [k, v] : m_described.sparkConfigs)
        new QTreeWidgetItem(spark, {q(k), q(v)});
    auto* hudi =
        new QTreeWidgetItem(m_tree, {QStringLiteral("hudiConfigs"),
                                     tr("%n config(s)", nullptr, int(m_described.hudiConfigs.size()))});
    for (const auto& [k, v] : m_described.hudiConfigs) {
        if (!input.settingsKnown) {
            new QTreeWidgetItem(hudi, {q(k), q(v), tr("shown once the project's settings are read")});
            continue;
        }
        const auto status = m_described.hudiConfigsStatus.find(k);
        const QString statusName = status != m_described.hudiConfigsStatus.end()
                                       ? q(hudiConfigStatusName(status->second))
                                       : QString();
        // The reason DESCRIBE JOB will give, with what would make it apply.
        const QString why = q(m_described.hudiConfigsStatusReasons[k]);
        auto* item = new QTreeWidgetItem(hudi, {q(k), q(v), statusName, why});
        item->setToolTip(3, why);
        if (status != m_described.hudiConfigsStatus.end() && status->second != HudiConfigStatus::Applied)
            item->setForeground(2, ThemeColors::color(ThemeColor::ErrorText, palette()));
    }
    addMisplacedHudiConfigs();
    m_tree->expandAll();
    m_tree->setUpdatesEnabled(true);
}

void JobPreviewPanel::addMisplacedHudiConfigs() {
    if (m_described.misplacedHudiConfigs.empty())
        return;
    auto* misplaced = new QTreeWidgetItem(
        m_tree, {tr("not in hudiConfigs"), tr("%n --hudi-conf pair(s) after the path: application arguments",
                                              nullptr, int(m_described.misplacedHudiConfigs.size()))});
    misplaced->setForeground(1, ThemeColors::color(ThemeColor::MisplacedText, palette()));
    for (const std::string& pair : m_described.misplacedHudiConfigs) {
        // "key=value", the value masked when secret; a key holds no '=' (it ends at the first).
        const std::size_t equals = pair.find('=');
        const std::string key = pair.substr(0, equals);
        const std::string value = equals == std::string::npos ? std::string() : pair.substr(equals + 1);
        const QString why = q(misplacedHudiConfigMessage(key));
        auto* item = new QTreeWidgetItem(misplaced, {q(key), q(value), tr("passed to the application"), why});
        item->setToolTip(3, why);
    }
}

} // namespace jobdeck
