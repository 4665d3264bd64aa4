#include "tests/support/TestService.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

namespace jobdeck {

QList<QPair<QByteArray, QByteArray>> ApiCredentials::headers() const {
    return {{"x-onehouse-project-uid", projectUid.toUtf8()},
            {"x-onehouse-api-key", apiKey.toUtf8()},
            {"x-onehouse-api-secret", apiSecret.toUtf8()}};
}

TestService::TestService(QStringList extraArguments)
    : m_extraArguments(std::move(extraArguments)) {}

QString TestService::runMonitorPath() {
    return QStringLiteral(JOBDECK_RUN_MONITOR_PATH);
}

TestService::~TestService() {
    if (isRunning())
        stop();
    keepLog();
}

// JOBDECK_TEST_KEEP_LOGS=<dir> keeps each service's stderr log, which its temporary directory takes
// with it otherwise: what a failure under load needs to be understood.
void TestService::keepLog() const {
    const QString into = qEnvironmentVariable("JOBDECK_TEST_KEEP_LOGS");
    if (into.isEmpty() || !QDir().mkpath(into))
        return;
    const QString name = QStringLiteral("%1-%2-%3.stderr.log")
                             .arg(QCoreApplication::applicationName())
                             .arg(QCoreApplication::applicationPid())
                             .arg(QFileInfo(m_dir.path()).fileName());
    QFile::copy(m_dir.filePath(QStringLiteral("jobdeckd.stderr.log")), QDir(into).filePath(name));
}

QString TestService::dataDir() const {
    return m_dir.filePath(QStringLiteral("data"));
}

QUrl TestService::baseUrl() const {
    return QUrl(QStringLiteral("%1://127.0.0.1:%2").arg(m_https ? "https" : "http").arg(m_port));
}

void TestService::useTls(const QString& certificateFile, const QString& keyFile) {
    m_extraArguments += {QStringLiteral("--tls-cert"), certificateFile, QStringLiteral("--tls-key"), keyFile};
    m_https = true;
}

QUrl TestService::url(const QString& path, const QString& query) const {
    QUrl result = baseUrl();
    result.setPath(path);
    if (!query.isEmpty())
        result.setQuery(query);
    return result;
}

QString TestService::errorOutput() const {
    QFile log(m_dir.filePath(QStringLiteral("jobdeckd.stderr.log")));
    return log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString();
}

QString TestService::extraDatabaseUri() const {
    const qsizetype at = m_extraArguments.indexOf(QStringLiteral("--database"));
    return at >= 0 && at + 1 < m_extraArguments.size() ? m_extraArguments.at(at + 1) : QString();
}

QString TestService::databaseUri() const {
    if (const QString extra = extraDatabaseUri(); !extra.isEmpty())
        return extra;
    if (isPostgresBackend())
        return m_postgresUri;
    return QStringLiteral("sqlite:") + dataDir() + QStringLiteral("/jobdeck.db");
}

bool TestService::appendOwnDatabase(QStringList& arguments) {
    if (const QString problem = TestBackend::configurationError(); !problem.isEmpty()) {
        m_lastError = problem;
        return false;
    }
    if (!isPostgresBackend() || !extraDatabaseUri().isEmpty())
        return true;
    if (m_postgresUri.isEmpty())
        m_postgresUri = TestBackend::createPostgresDatabase(m_lastError);
    if (m_postgresUri.isEmpty())
        return false;
    arguments += {QStringLiteral("--database"), m_postgresUri};
    return true;
}

bool TestService::isRunning() const {
    return m_process && m_process->state() != QProcess::NotRunning;
}

// On this TestService's reserved port (PortReservation), kept across starts, so no other suite's
// server takes it while the service is stopped; another one when a process outside the tests holds it.
bool TestService::start(int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (m_portReservation.port() == 0 && m_portReservation.reserve() == 0) {
            m_lastError = QStringLiteral("no free loopback port to reserve");
            return false;
        }
        const qsizetype logged = errorOutput().size();
        if (launch(m_portReservation.port(),
                   static_cast<int>(std::max<qint64>(1000, deadline.remainingTime()))))
            return true;
        if (!errorOutput().mid(logged).contains(QLatin1String("cannot listen on")) || deadline.hasExpired())
            return false;
        m_portReservation.release();
    }
    return false;
}

bool TestService::startOnNewPort(int timeoutMs) {
    m_portReservation.release();
    return start(timeoutMs);
}

bool TestService::restart(int timeoutMs) {
    if (m_port == 0) {
        m_lastError = QStringLiteral("restart() needs an earlier successful start()");
        return false;
    }
    if (isRunning())
        stop(timeoutMs);
    return startOn(m_port, timeoutMs);
}

bool TestService::startOn(quint16 port, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        const qsizetype logged = errorOutput().size();
        if (launch(port, static_cast<int>(std::max<qint64>(1000, deadline.remainingTime()))))
            return true;
        // Only a port still held is worth another try; anything else is the service's own failure.
        const bool portBusy = errorOutput().mid(logged).contains(QLatin1String("cannot listen on"));
        if (port == 0 || !portBusy || deadline.hasExpired())
            return false;
        QThread::msleep(100);
    }
}

bool TestService::launch(quint16 port, int timeoutMs) {
    m_lastError.clear();
    if (isRunning()) {
        m_lastError = QStringLiteral("already running");
        return false;
    }
    if (!m_dir.isValid()) {
        m_lastError = QStringLiteral("cannot create a temporary directory");
        return false;
    }
    QStringList arguments{QStringLiteral("serve"), QStringLiteral("--listen"),
                          QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("--data-dir"), dataDir()};
    if (!appendOwnDatabase(arguments))
        return false;
    // The stand-in spark-submit finds its state through this variable, which drivers and spark-submit
    // get only when named (docs/service.md, "The driver's environment").
    if (qEnvironmentVariableIsSet("JOBDECK_STANDIN_SPARK_HOME"))
        arguments += {QStringLiteral("--driver-env"), QStringLiteral("JOBDECK_STANDIN_SPARK_HOME")};
    arguments += m_extraArguments;
    m_lastArguments = arguments;
    m_process = std::make_unique<QProcess>();
    m_process->setStandardErrorFile(m_dir.filePath(QStringLiteral("jobdeckd.stderr.log")), QIODevice::Append);
    if (m_commandPrefix.isEmpty())
        m_process->start(QStringLiteral(JOBDECKD_PATH), arguments);
    else
        m_process->start(m_commandPrefix.first(),
                         m_commandPrefix.mid(1) + QStringList{QStringLiteral(JOBDECKD_PATH)} + arguments);
    if (!m_process->waitForStarted(timeoutMs)) {
        m_lastError = QStringLiteral("jobdeckd did not start: ") + m_process->errorString();
        return false;
    }
    static const QRegularExpression listening(QStringLiteral("^listening on 127\\.0\\.0\\.1:(\\d+)$"));
    QByteArray output;
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        m_process->waitForReadyRead(100);
        output += m_process->readAllStandardOutput();
        for (const QByteArray& line : output.split('\n')) {
            const auto match = listening.match(QString::fromUtf8(line.trimmed()));
            if (match.hasMatch()) {
                m_port = static_cast<quint16>(match.captured(1).toUInt());
                return true;
            }
        }
        if (m_process->state() == QProcess::NotRunning) {
            m_lastError = QStringLiteral("jobdeckd exited with status %1: %2")
                              .arg(m_process->exitCode())
                              .arg(errorOutput().trimmed().section(QLatin1Char('\n'), -3));
            return false;
        }
    }
    m_lastError = QStringLiteral("jobdeckd did not print its listening line within %1 ms").arg(timeoutMs);
    m_process->kill();
    m_process->waitForFinished(5000);
    return false;
}

int TestService::stop(int timeoutMs) {
    if (!isRunning())
        return m_process && m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
    m_process->terminate();
    if (!m_process->waitForFinished(timeoutMs)) {
        m_process->kill();
        m_process->waitForFinished(5000);
        return -1;
    }
    return m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
}

void TestService::kill9() {
    if (!isRunning())
        return;
    m_process->kill();
    m_process->waitForFinished(5000);
}

ApiCredentials TestService::createKey(const QString& project, const QString& role) {
    QStringList arguments{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--data-dir"),
                          dataDir()};
    if (const QString extra = extraDatabaseUri(); !extra.isEmpty())
        arguments += {QStringLiteral("--database"), extra};
    else if (!appendOwnDatabase(arguments))
        return {};
    arguments +=
        {QStringLiteral("--project"), project, QStringLiteral("--role"), role, QStringLiteral("--json")};
    m_lastArguments = arguments;
    const Exit exit = runJobdeckd(arguments);
    if (exit.status != 0) {
        m_lastError = QStringLiteral("keys create failed: ") + QString::fromUtf8(exit.err.trimmed());
        return {};
    }
    const QJsonObject object = QJsonDocument::fromJson(exit.out).object();
    return ApiCredentials{object.value(QStringLiteral("projectUid")).toString(),
                          object.value(QStringLiteral("apiKey")).toString(),
                          object.value(QStringLiteral("apiSecret")).toString(),
                          object.value(QStringLiteral("role")).toString()};
}

TestService::Exit TestService::runJobdeckd(const QStringList& arguments, int timeoutMs) {
    QProcess process;
    process.start(QStringLiteral(JOBDECKD_PATH), arguments);
    Exit exit;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
    } else if (process.exitStatus() == QProcess::NormalExit) {
        exit.status = process.exitCode();
    }
    exit.out = process.readAllStandardOutput();
    exit.err = process.readAllStandardError();
    return exit;
}

} // namespace jobdeck
