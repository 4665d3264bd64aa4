#pragma once

#include "client/ConnectionInfo.h"
#include "client/ConnectionProfile.h"

#include <QList>
#include <QSettings>
#include <QString>

#include <memory>
#include <optional>

namespace jobdeck {

class SecretStore;

// The saved connection profiles (QSettings) with their secrets in a SecretStore.
// "Local" is built in: the console starts its own jobdeckd for it (LocalServiceLauncher), so it has
// no stored URL or credentials and cannot be saved over or removed.
class ConnectionProfiles final {
public:
    static inline const QString kLocalName = QStringLiteral("Local");

    // settingsFile: an INI file (tests); empty for the user's normal settings.
    explicit ConnectionProfiles(SecretStore* secrets, const QString& settingsFile = {});
    ~ConnectionProfiles();

    // "Local" first, then the saved ones by name.
    QList<ConnectionProfile> profiles() const;
    std::optional<ConnectionProfile> profile(const QString& name) const;
    static bool isLocal(const QString& name) { return name == kLocalName; }

    // secret: nullopt keeps the stored one (editing a profile without retyping its secret).
    bool save(const ConnectionProfile& profile, const std::optional<QString>& secret,
              QString* error = nullptr);
    bool remove(const QString& name, QString* error = nullptr);
    // A saved profile with its secret; error says what is missing.
    std::optional<ConnectionInfo> connectionInfo(const QString& name, QString* error = nullptr) const;

    QString lastUsed() const;
    void setLastUsed(const QString& name);

    static QString secretAccount(const QString& profileName) {
        return QStringLiteral("profile:") + profileName;
    }

private:
    SecretStore* m_secrets;
    std::unique_ptr<QSettings> m_settings;
};

} // namespace jobdeck
