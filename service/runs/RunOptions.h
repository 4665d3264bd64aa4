#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace jobdeck {

// What RunManager is told of `jobdeckd serve`'s options. ServiceApp fills it from ServeOptions, which
// holds the defaults and says what each option means (CONTRACT §5); the run layer does not see the rest.
struct RunOptions final {
    std::string dataDir;                      // runs/<id> directories and the wakeup fifo live here
    std::map<std::string, std::string> s3Map; // bucket -> local directory for s3:// application paths
    std::string runner;                       // local | spark-submit
    std::string sparkSubmit;                  // the spark-submit executable
    std::string deployMode;                   // client | cluster
    std::string sparkMaster;                  // the cluster manager's URL, cluster deploy mode only
    std::chrono::seconds cancelGrace{};
    int retentionDays = 0;
    std::uint64_t maxLogBytes = 0;
    std::chrono::seconds clusterStatusInterval{};
    std::chrono::seconds shutdownGrace{};
    std::chrono::seconds leaseTimeout{};
    std::chrono::seconds orphanedRunTimeout{};
};

} // namespace jobdeck
