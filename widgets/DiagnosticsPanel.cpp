#include "widgets/DiagnosticsPanel.h"

#include "models/DiagnosticsModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace jobdeck {

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new DiagnosticsModel(this))
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this))
    , m_fixButton(new QToolButton(this)) {
    setObjectName(QStringLiteral("diagnosticsPanel"));
    m_view->setObjectName(QStringLiteral("diagnosticsView"));
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setWordWrap(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(DiagnosticsModel::MessageColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(DiagnosticsModel::SeverityColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(DiagnosticsModel::LineColumn, QHeaderView::ResizeToContents);
    // Sized from the rows in view: measuring a long Job's every row would cost more than the re-check.
    m_view->header()->setResizeContentsPrecision(0);
    m_summary->setObjectName(QStringLiteral("diagnosticsSummary"));
    m_summary->setWordWrap(true);
    m_fixButton->setObjectName(QStringLiteral("applyFixButton"));
    m_fixButton->setText(tr("Fix"));
    m_fixButton->setToolTip(tr("Apply the selected diagnostic's fix (Ctrl+Z undoes it)"));
    m_fixButton->setPopupMode(QToolButton::MenuButtonPopup);

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_fixButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view);

    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex& index) {
        if (const int line = m_model->lineOf(index.row()); line >= 0)
            emit lineActivated(line);
    });
    connect(m_view, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        if (const int line = m_model->lineOf(index.row()); line >= 0)
            emit lineActivated(line);
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DiagnosticsPanel::updateFixButton);
    connect(m_model, &QAbstractItemModel::modelReset, this, &DiagnosticsPanel::updateFixButton);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &DiagnosticsPanel::updateFixButton);
    connect(m_fixButton, &QToolButton::clicked, this, [this] {
        const std::vector<Fix> fixes = fixesOf(selectedRow());
        if (!fixes.empty())
            emit fixRequested(fixes.front());
    });
    updateFixButton();
}

void DiagnosticsPanel::setDiagnostics(const std::vector<Diagnostic>& diagnostics,
                                      const std::vector<int>& lines) {
    const int row = selectedRow();
    m_model->setDiagnostics(diagnostics, lines);
    const int errors = m_model->countOf(Severity::Error), warnings = m_model->countOf(Severity::Warning);
    m_summary->setText(errors + warnings == 0 && m_model->rowCount() == 0
                           ? tr("No problems: the service will accept these parameters.")
                           : tr("%n error(s)", nullptr, errors) + QStringLiteral(", ") +
                                 tr("%n warning(s)", nullptr, warnings));
    if (row < 0 && m_model->rowCount() > 0)
        selectRow(0);
    updateFixButton();
}

void DiagnosticsPanel::showGuidance(const QString& text) {
    m_model->setDiagnostics({}, {});
    m_summary->setText(text);
    updateFixButton();
}

void DiagnosticsPanel::setFixProvider(std::function<std::vector<Fix>(int row)> provider) {
    m_fixProvider = std::move(provider);
    updateFixButton();
}

std::vector<Fix> DiagnosticsPanel::fixesOf(int row) const {
    if (row < 0 || row >= m_model->rowCount())
        return {};
    return m_fixProvider ? m_fixProvider(row) : m_model->diagnostic(row).fixes;
}

void DiagnosticsPanel::selectRow(int row) {
    if (row >= 0 && row < m_model->rowCount())
        m_view->setCurrentIndex(m_model->index(row, DiagnosticsModel::MessageColumn));
}

int DiagnosticsPanel::selectedRow() const {
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.row() : -1;
}

QString DiagnosticsPanel::summaryText() const {
    return m_summary->text();
}

void DiagnosticsPanel::updateFixButton() {
    // The model's own fixes: asking the provider here would re-validate a long list on every keystroke.
    const int row = selectedRow();
    const std::vector<Fix> fixes =
        row >= 0 && row < m_model->rowCount() ? m_model->diagnostic(row).fixes : std::vector<Fix>{};
    const bool hasFixes = !fixes.empty();
    m_fixButton->setEnabled(hasFixes);
    QMenu* old = m_fixButton->menu();
    m_fixButton->setMenu(nullptr);
    delete old;
    if (!hasFixes) {
        m_fixButton->setText(tr("Fix"));
        return;
    }
    m_fixButton->setText(QString::fromStdString(fixes.front().title));
    if (fixes.size() > 1) {
        auto* menu = new QMenu(m_fixButton);
        // Looked up when chosen: a row keeps its titles while the list its fixes correct changes.
        for (std::size_t i = 0; i < fixes.size(); ++i)
            menu->addAction(QString::fromStdString(fixes[i].title), this, [this, row, i] {
                const std::vector<Fix> now = fixesOf(row);
                if (i < now.size())
                    emit fixRequested(now[i]);
            });
        m_fixButton->setMenu(menu);
    }
}

} // namespace jobdeck
