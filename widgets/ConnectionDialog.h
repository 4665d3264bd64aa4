#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

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

    QString selectedProfile() const;
    // Saves the form as a profile; false (and the reason shown in the dialog) when it cannot.
    bool saveForm();
    QString errorText() const;

private:
    // Whether the form differs from the selected profile (a new one typed, or a field changed).
    bool formEdited() const;
    // The Connect button: saves an edited form, then accepts with its profile selected.
    void connectToProfile();
    void reload(const QString& select);
    void showProfile(const QString& name);

    ConnectionProfiles* m_profiles;
    SecretStore* m_secrets;
    QListWidget* m_list;
    QLineEdit* m_name;
    QLineEdit* m_url;
    QLineEdit* m_project;
    QLineEdit* m_apiKey;
    QLineEdit* m_secret;
    QLineEdit* m_caFile;
    QPushButton* m_browseCa;
    QLabel* m_localNote;
    QLabel* m_notice;
    QLabel* m_error;
    QPushButton* m_save;
    QPushButton* m_remove;
};

} // namespace jobdeck
