#include "widgets/TableExport.h"

#include "models/ModelExporter.h"
#include "widgets/TableViewSupport.h"

#include <QDate>
#include <QDockWidget>
#include <QFutureWatcher>
#include <QObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTableView>
#include <QtConcurrent/QtConcurrentRun>

namespace jobdeck {

namespace {

QString writeFile(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    if (file.write(bytes) != bytes.size())
        return file.errorString();
    if (!file.commit())
        return file.errorString();
    return {};
}

} // namespace

QString TableExport::fileFilter(Format format) {
    return format == Format::Csv ? QObject::tr("CSV files (*.csv)") : QObject::tr("JSON files (*.json)");
}

QString TableExport::proposedFileName(const QTableView* view, Format format) {
    QString name = view ? view->property("exportName").toString() : QString();
    for (const QWidget* w = view; w && name.isEmpty(); w = w->parentWidget())
        if (const auto* dock = qobject_cast<const QDockWidget*>(w))
            name = dock->windowTitle().section(QLatin1Char('('), 0, 0); // "Runs (1 ended)": runs
    name = name.toLower().replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (name.isEmpty())
        name = QStringLiteral("table");
    return QStringLiteral("%1-%2.%3").arg(name, QDate::currentDate().toString(Qt::ISODate), suffix(format));
}

QString TableExport::suffix(Format format) {
    return format == Format::Csv ? QStringLiteral("csv") : QStringLiteral("json");
}

void TableExport::start(const QTableView* view, const QString& path, Format format, QObject* context,
                        std::function<void(const QString& error)> done) {
    if (!view || !view->model()) {
        done(QObject::tr("There is no table to export"));
        return;
    }
    ModelExporter exporter(*view->model());
    exporter.setColumns(TableViewSupport::visibleColumns(view));
    QByteArray bytes = format == Format::Csv ? exporter.csv() : exporter.json();
    auto* watcher = new QFutureWatcher<QString>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)] {
        watcher->deleteLater();
        done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(writeFile, path, std::move(bytes)));
}

} // namespace jobdeck
