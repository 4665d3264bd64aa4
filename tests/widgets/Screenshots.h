#pragma once

#include "tests/support/AwaitReply.h"

#include <QDir>
#include <QTest>
#include <QWidget>

namespace jobdeck::test {

// Saves `window` as `name` in the test run's artefacts; with JOBDECK_UPDATE_SCREENSHOTS=1 in
// docs/images as well, where the user documentation shows it.
inline void saveScreenshot(QWidget* window, const QString& name) {
    QVERIFY(window->grab().save(QDir(artifactsDir()).filePath(name)));
    if (qEnvironmentVariableIntValue("JOBDECK_UPDATE_SCREENSHOTS") == 1)
        QVERIFY(window->grab().save(QStringLiteral(JOBDECK_SOURCE_DIR "/docs/images/") + name));
}

} // namespace jobdeck::test
