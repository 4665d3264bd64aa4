#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

struct AuditEntry;
struct Cluster;
struct SparkJob;
struct SparkJobRun;

// CONTRACT §2: values of keys whose name contains password, secret, token or credential are shown as
// **** to every role, in every field and in logs; sending **** back for such a key in ALTER keeps the
// stored value.
inline constexpr std::string_view kMask = "****";

// Case-insensitive: "hoodie.x.PASSWORD", "--api-token", "spark.hadoop.fs.s3a.secret.key" are secret.
bool isSecretKey(std::string_view key);

// Masks a parameter or argument list:
// - a "key=value" token whose key is secret keeps its key: "--db.password=x" -> "--db.password=****",
//   "spark.a.secret=x" (after --conf, -c or --hudi-conf) -> "spark.a.secret=****";
// - the token after an option without '=' whose name is secret: "--password x" -> "--password ****",
//   unless that token is itself a long option ("--api-token --verbose": a flag, nothing to hide).
// Everything else is returned unchanged.
std::vector<std::string> maskParameters(const std::vector<std::string>& params);

// The inverse for ALTER: each secret value submitted as **** takes the stored value of the same key.
// Keys match across both forms ("--password=****" finds a stored "--password x" and vice versa); the
// n-th masked occurrence of a key takes the n-th stored value of that key, or the last one when the
// stored list has fewer. A masked value whose key the stored list does not have stays ****: check
// findUnresolvedMask and refuse.
std::vector<std::string> unmaskParameters(const std::vector<std::string>& submitted,
                                          const std::vector<std::string>& stored);

// The refusal for the first **** that unmaskParameters cannot resolve, nullopt when there is none:
// "The value of '<key>' is masked (****) but the Job has no stored value for it; send the real value."
std::optional<std::string> findUnresolvedMask(const std::vector<std::string>& submitted,
                                              const std::vector<std::string>& stored);

// Masks the values of secret keys in place.
void maskPairs(std::vector<std::pair<std::string, std::string>>& pairs);
void maskConfigs(std::map<std::string, std::string>& configs);

// Every field of a wire object that can carry a secret value.
void maskJob(SparkJob& job);        // parameters, arguments, sparkConfigs, hudiConfigs, misplacedHudiConfigs
void maskRun(SparkJobRun& run);     // arguments, argumentOverrides
void maskCluster(Cluster& cluster); // sparkConfigs, hudiConfigs, with
void maskAudit(AuditEntry& entry);  // headers (the statement is masked by re-printing it where parsed)

} // namespace jobdeck
