// The console under a dark desktop theme: every colour the console draws beyond the palette comes from
// models/ThemeColors, whose text colours meet WCAG AA (4.5:1, core/text/ColorContrast) on their backgrounds
// in both the light and the dark variant; the parameter editor, the DESCRIBE viewer and the runs
// monitor built under a dark palette use the dark variants, each token class readable on the widget's
// own background. Screenshots: dark-editor.png, dark-describe.png, dark-monitor.png, dark-mainwindow.png.
#include "core/text/ColorContrast.h"
#include "models/RunsTableModel.h"
#include "models/ThemeColors.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DescribeViewer.h"
#include "widgets/JobsView.h"
#include "widgets/JsonHighlighter.h"
#include "widgets/MainWindow.h"
#include "widgets/ParameterEditor.h"
#include "widgets/ParameterHighlighter.h"
#include "widgets/RunMonitor.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>

using namespace jobdeck;
using nlohmann::json;
using Style = ParameterHighlighter::Style;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");

// A dark desktop theme as Breeze Dark or Adwaita-dark give it.
QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::Base, QColor(0x2a, 0x2a, 0x2a));
    p.setColor(QPalette::AlternateBase, QColor(0x32, 0x32, 0x32));
    p.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    p.setColor(QPalette::HighlightedText, QColor(0x11, 0x11, 0x11));
    p.setColor(QPalette::ToolTipBase, QColor(0x31, 0x36, 0x3b));
    p.setColor(QPalette::ToolTipText, QColor(0xee, 0xee, 0xee));
    p.setColor(QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    return p;
}

Rgb rgb(const QColor& c) {
    return {std::uint8_t(c.red()), std::uint8_t(c.green()), std::uint8_t(c.blue())};
}

double contrast(const QColor& a, const QColor& b) {
    return contrastRatio(rgb(a), rgb(b));
}

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

QString failure(const char* what, const QColor& fg, const QColor& bg) {
    return QStringLiteral("%1: %2 on %3 is %4:1")
        .arg(QLatin1String(what), fg.name(), bg.name())
        .arg(contrast(fg, bg), 0, 'f', 2);
}

} // namespace

class TestDarkPalette final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;
    jobdeck::test::ConsoleHome m_home;

private slots:
    void initTestCase() {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        QVERIFY(ThemeColors::isDark(QApplication::palette()));
        QVERIFY(!ThemeColors::isDark(QApplication::style()->standardPalette()));

        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey(QStringLiteral("dark"), QStringLiteral("operator"));
        QVERIFY2(m_operator.isValid(), qPrintable(m_service.lastError()));
        const auto ok = [this](const QString& s) { return statementSucceeds(m_service, m_operator, s); };
        QVERIFY(ok("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));
        QVERIFY(ok("CREATE JOB report TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                   "', '--lines', '3' ) CLUSTER = 'main' MAX_CONCURRENT_RUNS = 1"));
        QVERIFY(ok("CREATE JOB failing TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                   "', '--exit-code', '4' ) CLUSTER = 'main'"));
        QVERIFY(ok("RUN JOB report"));
        QVERIFY(ok("RUN JOB failing"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("dark"), m_service, m_operator, &error),
                 qPrintable(error));
    }

    void everyTextColourMeetsAaInBothVariants() {
        for (const bool dark : {false, true}) {
            const QPalette palette = dark ? darkPalette() : QApplication::style()->standardPalette();
            QCOMPARE(ThemeColors::isDark(palette), dark);
            const QColor base = palette.color(QPalette::Base);
            for (const ThemeColors::TextPair& pair : ThemeColors::textPairs()) {
                const QColor fg = ThemeColors::color(pair.text, palette);
                const QColor bg = pair.background ? ThemeColors::color(*pair.background, palette) : base;
                QVERIFY2(contrast(fg, bg) >= kWcagAaNormalText, qPrintable(failure(pair.name, fg, bg)));
            }
            for (const ThemeColor background : ThemeColors::textBackgrounds()) {
                const QColor fg = palette.color(QPalette::Text);
                const QColor bg = ThemeColors::color(background, palette);
                QVERIFY2(contrast(fg, bg) >= kWcagAaNormalText, qPrintable(failure("diff line", fg, bg)));
            }
        }
    }

    void theEditorsTokensAreReadable() {
        ParameterEditor editor;
        ValidationContext ctx;
        ctx.settings.hudiConfigsEnabled = true;
        ctx.settings.hudiConfigAllowlist = {"hoodie.datasource.meta.sync."};
        editor.setValidationContext(ctx);
        editor.setParameters({"--class", "com.example.App", "--conf", "spark.executor.memory=2g",
                              "--hudi-conf", "hoodie.datasource.meta.sync.glue.catalogId=1", "--hudi-conf",
                              "hoodie.cleaner.commits.retained=20", "--master", "yarn", "s3://bucket/app.jar",
                              "--hudi-conf", "hoodie.datasource.write.operation=upsert", "--date",
                              "2026-11-30"});
        editor.resize(720, 360);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const QColor base = editor.palette().color(QPalette::Base);
        QCOMPARE(base, darkPalette().color(QPalette::Base));
        for (int s = 0; s < int(Style::Count); ++s) {
            const QTextCharFormat& f = editor.highlighter()->format(Style(s));
            if (f.foreground().style() == Qt::NoBrush)
                continue; // underline only (errors, warnings)
            const QColor fg = f.foreground().color();
            const QColor bg = f.background().style() == Qt::NoBrush ? base : f.background().color();
            QVERIFY2(contrast(fg, bg) >= kWcagAaNormalText,
                     qPrintable(failure(qPrintable(QStringLiteral("editor style %1").arg(s)), fg, bg)));
        }
        QCOMPARE(editor.highlighter()->format(Style::OptionName).foreground().color(),
                 ThemeColors::color(ThemeColor::OptionName, true));
        saveScreenshot(&editor, QStringLiteral("dark-editor.png"));
    }

    void theDescribeViewerIsReadable() {
        DescribeViewer viewer;
        const json job{{"jobId", "job-1"},
                       {"name", "ingest_orders"},
                       {"type", "JAR"},
                       {"cluster", "main"},
                       {"parameters", {"--class", "A", "s3://b/app.jar", "--hudi-conf", "hoodie.a=b"}},
                       {"applicationPath", "s3://b/app.jar"},
                       {"arguments", {"--hudi-conf", "hoodie.a=b"}},
                       {"sparkConfigs", json::object()},
                       {"hudiConfigs", json::object()},
                       {"hudiConfigsStatus", json::object()},
                       {"misplacedHudiConfigs", {"hoodie.a=b"}},
                       {"maxConcurrentRuns", 1},
                       {"activeRuns", 0},
                       {"createdAt", "2026-11-30T05:01:46.123Z"},
                       {"updatedAt", "2026-11-30T05:01:46.123Z"}};
        viewer.showResponse(DescribeViewer::Subject::Job, QStringLiteral("ingest_orders"),
                            json{{"describeJobApiResponse", {{"sparkJob", job}}}});
        viewer.resize(720, 520);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        const QColor base = viewer.rawEditor()->palette().color(QPalette::Base);
        for (const auto kind :
             {JsonTokenizer::Kind::Key, JsonTokenizer::Kind::String, JsonTokenizer::Kind::Number,
              JsonTokenizer::Kind::Literal, JsonTokenizer::Kind::Punctuation}) {
            const QColor fg = JsonHighlighter::formatFor(kind).foreground().color();
            QVERIFY2(contrast(fg, base) >= kWcagAaNormalText, qPrintable(failure("JSON token", fg, base)));
        }
        saveScreenshot(&viewer, QStringLiteral("dark-describe.png"));
    }

    void theMonitorAndTheWindowAreReadable() {
        MainWindow window(m_home.options(QStringLiteral("dark")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        window.runMonitorDock()->show();
        RunsTableModel* runs = window.runMonitor()->model();
        QTRY_VERIFY2_WITH_TIMEOUT(
            runs->rowCount() == 2,
            qPrintable(QStringLiteral("%1 runs shown; monitor: '%2'; connection: '%3'")
                           .arg(runs->rowCount())
                           .arg(window.runMonitor()->message(), window.statusWidget()->text())),
            20000);
        QTRY_VERIFY_WITH_TIMEOUT(
            runs->run(0).status != JobRunStatus::Queued && runs->run(0).status != JobRunStatus::Running &&
                runs->run(1).status != JobRunStatus::Queued && runs->run(1).status != JobRunStatus::Running,
            30000);
        QCOMPARE(RunsTableModel::statusColor(JobRunStatus::Failed),
                 ThemeColors::color(ThemeColor::StatusFailed, true));
        QVERIFY(window.jobsView()->selectJob("failing"));
        QTest::qWait(800); // the DESCRIBE of the selection and a repaint
        saveScreenshot(window.runMonitor(), QStringLiteral("dark-monitor.png"));
        saveScreenshot(&window, QStringLiteral("dark-mainwindow.png"));
    }
};

JOBDECK_TEST_MAIN(TestDarkPalette)
#include "tst_darkpalette.moc"
