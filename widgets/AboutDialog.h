#pragma once

#include <QDialog>
#include <QString>

class QLabel;
class QTableWidget;

namespace jobdeck {

class ApiClient;

// Help → About: the console's version (and Qt's), the connected service's version as GET /v1/health
// reports it, and the libraries the console and the service are built with, with their licences.
class AboutDialog final : public QDialog {
    Q_OBJECT
public:
    // `client` null or without a connection: the service line says so.
    explicit AboutDialog(ApiClient* client, QWidget* parent = nullptr);

    QString consoleText() const;
    QString serviceText() const;
    // What a bug report needs: the console's, Qt's and the service's versions, the system and the
    // display platform, one per line ("Copy version info" puts it on the clipboard).
    QString versionInfo() const;
    QTableWidget* licences() const { return m_licences; }

signals:
    // The service line is final (a version, or why there is none).
    void serviceChecked();

private:
    void checkService(ApiClient* client);

    QLabel* m_console;
    QLabel* m_service;
    QTableWidget* m_licences;
};

} // namespace jobdeck
