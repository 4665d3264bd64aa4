#pragma once

#include "core/policy/ProjectSettings.h"
#include "core/wire/SparkJob.h"

namespace jobdeck {

enum class HudiConfigReasons { Left, Given };

// A Job as DESCRIBE JOB and SHOW JOBS show it: completed with what its parameters mean
// (describeParameters), the status of each Hudi configuration under `settings`, with why when `reasons`
// is Given (DESCRIBE JOB), and every secret value masked, for every role (CONTRACT §2). The service answers
// with it and the console's editor previews a Job with it, so both show the same.
SparkJob describeJob(SparkJob job, const ProjectSettings& settings, HudiConfigReasons reasons);

} // namespace jobdeck
