#include "models/ModelExporter.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace jobdeck {

ModelExporter::ModelExporter(const QAbstractItemModel& model)
    : m_model(model) {}

QList<int> ModelExporter::rows() const {
    if (!m_rows.isEmpty())
        return m_rows;
    QList<int> all(m_model.rowCount());
    for (int row = 0; row < all.size(); ++row)
        all[row] = row;
    return all;
}

QList<int> ModelExporter::columns() const {
    if (!m_columns.isEmpty())
        return m_columns;
    QList<int> all(m_model.columnCount());
    for (int column = 0; column < all.size(); ++column)
        all[column] = column;
    return all;
}

QString ModelExporter::header(int column) const {
    const QString text = m_model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    return text.isEmpty() ? QStringLiteral("column %1").arg(column + 1) : text;
}

QVariant ModelExporter::value(int row, int column) const {
    const QModelIndex index = m_model.index(row, column);
    const QVariant exported = index.data(ExportRole);
    return exported.isValid() ? exported : index.data(Qt::DisplayRole);
}

QString ModelExporter::text(int row, int column) const {
    return value(row, column).toString();
}

QString ModelExporter::csvField(const QString& text) {
    static const QString special = QStringLiteral(",\"\r\n");
    bool quote = false;
    for (const QChar c : text)
        quote = quote || special.contains(c);
    if (!quote)
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QByteArray ModelExporter::csv() const {
    const QList<int> cols = columns();
    QStringList fields;
    for (const int column : cols)
        fields << csvField(header(column));
    QString out = fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (const int row : rows()) {
        fields.clear();
        for (const int column : cols)
            fields << csvField(text(row, column));
        out += fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out.toUtf8();
}

QByteArray ModelExporter::json() const {
    const QList<int> cols = columns();
    QStringList names;
    for (const int column : cols) {
        // Two columns with one header would be one key: the later ones are numbered.
        QString name = header(column);
        for (int n = 2; names.contains(name); ++n)
            name = QStringLiteral("%1 (%2)").arg(header(column)).arg(n);
        names << name;
    }
    QJsonArray array;
    for (const int row : rows()) {
        QJsonObject object;
        for (int i = 0; i < cols.size(); ++i) {
            const QVariant value = this->value(row, cols[i]);
            const auto type = value.typeId();
            const bool number = type == QMetaType::Int || type == QMetaType::LongLong ||
                                type == QMetaType::UInt || type == QMetaType::ULongLong ||
                                type == QMetaType::Double;
            object.insert(names[i], number ? QJsonValue::fromVariant(value) : QJsonValue(value.toString()));
        }
        array.append(object);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

QString ModelExporter::tabSeparated() const {
    const auto clean = [](QString text) {
        for (QChar& c : text)
            if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
                c = QLatin1Char(' ');
        return text;
    };
    const QList<int> cols = columns();
    QStringList fields;
    for (const int column : cols)
        fields << clean(header(column));
    QString out = fields.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (const int row : rows()) {
        fields.clear();
        for (const int column : cols)
            fields << clean(text(row, column));
        out += fields.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace jobdeck
