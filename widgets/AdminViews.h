#pragma once

#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;

namespace jobdeck {

class ApiClient;
class AuditView;
class ClustersView;
class ConnectionMonitor;
class EventsSubscription;
class ProjectView;

// The support and admin views of the main window, each in a dock with a menu entry and a shortcut:
// Project settings (Ctrl+Alt+P), Clusters (Ctrl+Alt+C), Audit log (Ctrl+Alt+A). A view loads when it is
// first shown and again after every (re)connection, and follows the project's events while open.
class AdminViews final : public QObject {
    Q_OBJECT
public:
    AdminViews(QMainWindow* window, ApiClient* client, ConnectionMonitor* monitor,
               EventsSubscription* events);

    QList<QAction*> actions() const { return {m_projectAction, m_clustersAction, m_auditAction}; }
    QAction* projectAction() const { return m_projectAction; }
    QAction* clustersAction() const { return m_clustersAction; }
    QAction* auditAction() const { return m_auditAction; }

    ProjectView* projectView() const { return m_project; }
    ClustersView* clustersView() const { return m_clusters; }
    AuditView* auditView() const { return m_audit; }
    QDockWidget* projectDock() const { return m_projectDock; }
    QDockWidget* clustersDock() const { return m_clustersDock; }
    QDockWidget* auditDock() const { return m_auditDock; }

    // The console switched to another service, or to none: every view forgets what it showed (the open
    // ones load again once connected).
    void forget();

private:
    QDockWidget* addDock(QMainWindow* window, QWidget* view, const QString& title, const QString& name);
    QAction* showAction(QDockWidget* dock, const QString& text, const QKeySequence& key, const QString& name);

    ProjectView* m_project;
    ClustersView* m_clusters;
    AuditView* m_audit;
    QDockWidget* m_projectDock = nullptr;
    QDockWidget* m_clustersDock = nullptr;
    QDockWidget* m_auditDock = nullptr;
    QAction* m_projectAction = nullptr;
    QAction* m_clustersAction = nullptr;
    QAction* m_auditAction = nullptr;
};

} // namespace jobdeck
