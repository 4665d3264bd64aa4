#pragma once

#include <string>

namespace jobdeck {

// Which jobdeckd replica this process is, among those sharing one database: an id kept in the data
// directory's `replica-id` file, so a replica restarted on the same data directory is the same replica
// (it re-attaches to the drivers it started there), and the host it runs on, for the logs and
// docs/scale-out.md's replicas table.
class ReplicaIdentity final {
public:
    // Reads `<dataDir>/replica-id`, creating it with a new random id the first time; throws
    // std::runtime_error when it can be neither read nor written.
    static ReplicaIdentity load(const std::string& dataDir);

    const std::string& id() const { return m_id; }
    const std::string& host() const { return m_host; }
    const std::string& dataDir() const { return m_dataDir; }
    // A token new with every process: which process holds the replica id's lease (ReplicaLeases).
    const std::string& claim() const { return m_claim; }

private:
    std::string m_id;
    std::string m_host;
    std::string m_dataDir;
    std::string m_claim;
};

} // namespace jobdeck
