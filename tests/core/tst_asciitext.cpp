// core/text/AsciiText: ASCII case folding, the one quoting of names in messages, and that the rules which
// fold case decide the same under a locale whose case rules are not ASCII's. The suite runs twice, under
// Turkish locales compiled for it: in ISO-8859-9 std::toupper('i') is 0xDD (U+0130) and std::tolower('I')
// 0xFD (U+0131); in UTF-8 neither letter changes, as their other case is not one byte. The console runs
// under the user's locale (QApplication sets it), so either would change a locale-dependent rule.
#include "core/hudi/HudiCatalogue.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/AuditFilter.h"
#include "core/policy/ClusterRules.h"
#include "core/policy/JobFilter.h"
#include "core/text/AsciiText.h"
#include "tests/runner/SuiteRegistry.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cctype>
#include <clocale>
#include <cstdlib>
#include <initializer_list>
#include <iomanip>
#include <type_traits>

using namespace jobdeck;

namespace {

struct Locale final {
    const char* name;    // as setlocale takes it
    const char* charmap; // localedef -f
};

AuditEntry auditEntryOf(std::string statement) {
    AuditEntry entry;
    entry.statement = std::move(statement);
    entry.keyId = "key-1";
    entry.role = "admin";
    return entry;
}

AuditFilter textFilter(std::string text) {
    AuditFilter filter;
    filter.text = std::move(text);
    return filter;
}

} // namespace

class TestAsciiText final : public QObject {
    Q_OBJECT

public:
    explicit TestAsciiText(Locale locale)
        : m_locale(locale) {}

private:
    const Locale m_locale;
    QTemporaryDir m_locales;
    std::string m_previousLocale;

    // Compiles the Turkish locale into a private directory (no root needed) and makes it the C locale,
    // the one std::toupper and std::tolower follow.
    void useTurkishLocale() {
        const QString output = m_locales.filePath(m_locale.name);
        QProcess localedef;
        localedef.start("localedef", {"-i", "tr_TR", "-f", m_locale.charmap, output});
        QVERIFY2(localedef.waitForFinished(60'000), "localedef did not finish within 60 s (a hang guard)");
        QVERIFY2(QFileInfo::exists(output + "/LC_CTYPE"),
                 qPrintable("localedef (libc-bin, with the locales package's sources) could not build " +
                            QString(m_locale.name) + ": " + localedef.readAllStandardError()));
        qputenv("LOCPATH", QFile::encodeName(m_locales.path()));
        QVERIFY2(std::setlocale(LC_ALL, m_locale.name), "setlocale refused the compiled Turkish locale");
        // The premise of every test below: this locale's case rules are not ASCII's.
        QVERIFY(std::toupper('i') != 'I');
        QVERIFY(std::tolower('I') != 'i');
    }

    // The lines of the sources under `dirs` (from the source root) that `pattern` matches, as
    // "path:line: text"; files whose path ends with one of `skipped` are not read.
    static QStringList sourceLinesMatching(std::initializer_list<const char*> dirs,
                                           const QRegularExpression& pattern, const QStringList& skipped) {
        QStringList files;
        for (const char* dir : dirs) {
            QDirIterator it(QString::fromUtf8(JOBDECK_SOURCE_DIR) + QString::fromUtf8(dir),
                            {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext())
                files << it.next();
        }
        QStringList found;
        if (files.size() < 50)
            found << QStringLiteral("only %1 source files found under the source root").arg(files.size());
        for (const QString& path : files) {
            if (std::any_of(skipped.begin(), skipped.end(),
                            [&](const QString& end) { return path.endsWith(end); }))
                continue;
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                found << path + QStringLiteral(": not readable");
                continue;
            }
            const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
            for (qsizetype i = 0; i < lines.size(); ++i)
                if (pattern.match(lines[i]).hasMatch())
                    found << QStringLiteral("%1:%2: %3").arg(path).arg(i + 1).arg(lines[i].trimmed());
        }
        return found;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_locales.isValid());
        m_previousLocale = std::setlocale(LC_ALL, nullptr);
        useTurkishLocale();
    }

    void cleanupTestCase() {
        std::setlocale(LC_ALL, m_previousLocale.c_str());
        qunsetenv("LOCPATH");
    }

    void quotedNamesTextAsWritten() {
        QCOMPARE(quoted("hoodie.table.name"), std::string("'hoodie.table.name'"));
        QCOMPARE(quoted(""), std::string("''"));
        // A message names a value as the user wrote it: an inner quote is not doubled or escaped.
        QCOMPARE(quoted("it's"), std::string("'it's'"));
        QCOMPARE(quoted(std::string_view("a\0b", 3)), std::string("'a\0b'", 5));
        // Not std::quoted, which argument-dependent lookup also finds for a std::string.
        const std::string key = "spark.a";
        std::string editable = "spark.b";
        static_assert(std::is_same_v<decltype(quoted(key)), std::string>);
        static_assert(std::is_same_v<decltype(quoted(editable)), std::string>);
        static_assert(std::is_same_v<decltype(quoted(std::string("c"))), std::string>);
        static_assert(std::is_same_v<decltype(quoted(std::string_view(key))), std::string>);
        static_assert(std::is_same_v<decltype(quoted("d")), std::string>);
        QCOMPARE(quoted(key), std::string("'spark.a'"));
        QCOMPARE(quoted(editable), std::string("'spark.b'"));
    }

    // Messages quote names with quoted() only: no "'" + name + "'" left by hand in core or in the service.
    void noQuotingByHand() {
        // An opening quote at the end of a literal followed by +, or a closing one after a +.
        static const QRegularExpression byHand(QStringLiteral("[ (\"]'\" *\\+|\\+ *\"'([\"\\s:;,)]|$)"));
        const QStringList found =
            sourceLinesMatching({"/core", "/service"}, byHand,
                                {QStringLiteral("/core/text/AsciiText.cpp"),
                                 // SQL: the quotes of the session's SET literals
                                 QStringLiteral("/service/stores/postgres/PgConnection.cpp")});
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    // Core classifies and folds characters through AsciiText only: no rule in it follows the locale.
    void noLocaleCharacterFunctionsInCore() {
        static const QRegularExpression localeDependent(QStringLiteral(
            "^(?!\\s*//).*\\bstd::(is(alnum|alpha|digit|xdigit|space|upper|lower|punct|print|graph|cntrl)|"
            "to(upper|lower))\\s*\\("));
        const QStringList found = sourceLinesMatching({"/core"}, localeDependent, {});
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    void classifiesAsciiOnly() {
        for (char c = '0'; c <= '9'; ++c)
            QVERIFY(isAsciiDigit(c) && isAsciiAlnum(c) && !isAsciiAlpha(c));
        for (const char c : {'a', 'z', 'A', 'Z'})
            QVERIFY(isAsciiAlpha(c) && isAsciiAlnum(c) && !isAsciiDigit(c));
        // Letters of the Latin-5 charmap this suite runs under in one of its runs; not ASCII.
        for (const char c : {'\xFD', '\xDD', '\xE7', '\xC7'})
            QVERIFY(!isAsciiAlpha(c) && !isAsciiAlnum(c) && !isAsciiDigit(c));
        for (const char c : {'_', '.', '$', ' ', '\0', '/', ':', '@', '[', '`', '{'})
            QVERIFY(!isAsciiAlnum(c));
    }

    void foldsAsciiLettersOnly() {
        QCOMPARE(asciiUppered("index insert"), std::string("INDEX INSERT"));
        QCOMPARE(asciiLowered("ICEBERG"), std::string("iceberg"));
        // Bytes outside ASCII (here Latin-5 letters) are left as they are.
        QCOMPARE(asciiUppered("\xFD\xE7"), std::string("\xFD\xE7"));
        QCOMPARE(asciiLowered("\xDD\xC7"), std::string("\xDD\xC7"));
        QVERIFY(equalsIgnoringAsciiCase("Spark", "SPARK"));
        QVERIFY(equalsIgnoringAsciiCase("index", "INDEX"));
        QVERIFY(!equalsIgnoringAsciiCase("index", "\xDDNDEX"));
        QVERIFY(!equalsIgnoringAsciiCase("spark", "spar"));
    }

    void containsIgnoringAsciiCaseFindsASubstring() {
        QVERIFY(containsIgnoringAsciiCase("ABCdef", "cDe"));
        QVERIFY(containsIgnoringAsciiCase("abc", ""));
        QVERIFY(!containsIgnoringAsciiCase("ab", "abc"));
        QVERIFY(containsIgnoringAsciiCase("aab", "ab")); // restart after a partial match
        QVERIFY(!containsIgnoringAsciiCase("", "a"));
        QVERIFY(containsIgnoringAsciiCase("", ""));
        QVERIFY(containsIgnoringAsciiCase("INSERT INTO", "insert"));
        QVERIFY(!containsIgnoringAsciiCase("\xDDNSERT", "insert"));
    }

    void asciiSpaceIsTheSixAsciiSpaces() {
        for (const char c : {' ', '\t', '\n', '\v', '\f', '\r'})
            QVERIFY(isAsciiSpace(c));
        for (const char c : {'a', '\0', '\xA0', '\x85'})
            QVERIFY(!isAsciiSpace(c));
    }

    void aKeyCommandsAuditTextGivesItsKindAndKey() {
        const std::string text = keyCommandAuditText("revoke", "1a27d57b", "viewer", "jobdeckd");
        QCOMPARE(text, std::string("jobdeckd keys revoke: API key 1a27d57b (viewer) by OS user jobdeckd"));
        const AuditStatementSummary summary = summarizeAuditStatement(text);
        QCOMPARE(summary.kind, std::string("jobdeckd keys revoke"));
        QCOMPARE(summary.target, std::string("1a27d57b"));
        QVERIFY(!summary.isRead);
        // A statement that merely starts the same way is read as a statement.
        QCOMPARE(summarizeAuditStatement("jobdeckd keys list").kind, std::string("JOBDECKD KEYS"));
    }

    void auditKindOfAnUnparsedStatementIsUpperCasedPerAscii() {
        QCOMPARE(summarizeAuditStatement("drop index orders_idx").kind, std::string("DROP INDEX"));
        QCOMPARE(summarizeAuditStatement("  insert\tinto t").kind, std::string("INSERT INTO"));
    }

    void auditFilterTextMatchesIAndiPerAscii() {
        const AuditEntry entry = auditEntryOf("CREATE JOB ingest TYPE = 'SPARK'");
        QVERIFY(textFilter("INGEST").matches(entry));
        QVERIFY(textFilter("Ingest").matches(entry));
        QVERIFY(textFilter("spark").matches(entry));
        QVERIFY(textFilter("ADMIN").matches(entry)); // the role
        QVERIFY(!textFilter("\xDDNGEST").matches(entry));
    }

    void jobFilterMatchesIAndiPerAscii() {
        QVERIFY(JobFilter::parse("INGEST").matches("ingest_orders", "demo", "JAR"));
        QVERIFY(JobFilter::parse("ingest").matches("INGEST_ORDERS", "demo", "JAR"));
        QVERIFY(JobFilter::parse("CLUSTER:PII").matches("x", "pii_cluster", "JAR"));
        QVERIFY(!JobFilter::parse("\xDDNGEST").matches("ingest_orders", "demo", "JAR"));
    }

    void clusterTypeIsReadPerAscii() {
        QVERIFY(!checkClusterType("SPARK"));
        QVERIFY(!checkClusterType("spark"));
        QVERIFY(checkClusterType("SPARK\xDD"));
    }

    // A secret key in capitals is a secret whatever the locale folds 'I' to.
    void secretKeysAreFoundPerAscii() {
        QVERIFY(isSecretKey("DB_CREDENTIAL"));
        QVERIFY(isSecretKey("spark.hadoop.fs.s3a.SECRET.KEY"));
        QCOMPARE(maskParameters({"--conf", "spark.DB_CREDENTIAL=x"}),
                 (std::vector<std::string>{"--conf", "spark.DB_CREDENTIAL=****"}));
    }

    void hudiValuesAreComparedPerAscii() {
        const HudiCatalogue& catalogue = HudiCatalogue::instance();
        const HudiConfigEntry* operation = catalogue.find("hoodie.datasource.write.operation");
        QVERIFY(operation);
        QVERIFY(!catalogue.checkValue(*operation, "INSERT"));
        QVERIFY(!catalogue.checkValue(*operation, "Insert"));
        QVERIFY(catalogue.checkValue(*operation, "\xDDNSERT"));
        // Values of an upper-case enum, written in lower case, are upper-cased per ASCII.
        HudiConfigEntry upperEnum = *operation;
        upperEnum.allowedValues = {"INDEX", "INSERT"};
        QVERIFY(!catalogue.checkValue(upperEnum, "index"));
        QVERIFY(!catalogue.checkValue(upperEnum, "insert"));
        const std::optional<std::string> refused = catalogue.checkValue(upperEnum, "inline");
        QVERIFY(refused);
        QVERIFY2(refused->starts_with("'hoodie.datasource.write.operation' expects one of INDEX, INSERT"),
                 refused->c_str());
    }
};

int runAsciiTextSuite(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int failures = 0;
    for (const Locale locale : {Locale{"tr_TR.ISO-8859-9", "ISO-8859-9"}, Locale{"tr_TR.UTF-8", "UTF-8"}}) {
        TestAsciiText test(locale);
        failures += QTest::qExec(&test, argc, argv);
    }
    return failures == 0 ? 0 : 1;
}
JOBDECK_SUITE_ENTRY(runAsciiTextSuite)

#include "tst_asciitext.moc"
