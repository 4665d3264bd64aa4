#include "client/SecretStore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#ifdef JOBDECK_HAVE_QTKEYCHAIN
#include <QEventLoop>
#include <QTimer>
#include <qt6keychain/keychain.h>
#endif

namespace jobdeck {

namespace {

constexpr auto kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

void setError(QString* error, const QString& text) {
    if (error)
        *error = text;
}

#ifdef JOBDECK_HAVE_QTKEYCHAIN
// Runs a keychain job to its end, bounded: a keychain that does not answer counts as absent.
bool runJob(QKeychain::Job& job, QString* error) {
    QEventLoop loop;
    bool done = false;
    QObject::connect(&job, &QKeychain::Job::finished, &loop, [&] {
        done = true;
        loop.quit();
    });
    QTimer::singleShot(5000, &loop, &QEventLoop::quit);
    job.setAutoDelete(false);
    job.start();
    if (!done)
        loop.exec();
    if (!done) {
        setError(error, QStringLiteral("the system keychain did not answer"));
        return false;
    }
    return true;
}
#endif

} // namespace

SecretStore::SecretStore(QString directory, std::optional<Backend> forced, QString service)
    : m_directory(std::move(directory))
    , m_service(std::move(service))
    , m_backend(forced.value_or(keychainCompiledIn() ? Backend::Keychain : Backend::File))
    , m_forced(forced.has_value()) {
    if (!keychainCompiledIn() && m_backend == Backend::Keychain)
        m_backend = Backend::File;
    if (!forced && !keychainCompiledIn())
        m_fallbackReason = QStringLiteral("this build has no keychain support");
}

bool SecretStore::keychainCompiledIn() {
#ifdef JOBDECK_HAVE_QTKEYCHAIN
    return true;
#else
    return false;
#endif
}

QString SecretStore::filePath() const {
    return QDir(m_directory).filePath(QStringLiteral("secrets.json"));
}

QString SecretStore::notice() const {
    if (m_backend == Backend::Keychain)
        return {};
    QString text = QStringLiteral("API secrets are stored in %1, readable only by you").arg(filePath());
    if (!m_fallbackReason.isEmpty())
        text += QStringLiteral(", because %1").arg(m_fallbackReason);
    return text + QLatin1Char('.');
}

void SecretStore::fallBackToFile(const QString& why) {
    m_backend = Backend::File;
    m_fallbackReason = why;
}

bool SecretStore::write(const QString& account, const QString& secret, QString* error) {
#ifdef JOBDECK_HAVE_QTKEYCHAIN
    if (m_backend == Backend::Keychain) {
        QKeychain::WritePasswordJob job(m_service);
        job.setKey(account);
        job.setTextData(secret);
        QString why;
        if (runJob(job, &why) && job.error() == QKeychain::NoError)
            return true;
        if (m_forced) {
            setError(error, why.isEmpty() ? job.errorString() : why);
            return false;
        }
        fallBackToFile(
            QStringLiteral("no system keychain answered (%1)").arg(why.isEmpty() ? job.errorString() : why));
    }
#endif
    return writeFile(account, secret, error);
}

std::optional<QString> SecretStore::read(const QString& account, QString* error) {
#ifdef JOBDECK_HAVE_QTKEYCHAIN
    if (m_backend == Backend::Keychain) {
        QKeychain::ReadPasswordJob job(m_service);
        job.setKey(account);
        QString why;
        if (runJob(job, &why)) {
            if (job.error() == QKeychain::NoError)
                return job.textData();
            if (job.error() == QKeychain::EntryNotFound)
                return readFile(account, error); // written while the keychain was away
        }
        if (m_forced) {
            setError(error, why.isEmpty() ? job.errorString() : why);
            return std::nullopt;
        }
        fallBackToFile(
            QStringLiteral("no system keychain answered (%1)").arg(why.isEmpty() ? job.errorString() : why));
    }
#endif
    return readFile(account, error);
}

bool SecretStore::remove(const QString& account, QString* error) {
#ifdef JOBDECK_HAVE_QTKEYCHAIN
    if (m_backend == Backend::Keychain) {
        QKeychain::DeletePasswordJob job(m_service);
        job.setKey(account);
        runJob(job, nullptr);
    }
#endif
    // Also from the file, where an older copy may be.
    return writeFile(account, std::nullopt, error);
}

std::optional<QString> SecretStore::readFile(const QString& account, QString* error) const {
    QFile file(filePath());
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly)) {
        setError(error, QStringLiteral("cannot read %1: %2").arg(file.fileName(), file.errorString()));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject()) {
        setError(
            error,
            QStringLiteral("%1 is not a JSON object: %2").arg(file.fileName(), parseError.errorString()));
        return std::nullopt;
    }
    const QJsonValue value = doc.object().value(account);
    if (!value.isString())
        return std::nullopt;
    return value.toString();
}

bool SecretStore::writeFile(const QString& account, const std::optional<QString>& secret, QString* error) {
    QDir dir(m_directory);
    if (!dir.exists() && !dir.mkpath(QStringLiteral("."))) {
        setError(error, QStringLiteral("cannot create %1").arg(m_directory));
        return false;
    }
    QFile::setPermissions(m_directory,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QJsonObject all;
    {
        QFile existing(filePath());
        if (existing.open(QIODevice::ReadOnly))
            all = QJsonDocument::fromJson(existing.readAll()).object();
    }
    if (secret)
        all.insert(account, *secret);
    else if (!all.contains(account))
        return true;
    else
        all.remove(account);
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly)) {
        setError(error, QStringLiteral("cannot write %1: %2").arg(filePath(), file.errorString()));
        return false;
    }
    // Restrict the temporary file before any secret is in it; the rename keeps its mode.
    file.setPermissions(kOwnerOnly);
    file.write(QJsonDocument(all).toJson());
    if (!file.commit()) {
        setError(error, QStringLiteral("cannot write %1: %2").arg(filePath(), file.errorString()));
        return false;
    }
    return QFile::setPermissions(filePath(), kOwnerOnly);
}

} // namespace jobdeck
