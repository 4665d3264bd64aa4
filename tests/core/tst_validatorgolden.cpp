// The validator's diagnostics against golden files, and docs/parameters.md against the validator.
// tests/data/validator/<case>.json: {"parameters": [...], "settings": <project settings, wire form>,
// "mode": "create"|"alter", "previous": [...], "type": "JAR"|"PYTHON" (optional)}; <case>.expected: one
// diagnostic per line, in the order the validator gives them: parameter index, severity, code, message
// (tab-separated). JOBDECK_UPDATE_GOLDEN=1 rewrites the expected files (review the diff).
#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/ParameterValidator.h"
#include "core/wire/Project.h"
#include "core/wire/SparkJob.h"
#include "tests/runner/SuiteRegistry.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <map>
#include <set>

using namespace jobdeck;

namespace {

const QString kGoldenDir = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/data/validator");
const QString kParametersDoc = QStringLiteral(JOBDECK_SOURCE_DIR "/docs/parameters.md");

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::vector<Diagnostic> validateCase(const nlohmann::json& c) {
    ValidationContext context;
    context.settings = c.value("settings", nlohmann::json::object()).get<ProjectSettings>();
    context.mode = c.value("mode", std::string("create")) == "alter" ? ValidationContext::Mode::Alter
                                                                     : ValidationContext::Mode::Create;
    context.previousParameters = c.value("previous", std::vector<std::string>{});
    context.withAdvice = false;
    if (c.contains("type"))
        context.jobType = jobTypeFromName(c.at("type").get<std::string>());
    return validateParameters(c.at("parameters").get<std::vector<std::string>>(), context);
}

std::string render(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics)
        out += std::to_string(d.tokenIndex) + "\t" + severityName(d.severity) + "\t" + std::string(d.code) +
               "\t" + d.message + "\n";
    return out;
}

QStringList caseNames() {
    QStringList names;
    for (const QString& file :
         QDir(kGoldenDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        names << file.chopped(5);
    return names;
}

// Every (code, message) the golden cases expect.
std::multimap<std::string, std::string> expectedFindings() {
    std::multimap<std::string, std::string> found;
    for (const QString& name : caseNames()) {
        for (const QByteArray& line : readAll(kGoldenDir + "/" + name + ".expected").split('\n')) {
            const QList<QByteArray> fields = line.split('\t');
            if (fields.size() >= 4)
                found.emplace(
                    fields[2].toStdString(),
                    line.mid(fields[0].size() + fields[1].size() + fields[2].size() + 3).toStdString());
        }
    }
    return found;
}

struct DocumentedCode {
    QString code;
    QString severity;
    QRegularExpression message; // the documented shape: <placeholders> stand for any text
};

// The rows of docs/parameters.md's validation table: | rank | `code` | severity | token | `message` ... |
std::vector<DocumentedCode> documentedCodes() {
    std::vector<DocumentedCode> rows;
    const QString doc = QString::fromUtf8(readAll(kParametersDoc));
    static const QRegularExpression row(
        QStringLiteral(R"(^\| (\d|–) \| `([a-z.-]+)` \| (\w+) \| [^|]+ \| `([^`]+)`)"),
        QRegularExpression::MultilineOption);
    for (auto it = row.globalMatch(doc); it.hasNext();) {
        const auto m = it.next();
        QString pattern = QRegularExpression::escape(m.captured(4));
        pattern.replace(QRegularExpression(QStringLiteral(R"(\\<[a-z]+\\>)")), QStringLiteral(".+"));
        rows.push_back({m.captured(2), m.captured(3),
                        QRegularExpression(QStringLiteral("^") + pattern + QStringLiteral("$"),
                                           QRegularExpression::DotMatchesEverythingOption)});
    }
    return rows;
}

} // namespace

class TestValidatorGolden final : public QObject {
    Q_OBJECT

private slots:
    void golden_data() {
        QTest::addColumn<QString>("name");
        const QStringList names = caseNames();
        QVERIFY2(names.size() >= 10, "the golden cases are missing");
        for (const QString& name : names)
            QTest::newRow(name.toUtf8().constData()) << name;
    }

    void golden() {
        QFETCH(QString, name);
        const nlohmann::json c =
            nlohmann::json::parse(readAll(kGoldenDir + "/" + name + ".json").toStdString());
        const std::string actual = render(validateCase(c));
        const QString expectedPath = kGoldenDir + "/" + name + ".expected";
        if (qEnvironmentVariable("JOBDECK_UPDATE_GOLDEN") == QLatin1String("1")) {
            QFile f(expectedPath);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(actual));
        }
        QVERIFY2(QFile::exists(expectedPath),
                 "no .expected file: run with JOBDECK_UPDATE_GOLDEN=1 and review it");
        QCOMPARE(QString::fromStdString(actual), QString::fromUtf8(readAll(expectedPath)));
    }

    // The golden cases make the validator give every code it has, so "emits" below is shown, not assumed.
    void everyCodeIsGivenByAGoldenCase() {
        const auto found = expectedFindings();
        for (const DiagnosticDescriptor& d : validatorDescriptors())
            QVERIFY2(found.count(std::string(d.name)), std::string(d.name).c_str());
    }

    // docs/parameters.md lists exactly the validator's codes, with their severities and rank order, and
    // each documented message is one the validator gives for that code (and every message it gives in the
    // golden cases fits its documented shape).
    void docsAndValidatorAgree() {
        const auto rows = documentedCodes();
        const auto found = expectedFindings();
        std::set<std::string> documented;
        for (const DocumentedCode& row : rows) {
            const std::string code = row.code.toStdString();
            documented.insert(code);
            const DiagnosticDescriptor* d = findDiagnosticDescriptor(code);
            QVERIFY2(d, qPrintable(row.code +
                                   QStringLiteral(" is documented but the validator has no such code")));
            QCOMPARE(row.severity, QString::fromLatin1(severityName(d->severity)));
            const auto [from, to] = found.equal_range(code);
            QVERIFY2(from != to, qPrintable(row.code));
            for (auto it = from; it != to; ++it)
                QVERIFY2(row.message.match(QString::fromStdString(it->second)).hasMatch(),
                         qPrintable(row.code + QStringLiteral(": '") + QString::fromStdString(it->second) +
                                    QStringLiteral("' does not fit the documented ") +
                                    row.message.pattern()));
        }
        for (const DiagnosticDescriptor& d : validatorDescriptors())
            QVERIFY2(documented.count(std::string(d.name)),
                     qPrintable(QString::fromLatin1(d.name.data(), qsizetype(d.name.size())) +
                                QStringLiteral(" is not in docs/parameters.md")));
    }

    // The documented ranks are the descriptors' (errors), in the table's order.
    void docsRankOrderIsTheDescriptors() {
        const QString doc = QString::fromUtf8(readAll(kParametersDoc));
        static const QRegularExpression row(QStringLiteral(R"(^\| (\d) \| `([a-z.-]+)` \|)"),
                                            QRegularExpression::MultilineOption);
        int rows = 0;
        for (auto it = row.globalMatch(doc); it.hasNext(); ++rows) {
            const auto m = it.next();
            const DiagnosticDescriptor* d = findDiagnosticDescriptor(m.captured(2).toStdString());
            QVERIFY2(d, qPrintable(m.captured(2)));
            QCOMPARE(d->refusalRank, m.captured(1).toInt());
            QCOMPARE(refusalRank(d->name), d->refusalRank);
        }
        int errors = 0;
        for (const DiagnosticDescriptor& d : validatorDescriptors())
            errors += d.severity == Severity::Error;
        QCOMPARE(rows, errors);
        QCOMPARE(refusalRank("no.such-code"), kNotARefusal);
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestValidatorGolden)
#include "tst_validatorgolden.moc"
