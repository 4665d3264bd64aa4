#include "widgets/AboutDialog.h"

#include "client/ApiClient.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSysInfo>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtGlobal>

namespace jobdeck {

namespace {

struct Library {
    const char* name;
    const char* usedBy;
    const char* licence;
};

// What the console and jobdeckd are built with; optional ones only when this build has them.
QList<Library> libraries() {
    QList<Library> list{
        {"Qt 6 (Core, Gui, Widgets, Network, Concurrent)", "console", "LGPL-3.0-only"},
        {"nlohmann/json", "console, service", "MIT"},
        {"Boost (Beast, Asio)", "service", "BSL-1.0"},
        {"SQLite", "service", "Public domain"},
        {"CLI11", "service", "BSD-3-Clause"},
        {"spdlog", "service", "MIT"},
        {"{fmt}", "service", "MIT"},
        {"OpenSSL", "service", "Apache-2.0"},
        {"libpq (PostgreSQL)", "service", "PostgreSQL"},
        {"Apache Hudi and Apache Flink configuration documentation (catalogues)", "console, service",
         "Apache-2.0"},
    };
#ifdef JOBDECK_HAVE_QTKEYCHAIN
    list.append({"QtKeychain", "console", "BSD-3-Clause"});
#endif
#ifdef JOBDECK_HAVE_QTDBUS
    list.append({"Qt 6 D-Bus", "console", "LGPL-3.0-only"});
#endif
#ifdef JOBDECK_HAVE_KSYNTAXHIGHLIGHTING
    list.append({"KSyntaxHighlighting", "console", "MIT"});
#endif
    return list;
}

} // namespace

AboutDialog::AboutDialog(ApiClient* client, QWidget* parent)
    : QDialog(parent)
    , m_console(new QLabel(this))
    , m_service(new QLabel(this))
    , m_licences(new QTableWidget(this)) {
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About Jobdeck"));
    auto* title =
        new QLabel(tr("<h2>Jobdeck</h2><p>The console for Spark jobs on Apache Hudi lakehouses.</p>"), this);
    m_console->setObjectName(QStringLiteral("consoleVersion"));
    m_console->setText(
        tr("Console %1 (Qt %2)").arg(QStringLiteral(JOBDECK_VERSION), QString::fromLatin1(qVersion())));
    m_service->setObjectName(QStringLiteral("serviceVersion"));
    m_service->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_licences->setObjectName(QStringLiteral("licencesTable"));
    m_licences->setColumnCount(3);
    m_licences->setHorizontalHeaderLabels({tr("Library"), tr("Used by"), tr("Licence")});
    m_licences->verticalHeader()->hide();
    m_licences->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_licences->setSelectionBehavior(QAbstractItemView::SelectRows);
    const QList<Library> libs = libraries();
    m_licences->setRowCount(int(libs.size()));
    for (int row = 0; row < libs.size(); ++row) {
        m_licences->setItem(row, 0, new QTableWidgetItem(QString::fromUtf8(libs[row].name)));
        m_licences->setItem(row, 1, new QTableWidgetItem(QString::fromUtf8(libs[row].usedBy)));
        m_licences->setItem(row, 2, new QTableWidgetItem(QString::fromUtf8(libs[row].licence)));
    }
    m_licences->resizeColumnsToContents();
    m_licences->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* copy = buttons->addButton(tr("&Copy version info"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyVersionInfo"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(versionInfo()); });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(m_console);
    layout->addWidget(m_service);
    layout->addWidget(new QLabel(tr("Built with:"), this));
    layout->addWidget(m_licences, 1);
    layout->addWidget(buttons);
    resize(640, 460);
    checkService(client);
}

QString AboutDialog::consoleText() const {
    return m_console->text();
}

QString AboutDialog::serviceText() const {
    return m_service->text();
}

QString AboutDialog::versionInfo() const {
    return QStringList{
        m_console->text(), m_service->text(),
        tr("System: %1 (%2)").arg(QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture()),
        tr("Display: %1").arg(QGuiApplication::platformName())}
        .join(QLatin1Char('\n'));
}

void AboutDialog::checkService(ApiClient* client) {
    if (!client || client->connection().baseUrl.isEmpty()) {
        m_service->setText(tr("Service: not connected"));
        QMetaObject::invokeMethod(this, &AboutDialog::serviceChecked, Qt::QueuedConnection);
        return;
    }
    const QString url = client->connection().baseUrl.toString();
    m_service->setText(tr("Service: asking %1…").arg(url));
    client->health()->then(this, [this, url](const ApiReply<QString>& r) {
        m_service->setText(r.isError() ? tr("Service at %1: no answer (%2)").arg(url, r.error().message)
                                       : tr("Service: jobdeckd %1 at %2").arg(r.value(), url));
        emit serviceChecked();
    });
}

} // namespace jobdeck
