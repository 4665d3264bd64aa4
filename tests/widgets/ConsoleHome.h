#pragma once

#include "client/ConnectionProfiles.h"
#include "client/SecretStore.h"
#include "tests/support/TestService.h"
#include "widgets/MainWindow.h"

#include <QTemporaryDir>

namespace jobdeck::test {

// A console's own home for one test suite: a settings file and file-backed secrets in a temporary
// directory, so the user's profiles and keyring are never read or written.
class ConsoleHome final {
public:
    bool isValid() const { return m_dir.isValid(); }
    QString filePath(const QString& name) const { return m_dir.filePath(name); }
    QString secretsDir() const { return filePath(QStringLiteral("secrets")); }

    // The main window's options for opening `profile` from this home.
    MainWindow::Options options(const QString& profile) const {
        MainWindow::Options o;
        o.profile = profile;
        o.settingsFile = filePath(QStringLiteral("settings.ini"));
        o.secretsDir = secretsDir();
        o.secretBackend = SecretStore::Backend::File;
        return o;
    }

    // Saves a profile named `name` for `service` with `credentials`, as the connection dialog would.
    bool saveProfile(const QString& name, const TestService& service, const ApiCredentials& credentials,
                     QString* error) const {
        SecretStore secrets(secretsDir(), SecretStore::Backend::File);
        ConnectionProfiles profiles(&secrets, filePath(QStringLiteral("settings.ini")));
        return profiles.save({name, service.baseUrl(), credentials.projectUid, credentials.apiKey},
                             credentials.apiSecret, error);
    }

private:
    QTemporaryDir m_dir;
};

} // namespace jobdeck::test
