#pragma once

#include "core/wire/ProjectEvent.h"
#include "core/wire/SparkJobSummary.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <vector>

namespace jobdeck {

class ApiClient;
class EventsSubscription;
class JobsTableModel;

// Keeps a JobsTableModel equal to the service's jobs: a full load (SHOW JOBS SUMMARY, the rows made
// ready on a worker thread, then the recent runs from SHOW JOB_RUNS; into an empty list sorted by name,
// the first rows by name come first, on their own), and between loads the service's
// events, applied one job at a time (each job an event names is described again, never the whole
// list). Events arriving during a load wait until its rows are in, as applied to the rows being
// replaced they would be lost with them.
class JobsListLoader final : public QObject {
    Q_OBJECT
public:
    // How many recent runs a full load asks for, across all jobs.
    static constexpr int kRecentRunsLoaded = 2000;
    // How many rows an empty list shows before the rest arrive: a few screens.
    static constexpr int kFirstRows = 200;

    JobsListLoader(ApiClient* client, EventsSubscription* events, JobsTableModel* model,
                   QObject* parent = nullptr);

    // Takes the events' position first and loads second, so nothing that happens in between is
    // missed; then follows the events.
    void start();
    // A full load; a newer one drops the answer of an older one.
    void reload();
    bool isLoading() const { return m_loading; }
    // Where a full load's rows are made ready: a pool of the loader's own, one thread (a newer load
    // supersedes an older one), so that neither waits for the application's other work nor holds it up.
    QThreadPool* workers() { return &m_workers; }

signals:
    void loadStarted();
    void loadFailed(const QString& message);
    // An empty list shows its first rows while the full load goes on.
    void firstRowsShown(int count);
    // The full load's rows are about to replace the model's, and now have (the model was reset).
    void rowsAboutToBeReplaced();
    void rowsReplaced(int count);
    // The full load is complete, recent runs included.
    void loaded();

private:
    void onEvents(const QList<ProjectEvent>& events);
    void flushEvents();
    void applyFetched();
    void loadEnded(); // releases the live changes that waited for it
    void loadRecentRuns(int generation);
    // Whether the load can show the service's first rows by name first: only into an empty list in
    // that order (a list with rows keeps them until the full answer replaces them).
    bool showsFirstRowsFirst() const;
    void loadFirstRows(int generation);
    void fetchRecentRuns(const QString& jobName);

    ApiClient* m_client;
    EventsSubscription* m_events;
    JobsTableModel* m_model;
    // Events are coalesced: each job named in a burst is fetched once, and the rows are applied together.
    QHash<QString, bool> m_pendingJobs; // name -> deleted
    QSet<QString> m_pendingRuns;
    std::vector<SparkJobSummary> m_fetched;
    QTimer m_eventsTimer;
    QTimer m_applyTimer;
    int m_generation = 0;
    bool m_loading = false;
    QThreadPool m_workers;
};

} // namespace jobdeck
