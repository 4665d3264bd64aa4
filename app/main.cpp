#include "widgets/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

namespace {

void setIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("jobdeck"));
    QCoreApplication::setApplicationName(QStringLiteral("jobdeck"));
    QCoreApplication::setApplicationVersion(QStringLiteral(JOBDECK_VERSION));
}

struct ConsoleOptions final {
    QCommandLineOption profile{
        QStringLiteral("profile"),
        QStringLiteral("Connection profile to open (\"Local\" starts a local jobdeckd)."),
        QStringLiteral("name")};
    QCommandLineOption dataDir{QStringLiteral("data-dir"),
                               QStringLiteral("Data directory of the Local profile's jobdeckd."),
                               QStringLiteral("dir")};
    QCommandLineOption service{QStringLiteral("jobdeckd"),
                               QStringLiteral("Path of the jobdeckd the Local profile starts."),
                               QStringLiteral("path")};
};

} // namespace

int main(int argc, char* argv[]) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Jobdeck: the console for Spark jobs on Apache Hudi"));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const ConsoleOptions console;
    parser.addOptions({console.profile, console.dataDir, console.service});

    // --help, --version and a wrong option are answered without a display: on a server or over ssh
    // the GUI application could not start to print them.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (!parser.parse(arguments) || parser.isSet(help) || parser.isSet(version) ||
        parser.isSet(QStringLiteral("help-all"))) {
        const QCoreApplication core(argc, argv);
        setIdentity();
        parser.process(arguments); // prints and exits
        return 0;
    }

    QApplication app(argc, argv);
    setIdentity();
    // Ties the windows (and notifications) to jobdeck.desktop and its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("jobdeck"));
    parser.process(app);

    jobdeck::MainWindow::Options options;
    options.profile = parser.value(console.profile);
    options.localDataDir = parser.value(console.dataDir);
    options.servicePath = parser.value(console.service);
    jobdeck::MainWindow window(options);
    window.show();
    return QApplication::exec();
}
