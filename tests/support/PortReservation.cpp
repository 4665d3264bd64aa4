#include "tests/support/PortReservation.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QRandomGenerator>
#include <QTcpServer>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace jobdeck {
namespace {

struct PortRange {
    int first = 0;
    int last = 0;
};

// The kernel's ephemeral ports (ip_local_port_range); Linux's default when it cannot be read.
PortRange ephemeralRange() {
    QFile file(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    PortRange range{32768, 60999};
    if (file.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> fields = file.readAll().simplified().split(' ');
        if (fields.size() == 2)
            range = {fields[0].toInt(), fields[1].toInt()};
    }
    return range;
}

// The ports tried: up to 16384 just below the ephemeral range, else those above it.
PortRange candidateRange() {
    const PortRange ephemeral = ephemeralRange();
    if (ephemeral.first - 1024 >= 4096)
        return {std::max(1024, ephemeral.first - 16384), ephemeral.first - 1};
    return {ephemeral.last + 1, 65535};
}

// One directory for every user's test processes, shared as /tmp itself is (sticky, writable by all).
QByteArray lockDirectory() {
    QByteArray path = QFile::encodeName(QDir::tempPath() + QStringLiteral("/jobdeck-test-ports"));
    if (::mkdir(path.constData(), 01777) == 0)
        ::chmod(path.constData(), 01777); // mkdir's mode passes through the umask
    return path;
}

bool nothingListensOn(quint16 port) {
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, port);
}

} // namespace

quint16 PortReservation::reserve() {
    release();
    const PortRange range = candidateRange();
    const int span = range.last - range.first + 1;
    if (span <= 0)
        return 0;
    const QByteArray directory = lockDirectory();
    const int start = static_cast<int>(QRandomGenerator::global()->bounded(span));
    for (int i = 0; i < std::min(span, 4096); ++i) {
        const auto port = static_cast<quint16>(range.first + (start + i) % span);
        const QByteArray lockPath = directory + "/" + QByteArray::number(port);
        const int fd = ::open(lockPath.constData(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            continue;
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0 && nothingListensOn(port)) {
            m_lockFd = fd;
            m_port = port;
            return port;
        }
        ::close(fd);
    }
    return 0;
}

void PortReservation::release() {
    if (m_lockFd >= 0)
        ::close(m_lockFd);
    m_lockFd = -1;
    m_port = 0;
}

} // namespace jobdeck
