#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QList>
#include <QString>

#include <unistd.h>

namespace jobdeck::test {

// The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses): the
// state first, then the parent's pid, ...; empty when the process is gone.
inline QList<QByteArray> statFields(qint64 pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close < 0 ? QList<QByteArray>{} : text.mid(close + 2).trimmed().split(' ');
}

// Whether `pid` is a live process. A zombie is not: a daemon that ended stays one until whatever
// adopted it reaps it, which a container's init may never do.
inline bool processIsRunning(qint64 pid) {
    const QList<QByteArray> fields = statFields(pid);
    return !fields.isEmpty() && fields.first() != "Z";
}

// The processor time (user and system, seconds) `pid` has used so far; 0 when it is gone.
inline double processorSeconds(qint64 pid) {
    const QList<QByteArray> fields = statFields(pid);
    if (fields.size() < 13)
        return 0;
    // utime and stime: fields 14 and 15 of the line, the 12th and 13th after the name.
    return (fields.at(11).toDouble() + fields.at(12).toDouble()) /
           static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// The processes whose parent is `parent`, as this process's /proc shows them.
inline QList<qint64> childProcesses(qint64 parent) {
    QList<qint64> children;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const QList<QByteArray> fields = statFields(pid);
        if (fields.size() > 1 && fields.at(1).toLongLong() == parent)
            children << pid;
    }
    return children;
}

} // namespace jobdeck::test
