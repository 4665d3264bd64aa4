#include "widgets/ConnectionDialog.h"

#include "client/ConnectionProfiles.h"
#include "client/SecretStore.h"
#include "models/ThemeColors.h"

#include "ui_ConnectionDialog.h"

#include <QFileDialog>
#include <QListWidget>
#include <QPushButton>

namespace jobdeck {

ConnectionDialog::ConnectionDialog(ConnectionProfiles* profiles, SecretStore* secrets, const QString& current,
                                   QWidget* parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_secrets(secrets)
    , m_ui(std::make_unique<Ui::ConnectionDialog>()) {
    m_ui->setupUi(this); // widgets/ConnectionDialog.ui
    m_urlPlaceholder = m_ui->profileUrl->placeholderText();
    m_ui->profileError->setStyleSheet(
        QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette())));
    connect(m_ui->connectProfile, &QPushButton::clicked, this, &ConnectionDialog::connectToProfile);
    connect(m_ui->cancelButton, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_ui->profileList, &QListWidget::currentTextChanged, this, &ConnectionDialog::showProfile);
    connect(m_ui->saveProfile, &QPushButton::clicked, this, &ConnectionDialog::saveForm);
    connect(m_ui->browseCaFile, &QPushButton::clicked, this, &ConnectionDialog::browseCaFile);
    connect(m_ui->newProfile, &QPushButton::clicked, this, &ConnectionDialog::newProfile);
    connect(m_ui->removeProfile, &QPushButton::clicked, this, &ConnectionDialog::removeProfile);
    reload(current);
}

ConnectionDialog::~ConnectionDialog() = default;

void ConnectionDialog::showLocalServiceAt(const QUrl& url) {
    m_localServiceUrl = url;
    if (ConnectionProfiles::isLocal(selectedProfile()))
        showProfile(selectedProfile());
}

void ConnectionDialog::browseCaFile() {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("CA certificate file"), m_ui->profileCaFile->text(),
                                     tr("PEM certificates (*.pem *.crt);;All files (*)"));
    if (!file.isEmpty())
        m_ui->profileCaFile->setText(file);
}

void ConnectionDialog::newProfile() {
    m_ui->profileList->clearSelection();
    m_ui->profileList->setCurrentRow(-1);
    showProfile({});
    m_ui->profileName->setFocus();
}

void ConnectionDialog::removeProfile() {
    QString error;
    if (!m_profiles->remove(selectedProfile(), &error)) {
        m_ui->profileError->setText(error);
        return;
    }
    reload(ConnectionProfiles::kLocalName);
}

void ConnectionDialog::reload(const QString& select) {
    m_ui->profileList->clear();
    for (const auto& p : m_profiles->profiles())
        m_ui->profileList->addItem(p.name);
    const auto found = m_ui->profileList->findItems(select, Qt::MatchExactly);
    m_ui->profileList->setCurrentItem(found.isEmpty() ? m_ui->profileList->item(0) : found.first());
    const QString notice = m_secrets->notice();
    m_ui->secretNotice->setText(notice);
    m_ui->secretNotice->setVisible(!notice.isEmpty());
}

void ConnectionDialog::showProfile(const QString& name) {
    m_ui->profileError->clear();
    const bool local = ConnectionProfiles::isLocal(name);
    const auto profile = name.isEmpty() ? std::nullopt : m_profiles->profile(name);
    m_ui->profileName->setText(profile ? profile->name : QString());
    m_ui->profileUrl->setText(profile ? profile->url.toString() : QString());
    m_ui->profileUrl->setPlaceholderText(!local ? m_urlPlaceholder
                                         : m_localServiceUrl.isEmpty()
                                             ? tr("a free port, chosen when it starts")
                                             : m_localServiceUrl.toString());
    m_ui->profileProject->setText(profile ? profile->projectUid : QString());
    m_ui->profileApiKey->setText(profile ? profile->apiKey : QString());
    m_ui->profileCaFile->setText(profile ? profile->caCertificateFile : QString());
    m_ui->profileSecret->clear();
    m_ui->profileSecret->setPlaceholderText(profile && !local ? tr("stored (type to replace)") : QString());
    for (QWidget* w : std::initializer_list<QWidget*>{
             m_ui->profileName, m_ui->profileUrl, m_ui->profileProject, m_ui->profileApiKey,
             m_ui->profileSecret, m_ui->profileCaFile, m_ui->browseCaFile, m_ui->saveProfile})
        w->setEnabled(!local);
    m_ui->removeProfile->setEnabled(profile && !local);
    m_ui->localNote->setVisible(local);
}

bool ConnectionDialog::saveForm() {
    const QString name = m_ui->profileName->text().trimmed();
    const bool exists = m_profiles->profile(name).has_value();
    std::optional<QString> secret;
    if (!m_ui->profileSecret->text().isEmpty())
        secret = m_ui->profileSecret->text();
    else if (!exists) {
        m_ui->profileError->setText(tr("A new profile needs its API secret."));
        return false;
    }
    QString error;
    const ConnectionProfile profile{
        name, QUrl(m_ui->profileUrl->text().trimmed()), m_ui->profileProject->text().trimmed(),
        m_ui->profileApiKey->text().trimmed(), m_ui->profileCaFile->text().trimmed()};
    if (!m_profiles->save(profile, secret, &error)) {
        m_ui->profileError->setText(error);
        return false;
    }
    reload(name);
    return true;
}

bool ConnectionDialog::formEdited() const {
    const QString name = m_ui->profileName->text().trimmed();
    if (ConnectionProfiles::isLocal(selectedProfile()) && name == selectedProfile())
        return false;
    const auto stored = m_profiles->profile(name);
    if (!stored)
        return !name.isEmpty() || !m_ui->profileUrl->text().trimmed().isEmpty();
    return name != selectedProfile() || !m_ui->profileSecret->text().isEmpty() ||
           QUrl(m_ui->profileUrl->text().trimmed()) != stored->url ||
           m_ui->profileProject->text().trimmed() != stored->projectUid ||
           m_ui->profileApiKey->text().trimmed() != stored->apiKey ||
           m_ui->profileCaFile->text().trimmed() != stored->caCertificateFile;
}

void ConnectionDialog::connectToProfile() {
    // Connect with a form typed or changed saves it first: connecting to the old profile, or nowhere,
    // would drop what was typed without a word.
    if (formEdited() && !saveForm())
        return;
    if (selectedProfile().isEmpty()) {
        m_ui->profileError->setText(
            tr("Choose a profile, or fill in a new one: Connect saves it and connects."));
        return;
    }
    accept();
}

QString ConnectionDialog::selectedProfile() const {
    const QListWidgetItem* item = m_ui->profileList->currentItem();
    return item ? item->text() : QString();
}

QString ConnectionDialog::errorText() const {
    return m_ui->profileError->text();
}

} // namespace jobdeck
