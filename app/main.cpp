#include "widgets/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("jobdeck"));
    QApplication::setApplicationName(QStringLiteral("jobdeck"));
    QApplication::setApplicationVersion(QStringLiteral(JOBDECK_VERSION));
    // Ties the windows (and notifications) to jobdeck.desktop and its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("jobdeck"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Jobdeck: the console for Spark jobs on Apache Hudi"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption profile(
        QStringLiteral("profile"),
        QStringLiteral("Connection profile to open (\"Local\" starts a local jobdeckd)."),
        QStringLiteral("name"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Data directory of the Local profile's jobdeckd."),
                                     QStringLiteral("dir"));
    const QCommandLineOption service(QStringLiteral("jobdeckd"),
                                     QStringLiteral("Path of the jobdeckd the Local profile starts."),
                                     QStringLiteral("path"));
    parser.addOptions({profile, dataDir, service});
    parser.process(app);

    jobdeck::MainWindow::Options options;
    options.profile = parser.value(profile);
    options.localDataDir = parser.value(dataDir);
    options.servicePath = parser.value(service);
    jobdeck::MainWindow window(options);
    window.show();
    return QApplication::exec();
}
