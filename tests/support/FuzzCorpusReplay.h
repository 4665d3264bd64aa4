#pragma once

// Replays a saved libFuzzer corpus (tests/fuzz-corpus/<target>/) through its target's check, so every
// input the fuzzers once found interesting stays covered by the ordinary test run.

#include <QDir>
#include <QFile>
#include <QTest>

#include <functional>
#include <string>
#include <string_view>

namespace jobdeck {

inline void replayFuzzCorpus(const QString& target,
                             const std::function<std::string(std::string_view)>& check) {
    const QDir dir(QStringLiteral(JOBDECK_SOURCE_DIR "/tests/fuzz-corpus/") + target);
    const QStringList files = dir.entryList(QDir::Files, QDir::Name);
    QVERIFY2(!files.isEmpty(), qPrintable(QStringLiteral("no corpus files in ") + dir.path()));
    for (const QString& name : files) {
        QFile file(dir.filePath(name));
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QByteArray data = file.readAll();
        const std::string failure = check(std::string_view(data.constData(), std::size_t(data.size())));
        QVERIFY2(failure.empty(), qPrintable(name + QStringLiteral(": ") + QString::fromStdString(failure)));
    }
}

} // namespace jobdeck
