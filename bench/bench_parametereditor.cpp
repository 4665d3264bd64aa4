// LIBS: jobdeck_widgets Qt6::Widgets
// Per-keystroke re-check of the parameter editor on a 5,000-parameter Job: one character typed, then
// classify + validate + re-highlight (ParameterEditor::recheckNow), against a plain QPlainTextEdit taking the
// same keystroke without any highlighting, measured in the same run. Budget: 16 ms per keystroke.
// Run offscreen: QT_QPA_PLATFORM=offscreen bench_parametereditor

#include "widgets/ParameterEditor.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QTextBlock>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace jobdeck;

namespace {

std::vector<std::string> bigJob(int count) {
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

// Median of `rounds` keystrokes typed in the middle of the job configuration.
template <class AfterKeystroke>
double medianKeystrokeMs(QPlainTextEdit& edit, int rounds, AfterKeystroke after) {
    std::vector<double> ms;
    QTextCursor cursor(edit.document()->findBlockByNumber(edit.blockCount() / 4));
    cursor.movePosition(QTextCursor::EndOfBlock);
    for (int r = 0; r < rounds; ++r) {
        QElapsedTimer t;
        t.start();
        cursor.insertText(QStringLiteral("1"));
        after();
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const int count = 5000, rounds = 40;
    const std::vector<std::string> params = bigJob(count);

    ParameterEditor editor;
    ValidationContext ctx;
    ctx.settings.hudiConfigsEnabled = true;
    ctx.settings.hudiConfigAllowlist = {"hoodie.datasource.meta.sync."};
    editor.setValidationContext(ctx);
    editor.resize(800, 600);
    editor.show();
    editor.setParameters(params);
    const double editorMs = medianKeystrokeMs(editor, rounds, [&] { editor.recheckNow(); });

    QPlainTextEdit plain;
    plain.resize(800, 600);
    plain.show();
    plain.setPlainText(editor.toPlainText());
    const double plainMs = medianKeystrokeMs(plain, rounds, [] {});

    std::printf("parameters: %d (%zu read back), diagnostics: %zu\n", count, editor.parameters().size(),
                editor.diagnostics().size());
    std::printf("per-keystroke re-check (classify + validate + rehighlight), median of %d: %.3f ms\n", rounds,
                editorMs);
    std::printf("reference: plain QPlainTextEdit keystroke without highlighting, median of %d: %.3f ms\n",
                rounds, plainMs);
    std::printf("ratio: %.1fx; budget 16 ms: %s\n", plainMs > 0 ? editorMs / plainMs : 0.0,
                editorMs < 16.0 ? "within" : "OVER");
    return 0;
}
