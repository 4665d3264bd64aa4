#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QVariant>

class QAbstractItemModel;

namespace jobdeck {

// A table model's rows as CSV, JSON or tab-separated text: what the views show (DisplayRole, with the
// horizontal headers as column names), in the model's row order, so a sorted or filtered proxy exports
// what the user sees. `rows` picks rows (in the given order); empty means every row. Hidden columns
// are the caller's choice: `columns` picks them, empty means every column.
class ModelExporter final {
public:
    // What a cell holds in a file when that differs from what the view shows: a timestamp as ISO 8601
    // in UTC instead of the local short form, a painted cell (status dots) as words. Used before
    // DisplayRole when a model answers it.
    static constexpr int ExportRole = Qt::UserRole + 0x4000;

    explicit ModelExporter(const QAbstractItemModel& model);

    void setRows(QList<int> rows) { m_rows = std::move(rows); }
    void setColumns(QList<int> columns) { m_columns = std::move(columns); }

    // RFC 4180: a header line, then one line per row, CRLF line ends; a field with a comma, quote,
    // CR or LF is quoted, quotes doubled. UTF-8 without a byte order mark.
    QByteArray csv() const;
    // An array of objects, one per row: header -> text (a number when the cell holds a number).
    QByteArray json() const;
    // For the clipboard: a header line, then one line per row, fields separated by tabs; tabs and line
    // breaks inside a field become spaces so the columns stay aligned when pasted.
    QString tabSeparated() const;

    static QString csvField(const QString& text);

private:
    QList<int> rows() const;
    QList<int> columns() const;
    QString header(int column) const;
    QString text(int row, int column) const;
    QVariant value(int row, int column) const;

    const QAbstractItemModel& m_model;
    QList<int> m_rows;
    QList<int> m_columns;
};

} // namespace jobdeck
