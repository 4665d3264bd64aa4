#pragma once

#include <QString>
#include <QUrl>

namespace jobdeck {

// The documentation shipped with the console: share/doc/jobdeck beside the installed binary
// (<prefix>/bin/../share/doc/jobdeck), which the build tree mirrors (<build>/share/doc/jobdeck).
class Documentation final {
public:
    // The directory holding README.md and the guides; empty when none is found.
    static QString defaultDirectory();
    // README.md in `directory`, or an empty URL when it is not there.
    static QUrl entryPoint(const QString& directory);
    // Shows the entry point in the console's help window (one per console, raised when open);
    // false when there is none.
    static bool open(const QString& directory);
};

} // namespace jobdeck
