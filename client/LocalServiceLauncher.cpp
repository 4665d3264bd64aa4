#include "client/LocalServiceLauncher.h"

#include "client/ApiClient.h"
#include "client/SecretStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

namespace jobdeck {

using nlohmann::json;

// What the launcher remembers between sessions (<data dir>/console-local.json); the secret is not here.
struct LocalServiceLauncher::State {
    int lastPort = 0;
    QString projectUid;
    QString apiKey;
    bool seeded = false;
};

namespace {

// The demo's applications, shipped with the console (demo/), and where the service finds them:
// s3://demo-bucket/jobs/ maps to <data dir>/s3/demo-bucket/jobs/.
const char* const kDemoBucket = "s3://demo-bucket/jobs/";
const char* const kDemoPython = "jobdeck_demo.py";
const char* const kDemoJar = "jobdeck-demo.jar";

// The demo data: a cluster of 2 drivers, the project's switches and allow-list, and jobs that run the
// demo applications for 15 to 40 s. Three runs of count_transactions (its limit) fill the cluster and
// queue one; ingest_orders has a misplaced --hudi-conf, nightly_cleanup a key the allow-list no longer
// grants (allowed while it is created, then removed), export_partners fails on purpose.
std::vector<Statement> demoStatements() {
    const std::string jar = std::string(kDemoBucket) + kDemoJar;
    const std::string python = std::string(kDemoBucket) + kDemoPython;
    using Op = AlterProjectStatement::AllowlistOp;
    const std::string cleanerKey = "hoodie.cleaner.commits.retained";
    return {
        CreateClusterStatement{"demo_cluster", "Spark", 2, 1, {{"spark.executor.memory", "2g"}}},
        AlterProjectStatement{true, std::nullopt, std::nullopt, Op::None, {}},
        AlterProjectStatement{
            std::nullopt,
            std::nullopt,
            std::nullopt,
            Op::Add,
            {"hoodie.datasource.meta.sync.", "hoodie.datasource.hive_sync.database", cleanerKey}},
        AlterProjectStatement{std::nullopt, true, 4, Op::None, {}},
        CreateJobStatement{"count_transactions",
                           JobType::Jar,
                           {"--class", "jobdeck.demo.CountTransactions", "--hudi-conf",
                            "hoodie.datasource.meta.sync.glue.catalogId=123456789012", "--hudi-conf",
                            "hoodie.datasource.hive_sync.database=analytics", jar, "--date", "2026-11-30",
                            "--seconds", "40"},
                           "demo_cluster",
                           3},
        CreateJobStatement{"ingest_orders",
                           JobType::Jar,
                           {"--class", "jobdeck.demo.IngestOrders", "--conf", "spark.executor.cores=2", jar,
                            "--hudi-conf", "hoodie.datasource.write.operation=upsert", "--date", "2026-11-30",
                            "--seconds", "20"},
                           "demo_cluster",
                           std::nullopt},
        CreateJobStatement{"daily_report",
                           JobType::Python,
                           {"--conf", "spark.executor.memory=1g", python, "--task", "daily_report", "--date",
                            "2026-11-30", "--seconds", "15"},
                           "demo_cluster",
                           std::nullopt},
        CreateJobStatement{
            "nightly_cleanup",
            JobType::Python,
            {"--hudi-conf", cleanerKey + "=20", python, "--task", "nightly_cleanup", "--seconds", "25"},
            "demo_cluster",
            std::nullopt},
        AlterProjectStatement{std::nullopt, std::nullopt, std::nullopt, Op::Remove, {cleanerKey}},
        CreateJobStatement{"export_partners",
                           JobType::Python,
                           {python, "--task", "export_partners", "--date", "2026-11-30", "--seconds", "30",
                            "--fail-after", "12"},
                           "demo_cluster",
                           std::nullopt},
    };
}

} // namespace

LocalServiceLauncher::LocalServiceLauncher(SecretStore* secrets, QObject* parent)
    : QObject(parent)
    , m_secrets(secrets)
    , m_servicePath(defaultServicePath())
    , m_dataDir(defaultDataDir())
    , m_demoDir(defaultDemoDir())
    , m_state(std::make_unique<State>())
    , m_client(new ApiClient(this)) {
    m_startTimer.setSingleShot(true);
    connect(&m_startTimer, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("jobdeckd did not report its port within %1 s. Its output:\n%2")
                 .arg(m_startTimeout.count() / 1000)
                 .arg(QString::fromUtf8(m_output.right(2000))));
    });
}

LocalServiceLauncher::~LocalServiceLauncher() {
    stop();
}

QString LocalServiceLauncher::defaultServicePath() {
    const QString dir = QCoreApplication::applicationDirPath();
    const QString buildTree = QDir(dir).filePath(QStringLiteral("../service/jobdeckd"));
    if (QFileInfo(buildTree).isExecutable())
        return QDir::cleanPath(buildTree);
    return QDir(dir).filePath(QStringLiteral("jobdeckd"));
}

QString LocalServiceLauncher::defaultDemoDir() {
    const QDir dir(QCoreApplication::applicationDirPath());
    const QString buildTree = dir.filePath(QStringLiteral("../demo"));
    if (QFileInfo::exists(QDir(buildTree).filePath(QLatin1String(kDemoPython))))
        return QDir::cleanPath(buildTree);
    return QDir::cleanPath(dir.filePath(QStringLiteral("../share/jobdeck/demo")));
}

QString LocalServiceLauncher::defaultDataDir() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("jobdeck/local"));
}

QString LocalServiceLauncher::legacyDataDir() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("jobdeck/jobdeck/local"));
}

bool LocalServiceLauncher::moveLegacyDataDir(QString* why) {
    const QString legacy = legacyDataDir();
    if (QDir(m_dataDir).absolutePath() != QDir(defaultDataDir()).absolutePath() ||
        QFileInfo::exists(m_dataDir) || !QFileInfo(legacy).isDir())
        return true;
    const QString oldAccount = QStringLiteral("local:") + QDir(legacy).absolutePath();
    if (!QDir().mkpath(QFileInfo(m_dataDir).absolutePath()) || !QDir().rename(legacy, m_dataDir)) {
        if (why)
            *why = QStringLiteral("cannot move %1 to %2").arg(legacy, m_dataDir);
        return false;
    }
    if (const auto secret = m_secrets->read(oldAccount)) {
        if (!m_secrets->write(secretAccount(), *secret, why))
            return false;
        m_secrets->remove(oldAccount);
    }
    return true;
}

QString LocalServiceLauncher::secretAccount() const {
    return QStringLiteral("local:") + QDir(m_dataDir).absolutePath();
}

void LocalServiceLauncher::loadState() {
    *m_state = State{};
    QFile file(QDir(m_dataDir).filePath(QStringLiteral("console-local.json")));
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    m_state->lastPort = o.value("lastPort").toInt();
    m_state->projectUid = o.value("projectUid").toString();
    m_state->apiKey = o.value("apiKey").toString();
    m_state->seeded = o.value("seeded").toBool();
}

bool LocalServiceLauncher::saveState(QString* error) {
    QSaveFile file(QDir(m_dataDir).filePath(QStringLiteral("console-local.json")));
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    const QJsonObject o{{"lastPort", m_state->lastPort},
                        {"projectUid", m_state->projectUid},
                        {"apiKey", m_state->apiKey},
                        {"seeded", m_state->seeded}};
    file.write(QJsonDocument(o).toJson());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void LocalServiceLauncher::start() {
    if (m_starting)
        return;
    if (m_running) {
        emit ready(m_connection);
        return;
    }
    if (QString why; !moveLegacyDataDir(&why)) {
        fail(QStringLiteral("Could not move the local data to %1: %2").arg(m_dataDir, why));
        return;
    }
    if (!QDir().mkpath(m_dataDir)) {
        fail(QStringLiteral("Cannot create the local data directory %1").arg(m_dataDir));
        return;
    }
    m_starting = true;
    loadState();
    ensureCredentials();
}

void LocalServiceLauncher::ensureCredentials() {
    QString why;
    const auto secret = m_secrets->read(secretAccount(), &why);
    if (!m_state->apiKey.isEmpty() && secret) {
        m_connection.projectUid = m_state->projectUid;
        m_connection.apiKey = m_state->apiKey;
        m_connection.apiSecret = *secret;
        probeLastPort();
        return;
    }
    if (!QFileInfo(m_servicePath).isExecutable()) {
        fail(QStringLiteral("The bundled jobdeckd was not found at %1").arg(m_servicePath));
        return;
    }
    emit progress(QStringLiteral("Creating an admin key for the local service…"));
    m_keysProcess = std::make_unique<QProcess>();
    m_keysProcess->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_keysProcess.get(), &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        const QByteArray out = m_keysProcess->readAllStandardOutput();
        const QString err = QString::fromUtf8(m_keysProcess->readAllStandardError()).trimmed();
        m_keysProcess.release()->deleteLater();
        if (status != QProcess::NormalExit || code != 0) {
            fail(QStringLiteral("jobdeckd keys create failed: %1").arg(err));
            return;
        }
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        if (o.value("apiKey").toString().isEmpty() || o.value("apiSecret").toString().isEmpty()) {
            fail(QStringLiteral("jobdeckd keys create printed no credentials"));
            return;
        }
        QString why;
        if (!m_secrets->write(secretAccount(), o.value("apiSecret").toString(), &why)) {
            fail(QStringLiteral("Could not store the local API secret: %1").arg(why));
            return;
        }
        m_state->projectUid = o.value("projectUid").toString();
        m_state->apiKey = o.value("apiKey").toString();
        m_state->seeded = false;
        m_connection.projectUid = m_state->projectUid;
        m_connection.apiKey = m_state->apiKey;
        m_connection.apiSecret = o.value("apiSecret").toString();
        if (!saveState(&why)) {
            fail(QStringLiteral("Could not save the local profile's state: %1").arg(why));
            return;
        }
        probeLastPort();
    });
    connect(m_keysProcess.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && m_keysProcess) {
            m_keysProcess.release()->deleteLater();
            fail(QStringLiteral("Could not start %1").arg(m_servicePath));
        }
    });
    m_keysProcess->start(m_servicePath,
                         {QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--data-dir"),
                          m_dataDir, QStringLiteral("--project"), QStringLiteral("local"),
                          QStringLiteral("--role"), QStringLiteral("admin"), QStringLiteral("--json")});
}

void LocalServiceLauncher::probeLastPort() {
    if (m_state->lastPort <= 0) {
        spawn();
        return;
    }
    // A service from an earlier session (or another console) may still serve this data dir.
    m_connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_state->lastPort));
    m_client->setConnection(m_connection);
    m_client->describeProject()->then(this, [this](const ApiReply<Project>& r) {
        if (!r.isError() && QString::fromStdString(r.value().projectUid) == m_connection.projectUid) {
            emit progress(
                QStringLiteral("Using the local service already running on port %1").arg(m_state->lastPort));
            seedIfNeeded();
            return;
        }
        spawn();
    });
}

void LocalServiceLauncher::spawn() {
    if (!QFileInfo(m_servicePath).isExecutable()) {
        fail(QStringLiteral("The bundled jobdeckd was not found at %1").arg(m_servicePath));
        return;
    }
    emit progress(QStringLiteral("Starting the local service…"));
    m_output.clear();
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process.get(), &QProcess::readyRead, this, [this] {
        m_output += m_process->readAll();
        if (!m_starting || m_startTimer.isActive() == false)
            return;
        static const QRegularExpression listening(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
        const auto match = listening.match(QString::fromUtf8(m_output));
        if (!match.hasMatch())
            return;
        m_startTimer.stop();
        m_state->lastPort = match.captured(1).toInt();
        m_connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_state->lastPort));
        QString why;
        saveState(&why); // a lost port only costs a fresh start next time
        seedIfNeeded();
    });
    connect(m_process.get(), &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (m_starting) {
            m_startTimer.stop();
            fail(QStringLiteral("jobdeckd exited with status %1 while starting:\n%2")
                     .arg(code)
                     .arg(QString::fromUtf8(m_output.right(2000))));
        } else if (m_running) {
            m_running = false;
            emit exited(status == QProcess::CrashExit
                            ? QStringLiteral("jobdeckd was killed or crashed")
                            : QStringLiteral("jobdeckd exited with status %1").arg(code));
        }
    });
    // Output keeps flowing after start; keep only the tail for diagnostics.
    connect(m_process.get(), &QProcess::readyRead, this, [this] {
        if (m_output.size() > qsizetype{64} * 1024)
            m_output = m_output.right(qsizetype{16} * 1024);
    });
    m_startTimer.start(m_startTimeout);
    m_process->start(m_servicePath, {QStringLiteral("serve"), QStringLiteral("--listen"),
                                     QStringLiteral("127.0.0.1:0"), QStringLiteral("--data-dir"), m_dataDir});
}

void LocalServiceLauncher::seedIfNeeded() {
    m_client->setConnection(m_connection);
    installDemoApps();
    if (m_state->seeded) {
        finishReady();
        return;
    }
    emit progress(QStringLiteral("Adding demo data…"));
    seedStep(0);
}

void LocalServiceLauncher::installDemoApps() {
    // Where the service maps s3://demo-bucket/jobs/. A shipped file newer than the copy (an upgrade)
    // replaces it; a copy the user changed since is kept.
    const QDir target(QDir(m_dataDir).filePath(QStringLiteral("s3/demo-bucket/jobs")));
    QDir().mkpath(target.path());
    for (const char* name : {kDemoPython, kDemoJar}) {
        const QFileInfo shipped(QDir(m_demoDir).filePath(QLatin1String(name)));
        const QFileInfo copy(target.filePath(QLatin1String(name)));
        if (!shipped.isFile()) {
            emit progress(QStringLiteral("The demo application %1 is not installed; its demo jobs will fail")
                              .arg(shipped.filePath()));
            continue;
        }
        if (copy.exists() && copy.lastModified() >= shipped.lastModified())
            continue;
        QFile::remove(copy.filePath());
        if (!QFile::copy(shipped.filePath(), copy.filePath()))
            emit progress(QStringLiteral("Could not copy the demo application to %1").arg(copy.filePath()));
    }
}

void LocalServiceLauncher::seedStep(std::size_t index) {
    const auto statements = demoStatements();
    if (index >= statements.size()) {
        m_state->seeded = true;
        QString why;
        saveState(&why);
        finishReady();
        return;
    }
    m_client->execute(statements[index])->then(this, [this, index](const ApiReply<json>& r) {
        // A seeding interrupted last time left some of it behind; what exists already is fine.
        if (r.isError() && !r.error().message.contains(QLatin1String("already exists"))) {
            fail(QStringLiteral("Adding demo data failed: %1").arg(r.error().message));
            return;
        }
        seedStep(index + 1);
    });
}

void LocalServiceLauncher::finishReady() {
    m_starting = false;
    m_running = true;
    emit ready(m_connection);
}

void LocalServiceLauncher::fail(const QString& reason) {
    m_starting = false;
    stop();
    emit failed(reason);
}

void LocalServiceLauncher::stop() {
    m_running = false;
    m_startTimer.stop();
    if (!m_process)
        return;
    auto process = std::move(m_process);
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning) {
        process->terminate();
        if (!process->waitForFinished(5000)) {
            process->kill();
            process->waitForFinished(2000);
        }
    }
}

} // namespace jobdeck
