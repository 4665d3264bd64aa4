#include "widgets/DescribeViewer.h"

#include "core/wire/SparkJob.h"
#include "models/JsonTreeModel.h"
#include "models/ThemeColors.h"
#include "widgets/HudiConfigsExplainer.h"
#include "widgets/JsonHighlighter.h"
#include "widgets/JsonSearchBar.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

#ifdef JOBDECK_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

namespace jobdeck {

using nlohmann::json;

namespace {

QSyntaxHighlighter* makeHighlighter(QTextDocument* document) {
#ifdef JOBDECK_HAVE_KSYNTAXHIGHLIGHTING
    static KSyntaxHighlighting::Repository repository;
    const auto definition = repository.definitionForName(QStringLiteral("JSON"));
    if (definition.isValid()) {
        auto* highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
        highlighter->setTheme(repository.defaultTheme(ThemeColors::isDark(QGuiApplication::palette())
                                                          ? KSyntaxHighlighting::Repository::DarkTheme
                                                          : KSyntaxHighlighting::Repository::LightTheme));
        highlighter->setDefinition(definition);
        return highlighter;
    }
#endif
    return new JsonHighlighter(document);
}

const char* responseKey(DescribeViewer::Subject subject) {
    switch (subject) {
    case DescribeViewer::Subject::Job:
        return "DESCRIBE JOB";
    case DescribeViewer::Subject::JobRun:
        return "DESCRIBE JOB_RUN";
    case DescribeViewer::Subject::Cluster:
        return "DESCRIBE CLUSTER";
    case DescribeViewer::Subject::Project:
        return "DESCRIBE PROJECT";
    }
    return "DESCRIBE";
}

} // namespace

DescribeViewer::DescribeViewer(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_explainer(new HudiConfigsExplainer)
    , m_explainerPage(m_explainer)
    , m_tree(new QTreeView)
    , m_treeModel(new JsonTreeModel(this))
    , m_raw(new QPlainTextEdit)
    , m_search(nullptr)
    , m_highlighter(nullptr) {
    setObjectName(QStringLiteral("describeViewer"));
    m_title->setObjectName(QStringLiteral("describeTitle"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_tabs->setObjectName(QStringLiteral("describeTabs"));

    m_tree->setObjectName(QStringLiteral("describeTree"));
    m_tree->setModel(m_treeModel);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::Key, QHeaderView::ResizeToContents);

    auto* rawPage = new QWidget;
    m_raw->setObjectName(QStringLiteral("describeRaw"));
    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_highlighter = makeHighlighter(m_raw->document());
    m_search = new JsonSearchBar(m_raw, rawPage);
    m_search->hide();
    auto* copy = new QPushButton(tr("Copy JSON"), rawPage);
    copy->setObjectName(QStringLiteral("copyJson"));
    connect(copy, &QPushButton::clicked, this, &DescribeViewer::copyRaw);
    auto* findButton = new QPushButton(tr("Find…"), rawPage);
    connect(findButton, &QPushButton::clicked, this, &DescribeViewer::find);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(copy);
    buttons->addWidget(findButton);
    buttons->addStretch(1);
    auto* rawLayout = new QVBoxLayout(rawPage);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    rawLayout->addLayout(buttons);
    rawLayout->addWidget(m_search);
    rawLayout->addWidget(m_raw, 1);

    m_tabs->addTab(m_explainerPage, tr("Configuration"));
    m_tabs->addTab(m_tree, tr("Tree"));
    m_tabs->addTab(rawPage, tr("JSON"));
    m_tabs->setTabVisible(0, false);

    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (m_subject == Subject::Job && index >= 0)
            m_jobTab = index;
    });

    auto* findShortcut = new QShortcut(QKeySequence::Find, this);
    findShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(findShortcut, &QShortcut::activated, this, &DescribeViewer::find);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_tabs, 1);
    showPrompt();
}

void DescribeViewer::setJobTab(int index) {
    if (index < 0 || index >= m_tabs->count())
        return;
    m_jobTab = index;
    if (m_subject == Subject::Job && m_tabs->isTabVisible(index))
        m_tabs->setCurrentIndex(index);
}

void DescribeViewer::showPrompt() {
    clear();
    m_title->setText(tr("Select a job and press Describe (Ctrl+D)."));
}

bool DescribeViewer::usesBuiltInHighlighter() const {
    return qobject_cast<JsonHighlighter*>(m_highlighter) != nullptr;
}

void DescribeViewer::showResponse(Subject subject, const QString& name, const json& apiResponse) {
    m_title->setText(name.isEmpty()
                         ? QString::fromLatin1(responseKey(subject))
                         : QStringLiteral("%1 %2").arg(QString::fromLatin1(responseKey(subject)), name));
    m_subject = subject;
    m_treeModel->setJson(apiResponse);
    m_tree->expandToDepth(2);
    m_raw->setPlainText(
        QString::fromStdString(apiResponse.dump(2, ' ', false, json::error_handler_t::replace)));
    const bool isJob = subject == Subject::Job;
    m_tabs->setTabVisible(0, isJob);
    if (isJob) {
        try {
            m_explainer->setJob(apiResponse.at("describeJobApiResponse").at("sparkJob").get<SparkJob>());
        } catch (const std::exception& e) {
            m_explainer->clear();
            m_tabs->setTabVisible(0, false);
            m_title->setText(m_title->text() +
                             tr(" — the job could not be read: %1").arg(QString::fromUtf8(e.what())));
        }
        m_tabs->setCurrentIndex(m_tabs->isTabVisible(m_jobTab) ? m_jobTab : 0);
    } else if (m_tabs->currentIndex() == 0) {
        m_tabs->setCurrentIndex(1);
    }
}

void DescribeViewer::showMessage(const QString& title, const QString& message) {
    clear();
    m_title->setText(title);
    m_raw->setPlainText(message);
    m_tabs->setCurrentIndex(2);
}

void DescribeViewer::clear() {
    m_subject.reset();
    m_title->clear();
    m_treeModel->setJson(json());
    m_raw->clear();
    m_explainer->clear();
    m_tabs->setTabVisible(0, false);
}

QString DescribeViewer::title() const {
    return m_title->text();
}
QString DescribeViewer::rawText() const {
    return m_raw->toPlainText();
}

void DescribeViewer::copyRaw() const {
    if (QClipboard* clipboard = QGuiApplication::clipboard())
        clipboard->setText(m_raw->toPlainText());
}

void DescribeViewer::find() {
    m_tabs->setCurrentIndex(2);
    m_search->activate();
}

} // namespace jobdeck
