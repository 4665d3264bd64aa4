// The main window's first impression against a real jobdeckd: selecting a job shows its DESCRIBE
// without a button (debounced; an answer for a job no longer selected is dropped), the list, side
// panel and runs dock keep readable sizes, no column header is cut, long texts are elided with the
// whole text as a tooltip, Ctrl+C copies the selected rows, and the window remembers its layout,
// columns, sort and profile between starts (a settings file of the test's own).
#include "models/JobsFilterProxy.h"
#include "models/JobsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ColumnFitter.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DescribeViewer.h"
#include "widgets/ElidedTextDelegate.h"
#include "widgets/JobDescriber.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/RunMonitor.h"
#include "widgets/TableViewSupport.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

#include <functional>
#include <memory>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;

namespace {

const QString kLongName =
    QStringLiteral("a_job_whose_name_is_much_longer_than_any_column_would_show_by_default");

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

// Every column but a stretched last one is at least as wide as its header text needs.
QStringList cutHeaders(const QTableView* view) {
    QStringList cut;
    const QHeaderView* header = view->horizontalHeader();
    for (int visual = 0; visual + 1 < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        if (!header->isSectionHidden(column) && header->sectionSize(column) < header->sectionSizeHint(column))
            cut << view->model()->headerData(column, Qt::Horizontal).toString();
    }
    return cut;
}

// `view` on `model` with what every table gets, its header set up by `configure` first, shown at 900×300.
bool showWithSupport(QTableView& view, QAbstractItemModel& model,
                     const std::function<void(QHeaderView*)>& configure) {
    view.setModel(&model);
    configure(view.horizontalHeader());
    TableViewSupport::install(&view);
    view.resize(900, 300);
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

} // namespace

class TestMainWindowLayout final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ConsoleHome m_home;

    MainWindow::Options options(const QString& profile = QStringLiteral("layout")) const {
        return m_home.options(profile);
    }

    std::unique_ptr<MainWindow> openWindow(const QString& profile = QStringLiteral("layout")) {
        auto window = std::make_unique<MainWindow>(options(profile));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->show();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY2(loaded.wait(20000), qPrintable(window->statusWidget()->text()));
        }();
        return QTest::currentTestFailed() ? nullptr : std::move(window);
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("layout"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        const auto ok = [this](const QString& s) { return statementSucceeds(m_service, m_admin, s); };
        QVERIFY(ok("CREATE CLUSTER demo_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(ok("CREATE CLUSTER other_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(
            ok("CREATE JOB alpha TYPE = 'PYTHON' PARAMETERS = ( 's3://b/a.py' ) CLUSTER = 'demo_cluster'"));
        QVERIFY(ok("CREATE JOB beta TYPE = 'JAR' PARAMETERS = ( '--class', 'x.Y', 's3://b/b.jar' ) CLUSTER = "
                   "'other_cluster'"));
        QVERIFY(
            ok("CREATE JOB gamma TYPE = 'PYTHON' PARAMETERS = ( 's3://b/g.py' ) CLUSTER = 'demo_cluster'"));
        QVERIFY(ok("CREATE JOB " + kLongName +
                   " TYPE = 'PYTHON' PARAMETERS = ( 's3://b/l.py' ) CLUSTER = 'demo_cluster'"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("layout"), m_service, m_admin, &error), qPrintable(error));
        QVERIFY2(m_home.saveProfile(QStringLiteral("second"), m_service, m_admin, &error), qPrintable(error));
        QVERIFY2(m_home.saveProfile(QStringLiteral("third"), m_service, m_admin, &error), qPrintable(error));
        QVERIFY2(m_home.saveProfile(QStringLiteral("narrow"), m_service, m_admin, &error), qPrintable(error));
    }

    void selectingAJobDescribesIt() {
        auto window = openWindow();
        QVERIFY(window);
        DescribeViewer* viewer = window->describeViewer();
        JobDescriber* describer = window->jobDescriber();
        QSignalSpy described(describer, &JobDescriber::described);

        QVERIFY(window->jobsView()->selectJob("beta"));
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB beta"), 15000);
        saveScreenshot(window.get(), QStringLiteral("mainwindow-select-describes.png"));

        // Moving through jobs quickly asks once, for the one the selection stops on.
        const int sent = describer->requestsSent();
        described.clear();
        QVERIFY(window->jobsView()->selectJob("alpha"));
        QVERIFY(window->jobsView()->selectJob("beta"));
        QVERIFY(window->jobsView()->selectJob("gamma"));
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB gamma"), 15000);
        QCOMPARE(describer->requestsSent(), sent + 1);
        QCOMPARE(described.count(), 1);

        // An answer on its way when the selection moves is dropped: the viewer never shows alpha.
        described.clear();
        QVERIFY(window->jobsView()->selectJob("alpha"));
        describer->flush(); // alpha's request is sent now
        QCOMPARE(describer->requestsSent(), sent + 2);
        QVERIFY(window->jobsView()->selectJob("beta"));
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB beta"), 15000);
        QTest::qWait(500); // alpha's answer, had it been kept, would have arrived meanwhile
        QCOMPARE(described.count(), 1);
        QCOMPARE(described.first().first().toString(), QStringLiteral("beta"));
        QCOMPARE(viewer->title(), QStringLiteral("DESCRIBE JOB beta"));
    }

    void sizesStayReadableWithTheRunsDockOpen() {
        auto window = openWindow();
        QVERIFY(window);
        window->resize(900, 640);
        window->runMonitorDock()->show();
        QTest::qWait(200);
        const int line = window->fontMetrics().height();
        QVERIFY2(window->jobsView()->height() >= 8 * line,
                 qPrintable(QString::number(window->jobsView()->height())));
        QVERIFY(window->describeViewer()->height() >= 8 * line);
        QVERIFY(window->describeViewer()->width() >= 30 * window->fontMetrics().averageCharWidth());
        QVERIFY(window->runMonitor()->height() >= 6 * line);
        QCOMPARE(cutHeaders(window->jobsView()->table()), QStringList());
        QCOMPARE(cutHeaders(window->runMonitor()->activeView()), QStringList());
        QCOMPARE(cutHeaders(window->runMonitor()->historyView()), QStringList());
        saveScreenshot(window.get(), QStringLiteral("mainwindow-runs-dock-open.png"));
    }

    void longTextsAreElidedWithATooltip() {
        auto window = openWindow();
        QVERIFY(window);
        QTableView* table = window->jobsView()->table();
        auto* delegate = qobject_cast<ElidedTextDelegate*>(table->itemDelegate());
        QVERIFY(delegate);
        const int row = window->jobsModel()->rowOf(kLongName.toStdString());
        const QModelIndex index =
            window->jobsProxy()->mapFromSource(window->jobsModel()->index(row, JobsTableModel::Name));
        QVERIFY(index.isValid());
        table->horizontalHeader()->resizeSection(JobsTableModel::Name, 120);
        QCOMPARE(delegate->toolTipFor(table, index), kLongName);
        // A short name that fits has no tooltip.
        const QModelIndex alpha = window->jobsProxy()->mapFromSource(
            window->jobsModel()->index(window->jobsModel()->rowOf("alpha"), JobsTableModel::Name));
        QCOMPARE(delegate->toolTipFor(table, alpha), QString());
        table->horizontalHeader()->resizeSection(JobsTableModel::Name, 1200);
        QCOMPARE(delegate->toolTipFor(table, index), QString());
    }

    void ctrlCCopiesTheSelectedRows() {
        auto window = openWindow();
        QVERIFY(window);
        QTableView* table = window->jobsView()->table();
        QVERIFY(window->jobsView()->selectJob("beta"));
        table->setFocus();
        QGuiApplication::clipboard()->clear();
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        const QStringList lines =
            QGuiApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].startsWith(QStringLiteral("Name\t")), qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith(QStringLiteral("beta\t")), qPrintable(lines[1]));
        QVERIFY2(lines[1].contains(QStringLiteral("\tother_cluster")), qPrintable(lines[1]));
    }

    // The next start selects the job selected when the window closed, and describes it on the tab the
    // user had chosen; another job is then shown on that tab too.
    void theSelectedJobAndItsTabComeBack() {
        {
            auto window = openWindow(QStringLiteral("third"));
            QVERIFY(window);
            QVERIFY(window->jobsView()->selectJob("gamma"));
            QTRY_COMPARE_WITH_TIMEOUT(window->describeViewer()->title(), QStringLiteral("DESCRIBE JOB gamma"),
                                      15000);
            window->describeViewer()->tabs()->setCurrentIndex(2); // JSON
            window->close();
        }
        auto window = openWindow(QStringLiteral("third"));
        QVERIFY(window);
        QCOMPARE(window->jobsView()->currentJobName().value_or(""), std::string("gamma"));
        DescribeViewer* viewer = window->describeViewer();
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB gamma"), 15000);
        QCOMPARE(viewer->tabs()->currentIndex(), 2);
        QVERIFY(window->jobsView()->selectJob("alpha"));
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB alpha"), 15000);
        QCOMPARE(viewer->tabs()->currentIndex(), 2);
    }

    // Widths saved beside short names (a 5-job demo) do not elide longer ones: the name column is
    // widened to the longest name in view, up to the fitter's cap, when the list loads and when a job
    // arrives through the events; other columns keep the remembered widths.
    void restoredNarrowWidthsDoNotElideNames() {
        {
            auto window = openWindow(QStringLiteral("narrow"));
            QVERIFY(window);
            QHeaderView* header = window->jobsView()->table()->horizontalHeader();
            header->resizeSection(JobsTableModel::Name, 60);
            header->resizeSection(JobsTableModel::Cluster, 71);
            QCOMPARE(header->sectionSize(JobsTableModel::Name), 60);
            window->close();
        }
        auto window = openWindow(QStringLiteral("narrow"));
        QVERIFY(window);
        QTableView* table = window->jobsView()->table();
        QHeaderView* header = table->horizontalHeader();
        const ColumnFitter* fitter = ColumnFitter::of(table);
        QVERIFY(fitter);
        const auto neededFor = [&](const QString& name) {
            return std::min(table->fontMetrics().horizontalAdvance(name), fitter->maxColumnWidth());
        };
        QTRY_VERIFY2(header->sectionSize(JobsTableModel::Name) >= neededFor(kLongName),
                     qPrintable(QString::number(header->sectionSize(JobsTableModel::Name))));
        QCOMPARE(header->sectionSize(JobsTableModel::Cluster), 71);

        // Narrowed by the user again, a longer name arriving through the events widens it again.
        header->resizeSection(JobsTableModel::Name, 60);
        const QString arriving = QStringLiteral("payments_etl_0001_daily");
        QVERIFY(statementSucceeds(
            m_service, m_admin,
            "CREATE JOB " + arriving +
                " TYPE = 'PYTHON' PARAMETERS = ( 's3://b/p.py' ) CLUSTER = 'demo_cluster'"));
        QTRY_VERIFY_WITH_TIMEOUT(window->jobsModel()->rowOf(arriving.toStdString()) >= 0, 15000);
        QTRY_VERIFY2(header->sectionSize(JobsTableModel::Name) >= neededFor(arriving),
                     qPrintable(QString::number(header->sectionSize(JobsTableModel::Name))));
        QVERIFY(statementSucceeds(m_service, m_admin, "DELETE JOB " + arriving));
    }

    // Columns fitted to a run first seen queued (a short status, no start time) grow with what arrives
    // later instead of eliding it; once the user sets a width, no change of the rows moves it.
    void fittedColumnsGrowWithLaterRows() {
        QStandardItemModel model(0, 3);
        model.setHorizontalHeaderLabels(
            {QStringLiteral("Status"), QStringLiteral("Started"), QStringLiteral("Id")});
        model.appendRow({new QStandardItem(QStringLiteral("Queued")), new QStandardItem(),
                         new QStandardItem(QStringLiteral("r1"))});
        QTableView view;
        QVERIFY(
            showWithSupport(view, model, [](QHeaderView* header) { header->setStretchLastSection(false); }));
        QHeaderView* header = view.horizontalHeader();
        const QString started = QStringLiteral("2026-12-05 20:00:21");
        const int startedWidth = view.fontMetrics().horizontalAdvance(started);
        QTRY_VERIFY(header->sectionSize(0) >= view.fontMetrics().horizontalAdvance(QStringLiteral("Queued")));
        QVERIFY(header->sectionSize(1) < startedWidth);

        model.item(0, 0)->setText(QStringLiteral("Succeeded"));
        model.item(0, 1)->setText(started);
        QTRY_VERIFY2(header->sectionSize(1) > startedWidth,
                     qPrintable(QString::number(header->sectionSize(1))));
        QVERIFY(header->sectionSize(0) > view.fontMetrics().horizontalAdvance(QStringLiteral("Succeeded")));
        model.appendRow({new QStandardItem(QStringLiteral("Running, cancel requested")),
                         new QStandardItem(started), new QStandardItem(QStringLiteral("r2"))});
        QTRY_VERIFY(header->sectionSize(0) >
                    view.fontMetrics().horizontalAdvance(QStringLiteral("Running, cancel requested")));
        // A run that ended unseen is bold, with its status dot: still whole.
        auto* ended = new QStandardItem(QStringLiteral("Completed with a bold font"));
        QFont bold = view.font();
        bold.setBold(true);
        ended->setFont(bold);
        ended->setData(QColor(Qt::darkGreen), Qt::DecorationRole);
        // Its run id, a UUID, is bold too and wider than the same id in the regular font (its letters
        // wider than its digits: the widest ids are all letters).
        auto* endedId = new QStandardItem(QStringLiteral("dcbeadbe-eaed-4dab-adbe-bdcaedbadcbe"));
        endedId->setFont(bold);
        model.appendRow({ended, new QStandardItem(started), endedId});
        const auto* delegate = qobject_cast<const ElidedTextDelegate*>(view.itemDelegate());
        QVERIFY(delegate);
        QTRY_VERIFY2(delegate->toolTipFor(&view, model.index(2, 0)).isEmpty(),
                     qPrintable(QString::number(header->sectionSize(0))));
        QTRY_VERIFY2(delegate->toolTipFor(&view, model.index(2, 2)).isEmpty(),
                     qPrintable(QString::number(header->sectionSize(2))));
        for (int row = 0; row < model.rowCount(); ++row)
            for (int column = 0; column < 3; ++column)
                QVERIFY2(delegate->toolTipFor(&view, model.index(row, column)).isEmpty(),
                         qPrintable(QStringLiteral("row %1, column %2 is elided").arg(row).arg(column)));

        header->resizeSection(0, 40);
        model.item(0, 0)->setText(QStringLiteral("Failed after a much longer wait than any before"));
        QTest::qWait(50);
        QCOMPARE(header->sectionSize(0), 40);
    }

    // Columns the header sizes itself (to contents, stretched) are nobody's choice: the fitted columns
    // beside them still grow with later rows.
    void fittedColumnsGrowBesideColumnsSizedToContents() {
        QStandardItemModel model(0, 3);
        model.setHorizontalHeaderLabels(
            {QStringLiteral("Status"), QStringLiteral("Run id"), QStringLiteral("Detail")});
        model.appendRow({new QStandardItem(QStringLiteral("Queued")), new QStandardItem(QStringLiteral("r1")),
                         new QStandardItem()});
        QTableView view;
        QVERIFY(showWithSupport(view, model, [](QHeaderView* header) {
            header->setSectionResizeMode(0, QHeaderView::ResizeToContents);
            header->setStretchLastSection(true);
        }));
        QHeaderView* header = view.horizontalHeader();
        const QString runId = QStringLiteral("f1f80c34-1795-4a25-9073-9b9d7e275ea1");
        QTRY_VERIFY(header->sectionSize(1) >= view.fontMetrics().horizontalAdvance(QStringLiteral("Run id")));
        QVERIFY(header->sectionSize(1) < view.fontMetrics().horizontalAdvance(runId));
        // The header grows the Status column to its new text by itself.
        model.item(0, 0)->setText(QStringLiteral("Running, cancel requested"));
        QTRY_VERIFY(header->sectionSize(0) >
                    view.fontMetrics().horizontalAdvance(QStringLiteral("Running, cancel requested")));
        model.appendRow(
            {new QStandardItem(QStringLiteral("Queued")), new QStandardItem(runId), new QStandardItem()});
        QTRY_VERIFY2(header->sectionSize(1) > view.fontMetrics().horizontalAdvance(runId),
                     qPrintable(QString::number(header->sectionSize(1))));
    }

    // A view's own elide mode (the middle, for ids) is kept by the support every table gets.
    void aViewsElideModeIsKept() {
        QTableView view;
        view.setTextElideMode(Qt::ElideMiddle);
        TableViewSupport::install(&view);
        QCOMPARE(view.textElideMode(), Qt::ElideMiddle);
        auto window = openWindow();
        QVERIFY(window);
        QCOMPARE(window->runMonitor()->activeView()->textElideMode(), Qt::ElideMiddle);
    }

    void theWindowRemembersItsLayout() {
        QHeaderView* header = nullptr;
        QByteArray historyState;
        QList<int> splitterSizes;
        {
            auto window = openWindow(QStringLiteral("second"));
            QVERIFY(window);
            // Within the offscreen screen (800 x 600): a larger geometry is shrunk when restored.
            window->resize(760, 540);
            window->addDockWidget(Qt::RightDockWidgetArea, window->runMonitorDock());
            window->runMonitorDock()->show();
            header = window->jobsView()->table()->horizontalHeader();
            header->moveSection(header->visualIndex(JobsTableModel::Cluster), 0);
            header->resizeSection(JobsTableModel::Name, 533);
            window->jobsView()->table()->sortByColumn(JobsTableModel::Cluster, Qt::DescendingOrder);
            auto* splitter = window->findChild<QSplitter*>(QStringLiteral("mainSplitter"));
            QVERIFY(splitter);
            splitter->setSizes({250, 500});
            QTest::qWait(100);
            splitterSizes = splitter->sizes();
            window->runMonitor()->historyView()->horizontalHeader()->resizeSection(0, 177);
            window->close();
        }
        // The next start, without naming a profile: the same layout, and the last profile.
        auto window = std::make_unique<MainWindow>(options(QString()));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY2(loaded.wait(20000), qPrintable(window->statusWidget()->text()));
        QCOMPARE(window->currentProfile(), QStringLiteral("second"));
        QCOMPARE(window->size(), QSize(760, 540));
        QVERIFY(window->runMonitorDock()->isVisible());
        QCOMPARE(window->dockWidgetArea(window->runMonitorDock()), Qt::RightDockWidgetArea);
        header = window->jobsView()->table()->horizontalHeader();
        QCOMPARE(header->visualIndex(JobsTableModel::Cluster), 0);
        QCOMPARE(header->sectionSize(JobsTableModel::Name), 533);
        QCOMPARE(header->sortIndicatorSection(), int(JobsTableModel::Cluster));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        // The rows follow the remembered sort: other_cluster first.
        QCOMPARE(window->jobsProxy()->index(0, JobsTableModel::Name).data().toString(),
                 QStringLiteral("beta"));
        QCOMPARE(window->findChild<QSplitter*>(QStringLiteral("mainSplitter"))->sizes(), splitterSizes);
        QCOMPARE(window->runMonitor()->historyView()->horizontalHeader()->sectionSize(0), 177);
        saveScreenshot(window.get(), QStringLiteral("mainwindow-remembered.png"));
    }
};

JOBDECK_TEST_MAIN(TestMainWindowLayout)
#include "tst_mainwindowlayout.moc"
