#include "widgets/Documentation.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>

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
    return url.isValid() && QDesktopServices::openUrl(url);
}

} // namespace jobdeck
