#include "widgets/HelpWindow.h"

#include <QAction>
#include <QKeySequence>
#include <QStyle>
#include <QTextBrowser>
#include <QToolBar>

namespace jobdeck {

HelpWindow::HelpWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_browser(new QTextBrowser(this)) {
    setObjectName(QStringLiteral("helpWindow"));
    setWindowTitle(tr("Jobdeck documentation"));
    m_browser->setObjectName(QStringLiteral("helpBrowser"));
    // Links to other pages stay here; web links go to the browser.
    m_browser->setOpenLinks(true);
    m_browser->setOpenExternalLinks(true);
    setCentralWidget(m_browser);
    createActions();
    connect(m_browser, &QTextBrowser::sourceChanged, this, [this] {
        const QString title = m_browser->documentTitle();
        setWindowTitle(title.isEmpty() ? tr("Jobdeck documentation")
                                       : tr("%1 — Jobdeck documentation").arg(title));
    });
    resize(900, 700);
}

void HelpWindow::showPage(const QUrl& page) {
    m_browser->setSource(page, QTextDocument::MarkdownResource);
}

void HelpWindow::createActions() {
    auto* bar = addToolBar(tr("Navigation"));
    bar->setObjectName(QStringLiteral("helpNavigation"));
    bar->setMovable(false);
    auto* back = bar->addAction(style()->standardIcon(QStyle::SP_ArrowBack), tr("Back"));
    back->setObjectName(QStringLiteral("helpBack"));
    back->setShortcut(QKeySequence::Back);
    connect(back, &QAction::triggered, m_browser, &QTextBrowser::backward);
    connect(m_browser, &QTextBrowser::backwardAvailable, back, &QAction::setEnabled);
    auto* forward = bar->addAction(style()->standardIcon(QStyle::SP_ArrowForward), tr("Forward"));
    forward->setObjectName(QStringLiteral("helpForward"));
    forward->setShortcut(QKeySequence::Forward);
    connect(forward, &QAction::triggered, m_browser, &QTextBrowser::forward);
    connect(m_browser, &QTextBrowser::forwardAvailable, forward, &QAction::setEnabled);
    auto* home = bar->addAction(style()->standardIcon(QStyle::SP_DirHomeIcon), tr("Contents"));
    home->setObjectName(QStringLiteral("helpHome"));
    connect(home, &QAction::triggered, m_browser, &QTextBrowser::home);
    back->setEnabled(false);
    forward->setEnabled(false);
    auto* close = new QAction(tr("Close"), this);
    close->setShortcuts({QKeySequence::Close, QKeySequence(Qt::Key_Escape)});
    connect(close, &QAction::triggered, this, &QWidget::close);
    addAction(close);
}

} // namespace jobdeck
