#include "service/runs/ReplicaIdentity.h"

#include "service/stores/RandomIds.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace jobdeck {
namespace {

bool isReplicaId(const std::string& text) {
    return !text.empty() && text.size() <= 64 &&
           text.find_first_not_of("0123456789abcdef-") == std::string::npos;
}

std::string hostName() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0 || !name[0])
        return "localhost";
    return name;
}

} // namespace

ReplicaIdentity ReplicaIdentity::load(const std::string& dataDir) {
    const auto path = std::filesystem::path(dataDir) / "replica-id";
    ReplicaIdentity identity;
    identity.m_host = hostName();
    identity.m_dataDir = std::filesystem::absolute(dataDir).string();
    identity.m_claim = RandomIds::randomUuid();
    std::ifstream in(path);
    if (in && std::getline(in, identity.m_id) && isReplicaId(identity.m_id))
        return identity;
    identity.m_id = RandomIds::randomUuid();
    const auto written = path.string() + ".new";
    {
        std::ofstream out(written, std::ios::trunc);
        out << identity.m_id << '\n';
        if (!out.flush())
            throw std::runtime_error("cannot write " + written + ": the replica id of this data directory");
    }
    std::error_code ec;
    std::filesystem::rename(written, path, ec);
    if (ec)
        throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
    return identity;
}

} // namespace jobdeck
