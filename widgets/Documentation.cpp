#include "widgets/Documentation.h"

#include "widgets/HelpWindow.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>

namespace jobdeck {

QString Documentation::defaultDirectory() {
    const QDir app(QCoreApplication::applicationDirPath());
    const QString dir = QDir::cleanPath(app.filePath(QStringLiteral("../share/doc/jobdeck")));
    return QFileInfo::exists(QDir(dir).filePath(QStringLiteral("README.md"))) ? dir : QString();
}

QUrl Documentation::entryPoint(const QString& directory) {
    const QString readme = QDir(directory).filePath(QStringLiteral("README.md"));
    return directory.isEmpty() || !QFileInfo::exists(readme) ? QUrl() : QUrl::fromLocalFile(readme);
}

bool Documentation::open(const QString& directory) {
    const QUrl url = entryPoint(directory);
    if (!url.isValid())
        return false;
    // Rendered here rather than handed to the desktop, which opens Markdown in a text editor.
    static QPointer<HelpWindow> window;
    if (!window) {
        window = new HelpWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
    }
    window->showPage(url);
    window->show();
    window->raise();
    window->activateWindow();
    return true;
}

} // namespace jobdeck
