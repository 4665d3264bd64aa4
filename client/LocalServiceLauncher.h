#pragma once

#include "client/ConnectionInfo.h"

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <QTimer>

#include <chrono>
#include <memory>

namespace jobdeck {

class ApiClient;
class SecretStore;

// The built-in "Local" profile: a jobdeckd of the console's own, on 127.0.0.1 with its own data dir.
// start() reuses a service still answering at the last known port; otherwise it starts the bundled
// jobdeckd on a free port. The first time it creates an admin key (`keys create --json`, the secret
// goes to the SecretStore) and seeds demo data through the API; the demo's applications are copied
// where the service finds them at every start. A service it started is stopped with
// it (stop() or destruction).
class LocalServiceLauncher final : public QObject {
    Q_OBJECT
public:
    LocalServiceLauncher(SecretStore* secrets, QObject* parent = nullptr);
    ~LocalServiceLauncher() override;

    // Beside the console: <app>/../service/jobdeckd in the build tree, <app>/jobdeckd when installed.
    static QString defaultServicePath();
    // <GenericDataLocation>/jobdeck/local: ~/.local/share/jobdeck/local.
    static QString defaultDataDir();
    // Where earlier consoles kept it (<GenericDataLocation>/<organisation>/<application>/local).
    static QString legacyDataDir();
    // Once: when the data directory is the default one and does not exist yet, moves legacyDataDir()
    // there, with the Local profile's secret. start() does this first. false, with `why`, when a move
    // was due and failed.
    bool moveLegacyDataDir(QString* why = nullptr);
    // The demo applications: <app>/../demo in the build tree, <app>/../share/jobdeck/demo when installed.
    static QString defaultDemoDir();

    void setServicePath(const QString& path) { m_servicePath = path; }
    QString servicePath() const { return m_servicePath; }
    void setDataDir(const QString& dir) { m_dataDir = dir; }
    QString dataDir() const { return m_dataDir; }
    void setDemoDir(const QString& dir) { m_demoDir = dir; }
    QString demoDir() const { return m_demoDir; }
    void setStartTimeout(std::chrono::milliseconds t) { m_startTimeout = t; }

    // Asynchronous: ends in ready() or failed().
    void start();
    // Stops the service if this launcher started it (TERM, then KILL after a grace period).
    void stop();

    bool isRunning() const { return m_running; }
    bool startedService() const { return m_process && m_process->state() != QProcess::NotRunning; }
    ConnectionInfo connection() const { return m_connection; }
    qint64 processId() const { return m_process ? m_process->processId() : 0; }

signals:
    void progress(const QString& message);
    void ready(const jobdeck::ConnectionInfo& connection);
    void failed(const QString& reason);
    // The service this launcher started ended by itself (not through stop()): killed, crashed, or
    // exited; `reason` says which. start() starts it again.
    void exited(const QString& reason);

private:
    struct State;
    void loadState();
    bool saveState(QString* error);
    void ensureCredentials();
    void probeLastPort();
    void spawn();
    void installDemoApps();
    void seedIfNeeded();
    void seedStep(std::size_t index);
    void finishReady();
    void fail(const QString& reason);
    QString secretAccount() const;

    SecretStore* m_secrets;
    QString m_servicePath;
    QString m_dataDir;
    QString m_demoDir;
    std::chrono::milliseconds m_startTimeout{20000};
    std::unique_ptr<QProcess> m_process;
    std::unique_ptr<QProcess> m_keysProcess;
    QTimer m_startTimer;
    QByteArray m_output;
    std::unique_ptr<State> m_state;
    ApiClient* m_client;
    ConnectionInfo m_connection;
    bool m_running = false;
    bool m_starting = false;
};

} // namespace jobdeck
