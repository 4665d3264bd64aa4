#include "client/ConnectionProfiles.h"

#include "client/SecretStore.h"
#include "client/TlsTrust.h"

#include <algorithm>

namespace jobdeck {

namespace {

void setError(QString* error, const QString& text) {
    if (error)
        *error = text;
}

const QString kGroup = QStringLiteral("profiles");

void writeAll(QSettings& settings, const QList<ConnectionProfile>& saved) {
    settings.remove(kGroup);
    settings.beginWriteArray(kGroup, static_cast<int>(saved.size()));
    for (int i = 0; i < saved.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue("name", saved[i].name);
        settings.setValue("url", saved[i].url);
        settings.setValue("projectUid", saved[i].projectUid);
        settings.setValue("apiKey", saved[i].apiKey);
        settings.setValue("caCertificateFile", saved[i].caCertificateFile);
    }
    settings.endArray();
    settings.sync();
}

} // namespace

ConnectionProfiles::ConnectionProfiles(SecretStore* secrets, const QString& settingsFile)
    : m_secrets(secrets)
    , m_settings(settingsFile.isEmpty()
                     ? std::make_unique<QSettings>(QStringLiteral("jobdeck"), QStringLiteral("jobdeck"))
                     : std::make_unique<QSettings>(settingsFile, QSettings::IniFormat)) {}

ConnectionProfiles::~ConnectionProfiles() = default;

QList<ConnectionProfile> ConnectionProfiles::profiles() const {
    QList<ConnectionProfile> result{ConnectionProfile{kLocalName, {}, {}, {}}};
    QList<ConnectionProfile> saved;
    const int n = m_settings->beginReadArray(kGroup);
    for (int i = 0; i < n; ++i) {
        m_settings->setArrayIndex(i);
        saved.append({m_settings->value("name").toString(), m_settings->value("url").toUrl(),
                      m_settings->value("projectUid").toString(), m_settings->value("apiKey").toString(),
                      m_settings->value("caCertificateFile").toString()});
    }
    m_settings->endArray();
    std::sort(saved.begin(), saved.end(),
              [](const auto& a, const auto& b) { return a.name.compare(b.name, Qt::CaseInsensitive) < 0; });
    return result + saved;
}

std::optional<ConnectionProfile> ConnectionProfiles::profile(const QString& name) const {
    for (const auto& p : profiles())
        if (p.name == name)
            return p;
    return std::nullopt;
}

bool ConnectionProfiles::save(const ConnectionProfile& profile, const std::optional<QString>& secret,
                              QString* error) {
    if (profile.name.trimmed().isEmpty()) {
        setError(error, QStringLiteral("A profile needs a name."));
        return false;
    }
    if (isLocal(profile.name)) {
        setError(error, QStringLiteral("\"Local\" is the built-in profile; choose another name."));
        return false;
    }
    const QString scheme = profile.url.scheme();
    if (!profile.url.isValid() || profile.url.host().isEmpty() ||
        (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        setError(error, QStringLiteral("The URL must look like http://host:port, got \"%1\".")
                            .arg(profile.url.toString()));
        return false;
    }
    if (profile.projectUid.trimmed().isEmpty() || profile.apiKey.trimmed().isEmpty()) {
        setError(error, QStringLiteral("A profile needs the project uid and the API key."));
        return false;
    }
    if (!profile.caCertificateFile.isEmpty()) {
        if (const QString why = TlsTrust::caCertificateProblem(profile.caCertificateFile); !why.isEmpty()) {
            setError(error, why);
            return false;
        }
    }
    if (secret) {
        QString why;
        if (!m_secrets->write(secretAccount(profile.name), *secret, &why)) {
            setError(error, QStringLiteral("Could not store the API secret: %1").arg(why));
            return false;
        }
    }
    QList<ConnectionProfile> saved = profiles().mid(1);
    saved.erase(
        std::remove_if(saved.begin(), saved.end(), [&](const auto& p) { return p.name == profile.name; }),
        saved.end());
    saved.append(profile);
    writeAll(*m_settings, saved);
    return true;
}

bool ConnectionProfiles::remove(const QString& name, QString* error) {
    if (isLocal(name)) {
        setError(error, QStringLiteral("The built-in \"Local\" profile cannot be removed."));
        return false;
    }
    QList<ConnectionProfile> saved = profiles().mid(1);
    const auto before = saved.size();
    saved.erase(std::remove_if(saved.begin(), saved.end(), [&](const auto& p) { return p.name == name; }),
                saved.end());
    if (saved.size() == before) {
        setError(error, QStringLiteral("There is no profile named \"%1\".").arg(name));
        return false;
    }
    writeAll(*m_settings, saved);
    return m_secrets->remove(secretAccount(name), error);
}

std::optional<ConnectionInfo> ConnectionProfiles::connectionInfo(const QString& name, QString* error) const {
    const auto p = profile(name);
    if (!p || isLocal(name)) {
        setError(error, p ? QStringLiteral("The Local profile is started by the console, not stored.")
                          : QStringLiteral("There is no profile named \"%1\".").arg(name));
        return std::nullopt;
    }
    QString why;
    const auto secret = m_secrets->read(secretAccount(name), &why);
    if (!secret) {
        setError(error, why.isEmpty()
                            ? QStringLiteral("No API secret is stored for the profile \"%1\".").arg(name)
                            : QStringLiteral("Could not read the API secret: %1").arg(why));
        return std::nullopt;
    }
    return ConnectionInfo{p->url, p->projectUid, p->apiKey, *secret, p->caCertificateFile};
}

QString ConnectionProfiles::lastUsed() const {
    return m_settings->value("lastProfile", kLocalName).toString();
}

void ConnectionProfiles::setLastUsed(const QString& name) {
    m_settings->setValue("lastProfile", name);
    m_settings->sync();
}

} // namespace jobdeck
