// resources/syntax/jobdeck-statements.xml, the KSyntaxHighlighting definition of the statement
// language, read by KDE's own highlighter (kate-syntax-highlighter, Debian package
// libkf5syntaxhighlighting-tools) the way Kate finds it: under $XDG_DATA_HOME/org.kde.syntax-highlighting/
// syntax/ of a temporary directory. Each tests/data/syntax/*.jobdeck sample is highlighted and compared
// with its golden HTML beside it; the definition must load without a warning and tell keywords, names,
// strings, options, paths and configuration keys apart. JOBDECK_UPDATE_GOLDEN=1 rewrites the goldens.
#include "tests/runner/SuiteRegistry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kDefinition = QStringLiteral(JOBDECK_SOURCE_DIR "/resources/syntax/jobdeck-statements.xml");
const QString kSamples = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/data/syntax");

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSyntaxDefinition final : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    QString m_tool;

    struct Output {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    Output highlight(const QStringList& arguments) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(m_tool, arguments);
        Output o;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return o;
        }
        o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        o.out = p.readAllStandardOutput();
        o.err = p.readAllStandardError();
        return o;
    }

private slots:
    void initTestCase() {
        m_tool = QStandardPaths::findExecutable(QStringLiteral("kate-syntax-highlighter"));
        QVERIFY2(!m_tool.isEmpty(),
                 "kate-syntax-highlighter not found: install libkf5syntaxhighlighting-tools "
                 "(packaging/install-deps.sh does)");
        QVERIFY(m_home.isValid());
        const QString dir = m_home.filePath(QStringLiteral("org.kde.syntax-highlighting/syntax"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(QFile::copy(kDefinition, QDir(dir).filePath(QStringLiteral("jobdeck-statements.xml"))));
    }

    void theDefinitionIsFound() {
        const Output o = highlight({QStringLiteral("--list")});
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.split('\n').contains("Jobdeck Statements"), o.out.constData());
    }

    void samplesMatchTheirGoldens_data() {
        QTest::addColumn<QString>("sample");
        const QStringList samples =
            QDir(kSamples).entryList({QStringLiteral("*.jobdeck")}, QDir::Files, QDir::Name);
        QVERIFY(!samples.isEmpty());
        for (const QString& s : samples)
            QTest::newRow(qPrintable(s)) << QDir(kSamples).filePath(s);
    }

    void samplesMatchTheirGoldens() {
        QFETCH(QString, sample);
        // By name (not by extension), with a fixed theme so colours do not depend on the machine.
        const Output o = highlight({QStringLiteral("--syntax"), QStringLiteral("Jobdeck Statements"),
                                    QStringLiteral("--theme"), QStringLiteral("Breeze Light"),
                                    QStringLiteral("--output-format"), QStringLiteral("html"),
                                    QStringLiteral("--title"), QStringLiteral("sample"), sample});
        QCOMPARE(o.exitCode, 0);
        // A definition with a mistake (unknown context, bad regular expression) is reported on stderr.
        QVERIFY2(o.err.trimmed().isEmpty(), o.err.constData());
        const QString golden = sample.chopped(int(qstrlen(".jobdeck"))) + QStringLiteral(".html");
        if (qEnvironmentVariableIntValue("JOBDECK_UPDATE_GOLDEN") == 1) {
            QFile f(golden);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(o.out);
        }
        QCOMPARE(QString::fromUtf8(o.out), QString::fromUtf8(readAll(golden)));
    }

    void tokensAreToldApart() {
        // The ANSI trace names each piece's format: every class the definition has shows in the samples.
        QByteArray traces;
        for (const QString& sample : QDir(kSamples).entryList({QStringLiteral("*.jobdeck")}, QDir::Files)) {
            const Output o = highlight({QStringLiteral("--syntax"), QStringLiteral("Jobdeck Statements"),
                                        QStringLiteral("--output-format"), QStringLiteral("ansi"),
                                        QStringLiteral("--syntax-trace"), QStringLiteral("format"),
                                        QDir(kSamples).filePath(sample)});
            QCOMPARE(o.exitCode, 0);
            traces += o.out;
        }
        for (const char* format : {"Statement", "Object", "Clause", "Value", "Name", "Quoted Name", "String",
                                   "Escape", "Option", "Path", "Config Key", "Number", "Operator"})
            QVERIFY2(traces.contains(QByteArray("\x1b[7m") + format + "\x1b"), format);
    }
};

JOBDECK_TEST_MAIN(TestSyntaxDefinition)
#include "tst_syntaxdefinition.moc"
