#include "service/http/ConnectionTable.h"

#include "core/wire/HttpMessages.h"

#include <algorithm>

namespace jobdeck {

ConnectionTable::ConnectionTable(ConnectionLimits limits)
    : m_limits(limits) {}

std::size_t ConnectionTable::size() const {
    std::size_t total = 0;
    for (const auto& list : m_lists)
        total += list.size;
    return total;
}

std::size_t ConnectionTable::connectionsFrom(const std::string& address) const {
    const auto it = m_perAddress.find(address);
    return it == m_perAddress.end() ? 0 : it->second;
}

void ConnectionTable::forEach(const std::function<void(ConnectionEntry&)>& visit) const {
    for (const auto& list : m_lists)
        for (ConnectionEntry* entry = list.head; entry;) {
            ConnectionEntry* next = entry->m_next; // `visit` may move the entry to another list
            visit(*entry);
            entry = next;
        }
}

void ConnectionTable::link(ConnectionEntry& entry, ConnectionPhase phase) {
    List& list = m_lists[index(phase)];
    entry.m_phase = phase;
    entry.m_previous = list.tail;
    entry.m_next = nullptr;
    (list.tail ? list.tail->m_next : list.head) = &entry;
    list.tail = &entry;
    ++list.size;
    entry.m_listed = true;
}

void ConnectionTable::unlink(ConnectionEntry& entry) {
    if (!entry.m_listed)
        return;
    List& list = m_lists[index(entry.m_phase)];
    (entry.m_previous ? entry.m_previous->m_next : list.head) = entry.m_next;
    (entry.m_next ? entry.m_next->m_previous : list.tail) = entry.m_previous;
    entry.m_previous = entry.m_next = nullptr;
    --list.size;
    entry.m_listed = false;
}

void ConnectionTable::setPhase(ConnectionEntry& entry, ConnectionPhase phase) {
    if (!entry.m_listed || entry.m_phase == ConnectionPhase::Gone)
        return;
    unlink(entry);
    link(entry, phase);
}

void ConnectionTable::remove(ConnectionEntry& entry) {
    unlink(entry);
    if (!entry.m_counted)
        return;
    entry.m_counted = false;
    const auto it = m_perAddress.find(entry.m_address);
    if (it != m_perAddress.end() && --it->second == 0)
        m_perAddress.erase(it);
}

ConnectionEntry* ConnectionTable::evictOldest(ConnectionPhase phase, const ConnectionEntry& except,
                                              const std::function<bool(ConnectionEntry&)>& tryEvict) {
    // Oldest first; one that declines is ending by itself (its owner is destroying it), and there are
    // never more of those than threads waiting on the owner's lock.
    for (ConnectionEntry* candidate = m_lists[index(phase)].head; candidate; candidate = candidate->m_next) {
        if (candidate == &except)
            continue;
        ++m_lastAdmissionVisits;
        if (tryEvict(*candidate)) {
            setPhase(*candidate, ConnectionPhase::Gone);
            return candidate;
        }
    }
    return nullptr;
}

ConnectionTable::Admission ConnectionTable::admit(ConnectionEntry& entry,
                                                  const std::function<bool(ConnectionEntry&)>& tryEvict) {
    m_lastAdmissionVisits = 0;
    Admission admission;
    const std::size_t waitingBefore = count(ConnectionPhase::Fresh) + count(ConnectionPhase::Idle);
    const std::size_t openBefore = waitingBefore + count(ConnectionPhase::Busy);
    link(entry, ConnectionPhase::Fresh);
    std::size_t& fromAddress = m_perAddress[entry.m_address];
    if (m_limits.maxPerAddress > 0 && fromAddress >= m_limits.maxPerAddress) {
        setPhase(entry, ConnectionPhase::Gone);
        admission.refusal = tooManyConnectionsFromAddressMessage();
        return admission;
    }
    ++fromAddress;
    entry.m_counted = true;
    // Connections waiting for a request may hold at most `waitingLimit`, and all of them together at
    // most maxConnections: beyond either, the oldest that has sent nothing, else the oldest idle one,
    // is closed for the new one.
    const std::size_t waitingLimit =
        m_limits.maxConnections - std::min(m_limits.reservedConnections, m_limits.maxConnections - 1);
    if (size() <= waitingLimit)
        return admission; // below the point where the reserve starts: the usual case
    if (openBefore < m_limits.maxConnections && waitingBefore < waitingLimit)
        return admission;
    admission.open = openBefore;
    admission.waiting = waitingBefore;
    for (const auto phase : {ConnectionPhase::Fresh, ConnectionPhase::Idle})
        if ((admission.evicted = evictOldest(phase, entry, tryEvict)))
            return admission;
    if (openBefore < m_limits.maxConnections)
        return admission; // busy ones fill the reserve: the new one may still use it
    setPhase(entry, ConnectionPhase::Gone);
    admission.refusal = tooManyConnectionsMessage();
    return admission;
}

} // namespace jobdeck
