#include "service/runs/RunSecrets.h"

#include "core/parameters/SecretMasking.h"
#include "service/stores/Stores.h"

namespace jobdeck {

std::vector<std::string> runSecretValuesOf(Stores& stores, const RunRecord& record) {
    const auto job = stores.jobs().findJob(record.projectUid, record.run.jobName);
    const auto cluster = stores.clusters().findCluster(record.projectUid, record.cluster);
    return mergeSecretValues(
        runSecretValues(job ? job->parameters : std::vector<std::string>{}, record.run.arguments,
                        cluster ? cluster->with : std::vector<std::pair<std::string, std::string>>{}),
        record.launchSecrets);
}

} // namespace jobdeck
