#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// The variables of jobdeckd's own environment a driver (and spark-submit) is started with
// (docs/service.md, "The driver's environment"): an allow-list of what Spark and Python drivers need,
// plus the names the admin adds with --driver-env; the run's own variables (ONEHOUSE_JOB_RUN_ID,
// HUDI_CONF_DIR, PYSPARK_SUBMIT_ARGS) come on top. Nothing that configures jobdeckd's own database
// (PG*: PGPASSWORD, PGPASSFILE, PGHOST, ...) is ever passed, whatever the admin adds.
//
// The allow-list: PATH, HOME, USER, LOGNAME, SHELL, TMPDIR, TZ, LANG, LANGUAGE, LC_*, JAVA_HOME,
// SPARK_HOME, SPARK_CONF_DIR, HADOOP_HOME, HADOOP_CONF_DIR, YARN_CONF_DIR, PYSPARK_*, PYTHONPATH.
// A name ending in '*' (here and in --driver-env) stands for every name with that prefix.
bool passesToDriver(std::string_view name, const std::vector<std::string>& adminNames);

// Why a --driver-env value is refused, nullopt when it is fine: empty, not a variable name (letters,
// digits, '_', an optional trailing '*'), or a PG* name.
std::optional<std::string> driverEnvironmentNameRefusal(std::string_view name);

} // namespace jobdeck
