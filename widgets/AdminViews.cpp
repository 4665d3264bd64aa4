#include "widgets/AdminViews.h"

#include "client/ConnectionMonitor.h"
#include "client/EventsSubscription.h"
#include "models/ClustersModel.h"
#include "widgets/AuditView.h"
#include "widgets/ClustersView.h"
#include "widgets/ProjectView.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

namespace jobdeck {

AdminViews::AdminViews(QMainWindow* window, ApiClient* client, ConnectionMonitor* monitor,
                       EventsSubscription* events)
    : QObject(window)
    , m_project(new ProjectView(client))
    , m_clusters(new ClustersView(client))
    , m_audit(new AuditView(client)) {
    m_projectDock = addDock(window, m_project, tr("Project settings"), QStringLiteral("projectDock"));
    m_clustersDock = addDock(window, m_clusters, tr("Clusters"), QStringLiteral("clustersDock"));
    m_auditDock = addDock(window, m_audit, tr("Audit log"), QStringLiteral("auditDock"));
    window->tabifyDockWidget(m_projectDock, m_clustersDock);
    window->tabifyDockWidget(m_clustersDock, m_auditDock);
    m_projectAction =
        showAction(m_projectDock, tr("Project &settings"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P),
                   QStringLiteral("actionProjectSettings"));
    m_clustersAction =
        showAction(m_clustersDock, tr("C&lusters"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C),
                   QStringLiteral("actionClusters"));
    m_auditAction = showAction(m_auditDock, tr("&Audit log"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_A),
                               QStringLiteral("actionAuditLog"));

    // The project and clusters views load when shown (the audit view does so itself), and again on every
    // (re)connection while they are open; events keep them current.
    connect(m_projectDock, &QDockWidget::visibilityChanged, m_project, [this](bool visible) {
        if (visible && !m_project->project())
            m_project->reload();
    });
    connect(m_clustersDock, &QDockWidget::visibilityChanged, m_clusters, [this](bool visible) {
        if (visible && m_clusters->model()->rowCount() == 0)
            m_clusters->reload();
    });
    connect(monitor, &ConnectionMonitor::connected, this, [this] {
        if (m_projectDock->isVisible())
            m_project->reload();
        if (m_clustersDock->isVisible())
            m_clusters->reload();
        if (m_auditDock->isVisible())
            m_audit->reload();
    });
    connect(events, &EventsSubscription::eventsReceived, this, [this](const QList<ProjectEvent>& list) {
        if (m_projectDock->isVisible())
            m_project->onEvents(list);
        if (m_clustersDock->isVisible())
            m_clusters->onEvents(list);
        m_audit->onEvents(list);
    });
}

void AdminViews::forget() {
    m_project->forget();
    m_clusters->forget();
    m_audit->forget();
}

QDockWidget* AdminViews::addDock(QMainWindow* window, QWidget* view, const QString& title,
                                 const QString& name) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(name);
    dock->setWidget(view);
    window->addDockWidget(Qt::RightDockWidgetArea, dock);
    dock->hide();
    return dock;
}

QAction* AdminViews::showAction(QDockWidget* dock, const QString& text, const QKeySequence& key,
                                const QString& name) {
    // Not the dock's toggle: the shortcut always brings the view forward, it never hides it.
    auto* action = new QAction(text, this);
    action->setObjectName(name);
    action->setShortcut(key);
    action->setShortcutContext(Qt::ApplicationShortcut);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(QString(text).remove(QLatin1Char('&')),
                                                     key.toString(QKeySequence::NativeText)));
    dock->parentWidget()->addAction(action); // the shortcut works wherever the focus is in the window
    connect(action, &QAction::triggered, dock, [dock] {
        dock->show();
        dock->raise();
        if (dock->widget())
            dock->widget()->setFocus();
    });
    return action;
}

} // namespace jobdeck
