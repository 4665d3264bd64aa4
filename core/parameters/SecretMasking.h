#pragma once

#include "core/statements/Statement.h"
#include "core/statements/StatementPrinter.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

struct AuditEntry;
struct Cluster;
struct ParseResult;
struct SparkJob;
struct SparkJobRun;

// CONTRACT §2: values of keys whose name contains password, secret, token or credential are shown as
// **** to every role, in every field and in logs; sending **** back for such a key in ALTER keeps the
// stored value.
inline constexpr std::string_view kMask = "****";

// Case-insensitive: "hoodie.x.PASSWORD", "--api-token", "spark.hadoop.fs.s3a.secret.key" are secret, and
// so are names that say "secret" otherwise: "X-Amz-Signature", "sig", "PWD", "--api-key", "AccountKey"
// (docs/wire-format.md, "Secret masking", has the whole rule).
bool isSecretKey(std::string_view key);

// Masks a Job's PARAMETERS, read the way the service reads them (classifyParameters), in every form
// spark-submit accepts:
// - a configuration pair whose key is secret keeps its key, whatever carries it: "--conf" then
//   "spark.a.secret=x", "-c" then "spark.a.secret=x", "--conf=spark.a.secret=x", "--hudi-conf" then
//   "hoodie.x.password=y", "--hudi-conf=hoodie.x.password=y" (also after the application path) ->
//   "...=****";
// - a configuration pair whose key is not secret has its value's secret -D pairs and embedded secrets
//   masked ("spark.driver.extraJavaOptions=-Da=1 -Dpw.password=X" -> "...-Dpw.password=****",
//   "spark.jdbc.url=jdbc:postgresql://h/db?user=u&password=X" -> "...&password=****");
// - any other token (an application argument, an option's value, an unknown option) is read as
//   maskArguments reads it.
// Everything else is returned unchanged.
std::vector<std::string> maskParameters(const std::vector<std::string>& params);

// Masks an application's arguments (what follows the path, or a run's effective arguments):
// - "key=value" whose key is secret keeps its key: "--db.password=x" -> "--db.password=****",
//   "auth_token=x" -> "auth_token=****", "-cspark.a.secret=x" -> "-cspark.a.secret=****";
// - "--option=key=value" whose inner key is secret: "--conf=spark.a.secret=x",
//   "--hoodie-conf=hoodie.x.password=y" -> "...=****";
// - every "-Dkey=value" with a secret key of a JVM options string in a token, however many pairs it
//   holds: "-Da=1 -Db=2 -Dpw.password=X" -> "-Da=1 -Db=2 -Dpw.password=****" (a -D starts the token or
//   follows a blank or '='; its value runs to the next blank outside quotes that is followed by '-');
// - the token after an option without '=' whose name is secret, whatever it starts with:
//   "--password x" -> "--password ****", "--api-token --X" -> "--api-token ****"; when that token is
//   itself a secret-named option, the token after it is masked too;
// - a secret-named option and its value in one token (typed on one line), everything after the blanks:
//   "--password x" -> "--password ****"; the token after it is not its value;
// - in any token, and in the value of any configuration or argument pair, a secret in one of the forms
//   findEmbeddedSecrets finds (core/parameters/EmbeddedSecrets.h): a URL query's or JDBC URL's
//   "password=X", a URL's "user:X@host", a JSON member "token": "X".
std::vector<std::string> maskArguments(const std::vector<std::string>& arguments);
// One token as maskArguments masks it: an application path, or any single parameter quoted in a message.
std::string maskArgument(std::string_view token);

// Where maskParameters puts a ****: the bytes [offset, offset + length) of parameter `parameter` (an
// empty value has length 0). In parameter order, then offset order.
struct SecretValueRange final {
    std::size_t parameter = 0;
    std::size_t offset = 0;
    std::size_t length = 0;
    bool operator==(const SecretValueRange&) const = default;
};
std::vector<SecretValueRange> secretValueRanges(const std::vector<std::string>& params);

// The inverse for ALTER: each secret value submitted as **** takes the stored value of the same key.
// Keys match across both forms ("--password=****" finds a stored "--password x" and vice versa); the
// n-th masked occurrence of a key takes the n-th stored value of that key, or the last one when the
// stored list has fewer. A masked value whose key the stored list does not have stays ****: check
// findUnresolvedMask and refuse.
std::vector<std::string> unmaskParameters(const std::vector<std::string>& submitted,
                                          const std::vector<std::string>& stored);

// The first **** (in parameter order) that unmaskParameters cannot resolve: its key, the parameter
// holding it, and the service's refusal for it.
struct UnresolvedMask final {
    std::string key;
    int parameterIndex = -1;
    enum class Holder { Job, Cluster }; // what has no stored value for it
    std::string message(Holder holder = Holder::Job) const;
};
std::optional<UnresolvedMask> unresolvedMask(const std::vector<std::string>& submitted,
                                             const std::vector<std::string>& stored);

// The refusal for the first **** that unmaskParameters cannot resolve, nullopt when there is none:
// "The value of '<key>' is masked (****) but the Job has no stored value for it; send the real value."
std::optional<std::string> findUnresolvedMask(const std::vector<std::string>& submitted,
                                              const std::vector<std::string>& stored);

// The inverse of maskPairs for a cluster's WITH pairs: a value masked as maskPairs masks it (**** under
// a secret key, or **** for a secret inside the value, such as a URL's password) takes, secret by secret,
// the value of the stored pair with the same key, as unmaskParameters does for a Job. `unresolved`: the
// first **** that no stored value stands for (a pair's key or the secret's, as unresolvedMask names it).
struct UnmaskedPairs final {
    std::vector<std::pair<std::string, std::string>> pairs;
    std::optional<UnresolvedMask> unresolved;
};
UnmaskedPairs unmaskPairs(const std::vector<std::pair<std::string, std::string>>& submitted,
                          const std::vector<std::pair<std::string, std::string>>& stored);

// Where maskPairs puts a **** in a pair's value: each [offset, offset + length) of `value`, none empty.
std::vector<std::pair<std::size_t, std::size_t>> pairSecretRanges(const std::string& key,
                                                                  const std::string& value);

// Whether the value of a pair (a RUN JOB override, a WITH pair) shows a secret as maskPairs masks it:
// **** under a secret key, or a **** where a secret is inside the value ("jdbc:...?password=****").
bool holdsMaskedSecret(const std::string& key, const std::string& value);

// Masks the values of secret keys in place, and the secret -D pairs of other values.
std::string maskedPairValue(const std::string& key, std::string value); // one pair's value, as maskPairs
void maskPairs(std::vector<std::pair<std::string, std::string>>& pairs);
void maskConfigs(std::map<std::string, std::string>& configs);

// Every field of a wire object that can carry a secret value.
// parameters, applicationPath, arguments, sparkConfigs, hudiConfigs, misplacedHudiConfigs
void maskJob(SparkJob& job);
void maskRun(SparkJobRun& run);     // arguments, argumentOverrides
void maskCluster(Cluster& cluster); // sparkConfigs, hudiConfigs, with
void maskAudit(AuditEntry& entry);  // headers (the statement is masked by maskStatement)

// A statement's text as the audit log, SHOW AUDIT_LOG and the service's log lines show it, and the
// secret values it hides (so that a message quoting the statement, such as a parse error naming a
// token, can be scrubbed of them with scrubSecrets).
struct MaskedStatement final {
    std::string text;
    std::vector<std::string> secrets; // longest first, each once, none empty
};
// A statement that parsed is printed back with its PARAMETERS masked by maskParameters, its RUN
// ARGUMENTS and cluster WITH pairs by maskPairs. Text that does not parse is masked token by token:
// each string in any quotes ('...', "...", `...`; an unterminated one runs to the end) as
// maskArguments masks one token ("k=v", "--opt=k=v", -D pairs), and the value after a secret key is
// masked whole, whatever its form (quoted in any way, or bare up to the next blank, ',' or ')'),
// after blanks, '=', ':' or ','. A key is a '...' or "..." string, or a bare or back-quoted word
// followed by '=' or ':' or starting with '-'. `parsed` is parseStatement(text).
MaskedStatement maskStatement(const ParseResult& parsed, std::string_view text);
MaskedStatement maskStatement(std::string_view text);
// A statement built rather than typed (the console's preview of what Save sends), printed in `layout` with
// its secret values masked as a parsed statement's are.
MaskedStatement maskStatement(const Statement& statement, StatementLayout layout);
// The secret values a run's driver is given, which maskParameters (the Job's parameters), maskArguments
// (the run's effective arguments) and maskPairs (its cluster's WITH) hide, longest first, each once. A
// switch's value (true, false) is left out: it tells nothing, and masking it would hide every such word
// of the driver's output (maskLogPart).
std::vector<std::string> runSecretValues(const std::vector<std::string>& parameters,
                                         const std::vector<std::string>& arguments,
                                         std::vector<std::pair<std::string, std::string>> pairs);

// The secret values of both lists, in the order runSecretValues gives (longest first, each once): a
// run's values as it was started and as its Job and cluster give them now.
std::vector<std::string> mergeSecretValues(std::vector<std::string> secrets,
                                           const std::vector<std::string>& more);

// Replaces every occurrence of each secret in `message` by ****; an empty secret stands for nothing.
void scrubSecrets(std::string& message, const std::vector<std::string>& secrets);

} // namespace jobdeck
