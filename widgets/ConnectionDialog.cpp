#include "widgets/ConnectionDialog.h"

#include "client/ConnectionProfiles.h"
#include "client/SecretStore.h"
#include "models/ThemeColors.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace jobdeck {

ConnectionDialog::ConnectionDialog(ConnectionProfiles* profiles, SecretStore* secrets, const QString& current,
                                   QWidget* parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_secrets(secrets)
    , m_list(new QListWidget(this))
    , m_name(new QLineEdit(this))
    , m_url(new QLineEdit(this))
    , m_project(new QLineEdit(this))
    , m_apiKey(new QLineEdit(this))
    , m_secret(new QLineEdit(this))
    , m_caFile(new QLineEdit(this))
    , m_browseCa(new QPushButton(tr("Browse…"), this))
    , m_localNote(new QLabel(this))
    , m_notice(new QLabel(this))
    , m_error(new QLabel(this))
    , m_save(new QPushButton(tr("Save profile"), this))
    , m_remove(new QPushButton(tr("Remove"), this)) {
    setObjectName(QStringLiteral("connectionDialog"));
    setWindowTitle(tr("Connect to a Jobs service"));
    m_list->setObjectName(QStringLiteral("profileList"));
    m_name->setObjectName(QStringLiteral("profileName"));
    m_url->setObjectName(QStringLiteral("profileUrl"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8420"));
    m_project->setObjectName(QStringLiteral("profileProject"));
    m_apiKey->setObjectName(QStringLiteral("profileApiKey"));
    m_secret->setObjectName(QStringLiteral("profileSecret"));
    m_secret->setEchoMode(QLineEdit::Password);
    m_caFile->setObjectName(QStringLiteral("profileCaFile"));
    m_caFile->setPlaceholderText(tr("https: the system's CAs only"));
    m_caFile->setToolTip(tr("A PEM file with the CA certificate that signed the service's certificate "
                            "(https), trusted besides the system's CAs."));
    m_browseCa->setObjectName(QStringLiteral("browseCaFile"));
    m_localNote->setObjectName(QStringLiteral("localNote"));
    m_localNote->setWordWrap(true);
    m_localNote->setText(
        tr("The console starts its own jobdeckd for this profile, with demo data, and stops it "
           "when the console closes."));
    m_notice->setObjectName(QStringLiteral("secretNotice"));
    m_notice->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("profileError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(
        QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette())));
    m_save->setObjectName(QStringLiteral("saveProfile"));
    m_remove->setObjectName(QStringLiteral("removeProfile"));

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("URL"), m_url);
    form->addRow(tr("Project uid"), m_project);
    form->addRow(tr("API key"), m_apiKey);
    form->addRow(tr("API secret"), m_secret);
    auto* caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile, 1);
    caRow->addWidget(m_browseCa);
    form->addRow(tr("CA certificate file"), caRow);
    auto* editButtons = new QHBoxLayout;
    auto* add = new QPushButton(tr("New profile"), this);
    add->setObjectName(QStringLiteral("newProfile"));
    editButtons->addWidget(add);
    editButtons->addWidget(m_save);
    editButtons->addWidget(m_remove);
    editButtons->addStretch(1);
    auto* right = new QVBoxLayout;
    right->addWidget(m_localNote);
    right->addLayout(form);
    right->addLayout(editButtons);
    right->addWidget(m_notice);
    right->addWidget(m_error);
    right->addStretch(1);
    auto* top = new QHBoxLayout;
    top->addWidget(m_list, 1);
    top->addLayout(right, 2);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton* connectButton = box->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    connectButton->setObjectName(QStringLiteral("connectProfile"));
    connectButton->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(box);

    connect(box, &QDialogButtonBox::accepted, this, &ConnectionDialog::connectToProfile);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::currentTextChanged, this, &ConnectionDialog::showProfile);
    connect(m_save, &QPushButton::clicked, this, &ConnectionDialog::saveForm);
    connect(m_browseCa, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("CA certificate file"), m_caFile->text(),
                                         tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!file.isEmpty())
            m_caFile->setText(file);
    });
    connect(add, &QPushButton::clicked, this, [this] {
        m_list->clearSelection();
        m_list->setCurrentRow(-1);
        showProfile({});
        m_name->setFocus();
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        QString error;
        if (!m_profiles->remove(selectedProfile(), &error)) {
            m_error->setText(error);
            return;
        }
        reload(ConnectionProfiles::kLocalName);
    });
    reload(current);
}

void ConnectionDialog::reload(const QString& select) {
    m_list->clear();
    for (const auto& p : m_profiles->profiles())
        m_list->addItem(p.name);
    const auto found = m_list->findItems(select, Qt::MatchExactly);
    m_list->setCurrentItem(found.isEmpty() ? m_list->item(0) : found.first());
    const QString notice = m_secrets->notice();
    m_notice->setText(notice);
    m_notice->setVisible(!notice.isEmpty());
}

void ConnectionDialog::showProfile(const QString& name) {
    m_error->clear();
    const bool local = ConnectionProfiles::isLocal(name);
    const auto profile = name.isEmpty() ? std::nullopt : m_profiles->profile(name);
    m_name->setText(profile ? profile->name : QString());
    m_url->setText(profile ? profile->url.toString() : QString());
    m_project->setText(profile ? profile->projectUid : QString());
    m_apiKey->setText(profile ? profile->apiKey : QString());
    m_caFile->setText(profile ? profile->caCertificateFile : QString());
    m_secret->clear();
    m_secret->setPlaceholderText(profile && !local ? tr("stored (type to replace)") : QString());
    for (QWidget* w :
         {static_cast<QWidget*>(m_name), static_cast<QWidget*>(m_url), static_cast<QWidget*>(m_project),
          static_cast<QWidget*>(m_apiKey), static_cast<QWidget*>(m_secret), static_cast<QWidget*>(m_caFile),
          static_cast<QWidget*>(m_browseCa), static_cast<QWidget*>(m_save)})
        w->setEnabled(!local);
    m_remove->setEnabled(profile && !local);
    m_localNote->setVisible(local);
}

bool ConnectionDialog::saveForm() {
    const QString name = m_name->text().trimmed();
    const bool exists = m_profiles->profile(name).has_value();
    std::optional<QString> secret;
    if (!m_secret->text().isEmpty())
        secret = m_secret->text();
    else if (!exists) {
        m_error->setText(tr("A new profile needs its API secret."));
        return false;
    }
    QString error;
    const ConnectionProfile profile{name, QUrl(m_url->text().trimmed()), m_project->text().trimmed(),
                                    m_apiKey->text().trimmed(), m_caFile->text().trimmed()};
    if (!m_profiles->save(profile, secret, &error)) {
        m_error->setText(error);
        return false;
    }
    reload(name);
    return true;
}

bool ConnectionDialog::formEdited() const {
    const QString name = m_name->text().trimmed();
    if (ConnectionProfiles::isLocal(selectedProfile()) && name == selectedProfile())
        return false;
    const auto stored = m_profiles->profile(name);
    if (!stored)
        return !name.isEmpty() || !m_url->text().trimmed().isEmpty();
    return name != selectedProfile() || !m_secret->text().isEmpty() ||
           QUrl(m_url->text().trimmed()) != stored->url ||
           m_project->text().trimmed() != stored->projectUid ||
           m_apiKey->text().trimmed() != stored->apiKey ||
           m_caFile->text().trimmed() != stored->caCertificateFile;
}

void ConnectionDialog::connectToProfile() {
    // Connect with a form typed or changed saves it first: connecting to the old profile, or nowhere,
    // would drop what was typed without a word.
    if (formEdited() && !saveForm())
        return;
    if (selectedProfile().isEmpty()) {
        m_error->setText(tr("Choose a profile, or fill in a new one: Connect saves it and connects."));
        return;
    }
    accept();
}

QString ConnectionDialog::selectedProfile() const {
    const QListWidgetItem* item = m_list->currentItem();
    return item ? item->text() : QString();
}

QString ConnectionDialog::errorText() const {
    return m_error->text();
}

} // namespace jobdeck
