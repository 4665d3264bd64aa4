#pragma once

#include <QDialog>
#include <QUrl>

#include <memory>

namespace Ui {
class ConnectionDialog;
}

namespace jobdeck {

class ConnectionProfiles;
class SecretStore;

// Chooses, adds, edits and removes connection profiles. The secret field stays empty for a saved
// profile ("unchanged"); typing into it replaces the stored secret. Where secrets go is shown when it
// is the file fallback. Accepting means "connect with selectedProfile()".
class ConnectionDialog final : public QDialog {
    Q_OBJECT
public:
    ConnectionDialog(ConnectionProfiles* profiles, SecretStore* secrets, const QString& current,
                     QWidget* parent = nullptr);
    ~ConnectionDialog() override;

    QString selectedProfile() const;
    // Saves the form as a profile; false (and the reason shown in the dialog) when it cannot.
    bool saveForm();
    QString errorText() const;
    // Where the Local profile's jobdeckd listens this session (a free port chosen when it started), shown in
    // place of a URL the profile does not keep.
    void showLocalServiceAt(const QUrl& url);

private:
    // Whether the form differs from the selected profile (a new one typed, or a field changed).
    bool formEdited() const;
    // The Connect button: saves an edited form, then accepts with its profile selected.
    void connectToProfile();
    void reload(const QString& select);
    void showProfile(const QString& name);
    void browseCaFile();
    void newProfile(); // an empty form, to fill in
    void removeProfile();

    ConnectionProfiles* m_profiles;
    SecretStore* m_secrets;
    QString m_urlPlaceholder; // the .ui's example, for the other profiles
    QUrl m_localServiceUrl;
    std::unique_ptr<Ui::ConnectionDialog> m_ui; // widgets/ConnectionDialog.ui
};

} // namespace jobdeck
