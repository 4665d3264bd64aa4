// ModelExporter: a model's rows as CSV (RFC 4180 quoting, headers, CRLF), JSON (header -> text, numbers
// as numbers) and tab-separated clipboard text, for every row or picked rows and columns, in the order
// given; read back with a small CSV reader to show nothing is lost (commas, quotes, line breaks, UTF-8).
#include "models/ModelExporter.h"
#include "tests/runner/SuiteRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTest>

using namespace jobdeck;

namespace {

// RFC 4180 reader for the round trip.
QList<QStringList> readCsv(const QString& text) {
    QList<QStringList> records;
    QStringList fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields << std::exchange(field, {});
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            fields << std::exchange(field, {});
            records << std::exchange(fields, {});
            ++i;
        } else {
            field += c;
        }
    }
    return records;
}

const QStringList kNames{QStringLiteral("plain"), QStringLiteral("comma, inside"),
                         QStringLiteral("quote \"q\" inside"), QStringLiteral("line\nbreak"),
                         QStringLiteral("caf\u00e9 \u2014 \u65e5\u672c")};

} // namespace

class TestModelExporter final : public QObject {
    Q_OBJECT

    QStandardItemModel m_model;

private slots:
    void init() {
        m_model.clear();
        m_model.setHorizontalHeaderLabels(
            {QStringLiteral("Name"), QStringLiteral("Runs"), QStringLiteral("Tab\tcol")});
        for (int i = 0; i < kNames.size(); ++i) {
            auto* runs = new QStandardItem;
            runs->setData(i * 10, Qt::DisplayRole);
            m_model.appendRow(
                {new QStandardItem(kNames[i]), runs, new QStandardItem(QStringLiteral("a\tb"))});
        }
    }

    void csvRoundTripsEveryField() {
        const QByteArray csv = ModelExporter(m_model).csv();
        QVERIFY(csv.endsWith("\r\n"));
        QVERIFY(csv.startsWith("Name,Runs,Tab\tcol\r\n"));
        QVERIFY(csv.contains("\"comma, inside\""));
        QVERIFY(csv.contains("\"quote \"\"q\"\" inside\""));
        const QList<QStringList> records = readCsv(QString::fromUtf8(csv));
        QCOMPARE(records.size(), kNames.size() + 1);
        for (int i = 0; i < kNames.size(); ++i)
            QCOMPARE(records[i + 1],
                     (QStringList{kNames[i], QString::number(i * 10), QStringLiteral("a\tb")}));
    }

    void csvOfPickedRowsAndColumnsInTheirOrder() {
        ModelExporter exporter(m_model);
        exporter.setRows({3, 0});
        exporter.setColumns({1, 0});
        const QList<QStringList> records = readCsv(QString::fromUtf8(exporter.csv()));
        QCOMPARE(records, (QList<QStringList>{{"Runs", "Name"}, {"30", "line\nbreak"}, {"0", "plain"}}));
    }

    void anEmptyModelGivesItsHeaders() {
        QStandardItemModel empty(0, 2);
        empty.setHorizontalHeaderLabels({QStringLiteral("A"), QString()});
        QCOMPARE(ModelExporter(empty).csv(), QByteArray("A,column 2\r\n"));
        QCOMPARE(QJsonDocument::fromJson(ModelExporter(empty).json()).array().size(), 0);
    }

    void jsonKeepsTextAndNumbers() {
        const QJsonDocument doc = QJsonDocument::fromJson(ModelExporter(m_model).json());
        QVERIFY(doc.isArray());
        const QJsonArray rows = doc.array();
        QCOMPARE(rows.size(), kNames.size());
        for (int i = 0; i < kNames.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            QCOMPARE(row.value("Name").toString(), kNames[i]);
            QVERIFY(row.value("Runs").isDouble());
            QCOMPARE(row.value("Runs").toInt(), i * 10);
            QCOMPARE(row.value("Tab\tcol").toString(), QStringLiteral("a\tb"));
        }
    }

    void jsonNumbersColumnsThatShareAHeader() {
        QStandardItemModel twice(1, 2);
        twice.setHorizontalHeaderLabels({QStringLiteral("Key"), QStringLiteral("Key")});
        twice.setItem(0, 0, new QStandardItem(QStringLiteral("x")));
        twice.setItem(0, 1, new QStandardItem(QStringLiteral("y")));
        const QJsonObject row =
            QJsonDocument::fromJson(ModelExporter(twice).json()).array().first().toObject();
        QCOMPARE(row.value("Key").toString(), QStringLiteral("x"));
        QCOMPARE(row.value("Key (2)").toString(), QStringLiteral("y"));
    }

    void tabSeparatedKeepsColumnsAligned() {
        ModelExporter exporter(m_model);
        exporter.setRows({3});
        const QString text = exporter.tabSeparated();
        QCOMPARE(text, QStringLiteral("Name\tRuns\tTab col\nline break\t30\ta b\n"));
    }

    void aSortedProxyExportsWhatItShows() {
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m_model);
        proxy.sort(1, Qt::DescendingOrder);
        ModelExporter exporter(proxy);
        exporter.setColumns({0});
        const QList<QStringList> records = readCsv(QString::fromUtf8(exporter.csv()));
        QCOMPARE(records.size(), kNames.size() + 1);
        QCOMPARE(records[1].first(), kNames.last());
        QCOMPARE(records.last().first(), kNames.first());
    }
};

JOBDECK_TEST_MAIN(TestModelExporter)
#include "tst_modelexporter.moc"
