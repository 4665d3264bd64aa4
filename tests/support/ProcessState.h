#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace jobdeck::test {

// Whether `pid` is a live process. A zombie is not: a daemon that ended stays one until whatever
// adopted it reaps it, which a container's init may never do.
inline bool processIsRunning(qint64 pid) {
    if (pid <= 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    // "<pid> (<comm>) <state> ...": the state follows the last ')'.
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close >= 0 && close + 2 < text.size() && text.at(close + 2) != 'Z';
}

} // namespace jobdeck::test
