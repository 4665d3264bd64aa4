#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

namespace jobdeck {

// What a connection is doing, for admission: which connections may be closed to make room for a new
// one, oldest first.
enum class ConnectionPhase : std::uint8_t {
    Fresh, // accepted, not one byte received yet
    Idle,  // waiting for a request, or reading its header
    Busy,  // a request is being read, handled or answered
    Gone,  // refused or evicted: closing
};

// One connection's place in a ConnectionTable, embedded in the connection (intrusive): adding,
// moving and removing it allocate nothing and visit no other connection.
class ConnectionEntry {
public:
    explicit ConnectionEntry(std::string address)
        : m_address(std::move(address)) {}
    ConnectionEntry(const ConnectionEntry&) = delete;
    ConnectionEntry& operator=(const ConnectionEntry&) = delete;

    const std::string& address() const { return m_address; }

protected:
    ~ConnectionEntry() = default;

private:
    friend class ConnectionTable;
    const std::string m_address; // the client's IP address
    ConnectionPhase m_phase = ConnectionPhase::Fresh;
    bool m_listed = false;
    bool m_counted = false; // against its address's limit
    ConnectionEntry* m_previous = nullptr;
    ConnectionEntry* m_next = nullptr;
};

struct ConnectionLimits final {
    std::size_t maxConnections = 1024;
    std::size_t reservedConnections = 64; // kept for requests in progress
    std::size_t maxPerAddress = 128;      // 0: no limit
};

// The open connections as admission sees them: one list per phase, oldest first (a connection joins
// its list's tail when it enters the phase), and the number of connections per client address.
// Admitting a connection reads counters and the heads of the lists; it never walks the other
// connections, however many are open. Not thread-safe: the owner calls it under one lock.
class ConnectionTable final {
public:
    explicit ConnectionTable(ConnectionLimits limits);

    struct Admission final {
        std::optional<std::string> refusal; // set: refused with this reason (503); the entry is Gone
        ConnectionEntry* evicted = nullptr; // closed to make room (now Gone): the owner closes it
        std::size_t open = 0;               // the other connections, when it came to closing one
        std::size_t waiting = 0;            // of which waiting for a request
    };
    // Adds `entry` (Fresh) and decides whether it may stay. When the limits are reached, the oldest
    // connection that has sent nothing, else the oldest idle one, is offered to `tryEvict`, which
    // closes it (true) or declines (false: it is ending by itself) and the next is offered.
    Admission admit(ConnectionEntry& entry, const std::function<bool(ConnectionEntry&)>& tryEvict);
    // Moves the entry to the tail of `phase`'s list; a Gone entry stays Gone.
    void setPhase(ConnectionEntry& entry, ConnectionPhase phase);
    static ConnectionPhase phase(const ConnectionEntry& entry) { return entry.m_phase; }
    // Takes the entry out for good (its connection has ended).
    void remove(ConnectionEntry& entry);

    // Every entry listed, Gone ones included.
    std::size_t size() const;
    std::size_t count(ConnectionPhase phase) const { return m_lists[index(phase)].size; }
    std::size_t connectionsFrom(const std::string& address) const;
    // Calls `visit` with every entry: for the periodic sweep and shutdown, never on admission.
    void forEach(const std::function<void(ConnectionEntry&)>& visit) const;
    // How many other connections the latest admit() looked at: a small constant.
    std::size_t lastAdmissionVisits() const { return m_lastAdmissionVisits; }

private:
    struct List final {
        ConnectionEntry* head = nullptr;
        ConnectionEntry* tail = nullptr;
        std::size_t size = 0;
    };
    static std::size_t index(ConnectionPhase phase) { return static_cast<std::size_t>(phase); }
    void link(ConnectionEntry& entry, ConnectionPhase phase);
    void unlink(ConnectionEntry& entry);
    // Offers the oldest of `phase` (other than `except`) to `tryEvict`; the one closed, or null.
    ConnectionEntry* evictOldest(ConnectionPhase phase, const ConnectionEntry& except,
                                 const std::function<bool(ConnectionEntry&)>& tryEvict);

    ConnectionLimits m_limits;
    std::array<List, 4> m_lists;
    std::unordered_map<std::string, std::size_t> m_perAddress;
    std::size_t m_lastAdmissionVisits = 0;
};

} // namespace jobdeck
