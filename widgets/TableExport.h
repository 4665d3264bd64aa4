#pragma once

#include <QString>

#include <functional>

class QObject;
class QTableView;

namespace jobdeck {

// File → Export: what a table shows (its rows in view order, its visible columns in visual order) as
// CSV or JSON (models/ModelExporter). The text is made on the GUI thread, where the model lives; the
// file is written on a worker, atomically (QSaveFile).
class TableExport final {
public:
    enum class Format { Csv, Json };

    // done(error) on `context`'s thread; error empty on success. Not called when context is gone.
    static void start(const QTableView* view, const QString& path, Format format, QObject* context,
                      std::function<void(const QString& error)> done);
    // For the file dialog: "CSV files (*.csv)" and the like.
    static QString fileFilter(Format format);
    static QString suffix(Format format);
    // What the save dialog proposes: what the table shows and the day, "jobs-2026-12-02.csv". The table's
    // "exportName" property names it, else the title of the dock it is in ("Audit log": audit-log).
    static QString proposedFileName(const QTableView* view, Format format);
};

} // namespace jobdeck
