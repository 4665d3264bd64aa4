// LIBS: jobdeck_widgets Qt6::Widgets
// Per-keystroke re-check of the parameter editor inside the job editor dialog, for a typical 20-parameter
// Job and a 5,000-parameter one: a key typed (or Backspace) in a --conf value, then the event loop run until
// the editor has re-read, classified, validated and re-highlighted the text, updated the gutter and the
// diagnostics panel, and painted. Each keystroke is split into core (classify + validate with Hudi advice of
// the same list, timed on its own right after) and widget (the rest). The reference, measured in the same
// run, is a plain QPlainTextEdit with the same text taking the same keystrokes. Budget: 16 ms per keystroke
// (p99) for 5,000 parameters. The live preview is rebuilt once typing pauses; its cost is printed apart.
// Run offscreen: QT_QPA_PLATFORM=offscreen bench_parametereditor

#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterValidator.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/ParameterEditor.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QPaintEvent>
#include <QPlainTextEdit>
#include <QTextBlock>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace jobdeck;

namespace {

volatile std::size_t g_sink = 0; // keeps the core's results alive so the optimiser cannot drop the work

// `count` parameters: --class, then --conf and --hudi-conf pairs (some outside the allow-list) up to half,
// the path, and application arguments.
std::vector<std::string> job(int count) {
    std::vector<std::string> p = {"--class", "com.example.App"};
    int i = 0;
    while (int(p.size()) < count / 2) {
        p.push_back(i % 3 == 0 ? "--conf" : "--hudi-conf");
        p.push_back(i % 3 == 0
                        ? "spark.sql.shuffle.partitions=" + std::to_string(i)
                        : "hoodie.datasource.meta.sync.key" + std::to_string(i) + "=v" + std::to_string(i));
        ++i;
    }
    p.push_back("s3://bucket/app.jar");
    while (int(p.size()) < count)
        p.push_back("--arg" + std::to_string(p.size()));
    return p;
}

struct Percentiles final {
    double p50 = 0;
    double p99 = 0;
    double best = 0;
};

Percentiles percentiles(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms[std::min(ms.size() - 1, std::size_t(q * double(ms.size())))]; };
    return {at(0.50), at(0.99), ms.front()};
}

// Puts the cursor at the end of the --conf value nearest a quarter of the way down: typing there keeps
// the list's shape, as editing a value does.
void placeCursor(QPlainTextEdit& edit) {
    QTextBlock block = edit.document()->findBlockByNumber(edit.blockCount() / 4);
    while (block.isValid() && !block.text().startsWith(QLatin1String("spark.")))
        block = block.next();
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::EndOfBlock);
    edit.setTextCursor(cursor);
    edit.setFocus();
}

// Alternately types a digit and deletes it, so the list neither grows nor changes shape between rounds.
void keystroke(QWidget* target, int round) {
    const bool type = round % 2 == 0;
    QKeyEvent press(QEvent::KeyPress, type ? Qt::Key_1 : Qt::Key_Backspace, Qt::NoModifier,
                    type ? QStringLiteral("1") : QString());
    QKeyEvent release(QEvent::KeyRelease, press.key(), Qt::NoModifier, press.text());
    QApplication::sendEvent(target, &press);
    QApplication::sendEvent(target, &release);
}

// Milliseconds of each keystroke, from the key event until the event loop has nothing left to do for it:
// `pending` says whether a re-check is still to run, and the paints it posts are done before the clock
// stops. `after(round)` runs untimed after each measured keystroke.
template <class Pending, class After>
std::vector<double> timeKeystrokes(QPlainTextEdit& edit, int rounds, Pending pending, After after) {
    placeCursor(edit);
    std::vector<double> ms;
    for (int r = -10; r < rounds; ++r) { // the first ten warm up
        QElapsedTimer t;
        t.start();
        keystroke(&edit, r);
        do
            QCoreApplication::processEvents();
        while (pending());
        QCoreApplication::processEvents();
        if (r < 0)
            continue;
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
        after();
    }
    return ms;
}

// Adds up the area a widget is asked to paint, to show whether a keystroke repaints a line or the view.
class PaintedArea final : public QObject {
public:
    explicit PaintedArea(QWidget* widget)
        : m_widget(widget) {
        widget->installEventFilter(this);
    }
    // Share of the widget's area painted since the last call, 1.0 being the whole widget once.
    double take() {
        const double share = m_pixels / double(std::max(1, m_widget->width() * m_widget->height()));
        m_pixels = 0;
        return share;
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint)
            for (const QRect& r : static_cast<QPaintEvent*>(event)->region())
                m_pixels += double(r.width()) * double(r.height());
        return false;
    }

private:
    QWidget* m_widget;
    double m_pixels = 0;
};

double coreMs(const std::vector<std::string>& parameters, const ValidationContext& context) {
    QElapsedTimer t;
    t.start();
    const ClassifiedParameters classified = classifyTokens(parameters);
    const std::vector<Diagnostic> diagnostics = validateParameters(parameters, classified, context);
    const double ms = double(t.nsecsElapsed()) / 1e6;
    g_sink = g_sink + classified.tokens.size() + diagnostics.size();
    return ms;
}

void run(const char* label, const std::vector<std::string>& parameters, int rounds) {
    ProjectSettings settings;
    settings.hudiConfigsEnabled = true;
    settings.hudiConfigAllowlist = {"hoodie.datasource.meta.sync."};

    JobEditorDialog dialog(nullptr, std::nullopt);
    dialog.setProjectSettings(settings);
    dialog.editor()->setParameters(parameters);
    dialog.updatePreviewNow();
    dialog.show();
    QCoreApplication::processEvents();
    ParameterEditor* editor = dialog.editor();

    // Each keystroke of the editor, then the core's share of it on the list it left.
    std::vector<double> core;
    PaintedArea painted(editor->viewport());
    const std::vector<double> total = timeKeystrokes(
        *editor, rounds, [editor] { return editor->recheckPending(); },
        [&] { core.push_back(coreMs(editor->parameters(), editor->validationContext())); });
    const double paintedShare = painted.take() / double(rounds + 10);
    std::vector<double> widget(total.size());
    for (std::size_t i = 0; i < total.size(); ++i)
        widget[i] = std::max(0.0, total[i] - core[i]);
    std::vector<double> preview;
    for (int r = 0; r < 10; ++r) {
        QElapsedTimer t;
        t.start();
        dialog.updatePreviewNow();
        preview.push_back(double(t.nsecsElapsed()) / 1e6);
    }

    QPlainTextEdit plain;
    plain.setFont(editor->font());
    plain.setLineWrapMode(QPlainTextEdit::NoWrap);
    plain.resize(editor->size());
    plain.setPlainText(editor->toPlainText());
    plain.show();
    QCoreApplication::processEvents();
    const Percentiles reference = percentiles(timeKeystrokes(
        plain, rounds, [] { return false; }, [] {}));

    const Percentiles all = percentiles(total), c = percentiles(core), w = percentiles(widget),
                      pre = percentiles(preview);
    std::printf("%s: %zu parameters, %zu diagnostics, %d keystrokes\n", label, editor->parameters().size(),
                editor->diagnostics().size(), rounds);
    std::printf("  editor keystroke    p50 %7.3f ms  p99 %7.3f ms  best %7.3f ms\n", all.p50, all.p99,
                all.best);
    std::printf("    core (classify+validate)  p50 %7.3f ms  p99 %7.3f ms\n", c.p50, c.p99);
    std::printf("    widget (the rest)         p50 %7.3f ms  p99 %7.3f ms\n", w.p50, w.p99);
    std::printf("    editor area painted per keystroke  %.0f%%\n", paintedShare * 100.0);
    std::printf("  reference QPlainTextEdit    p50 %7.3f ms  p99 %7.3f ms  best %7.3f ms\n", reference.p50,
                reference.p99, reference.best);
    std::printf("  ratio editor/reference      p50 %.1fx  p99 %.1fx\n",
                reference.p50 > 0 ? all.p50 / reference.p50 : 0.0,
                reference.p99 > 0 ? all.p99 / reference.p99 : 0.0);
    std::printf("  preview rebuild (once typing pauses)  p50 %7.3f ms  p99 %7.3f ms\n", pre.p50, pre.p99);
    std::printf("  budget 16 ms per keystroke (p99): %s\n", all.p99 < 16.0 ? "within" : "OVER");
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    run("20-parameter job", job(20), 400);
    run("5,000-parameter job", job(5000), 200);
    return 0;
}
