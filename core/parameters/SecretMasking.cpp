#include "core/parameters/SecretMasking.h"

#include "core/parameters/EmbeddedSecrets.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"
#include "core/text/AsciiText.h"
#include "core/wire/AuditEntry.h"
#include "core/wire/Cluster.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobRun.h"

#include <algorithm>
#include <array>
#include <type_traits>

namespace jobdeck {

namespace {

bool isBlank(char c) {
    return isAsciiSpace(c);
}

// An option and its value in one token, "--password x" (typed on one line): the option's name and
// where its value starts, after the blanks; nullopt for any other token.
std::optional<std::pair<std::string_view, std::size_t>> optionAndValueInOne(std::string_view token) {
    if (token.size() < 2 || token.front() != '-')
        return std::nullopt;
    const auto blank = std::find_if(token.begin(), token.end(), isBlank);
    const auto value = std::find_if_not(blank, token.end(), isBlank);
    const std::string_view name(token.begin(), blank);
    if (value == token.end() || name.find('=') != std::string_view::npos)
        return std::nullopt;
    return std::pair{name, static_cast<std::size_t>(value - token.begin())};
}

// An option whose value is the next token: "--password", not "--password=x" nor "--password x".
bool isOptionWithoutValue(std::string_view token) {
    return token.size() > 1 && token.front() == '-' && token.find('=') == std::string_view::npos &&
           !optionAndValueInOne(token);
}

// Where a token holds the value of a secret key: the bytes [valueOffset, valueOffset + valueLength)
// of token valueToken (valueLength npos: to its end).
struct SecretSlot {
    std::string key;
    std::size_t valueToken = 0;
    std::size_t valueOffset = 0;
    std::size_t valueLength = std::string::npos;

    std::size_t end(std::size_t tokenSize) const {
        return valueLength == std::string::npos ? tokenSize : valueOffset + valueLength;
    }
};

// A secret value inside one token read on its own: "key=value" with a secret key, or
// "-option=key=value" (spark-submit's inline form, and any option written like it) with a secret
// inner key. The key is the one a configuration pair of the same setting has, so forms match in ALTER.
// A key holds no blank followed by '-': "-Da=1 -Dpw.password=X" is a list of -D pairs
// (javaPropertySlots), not a key "1 -Dpw.password".
std::optional<std::pair<std::string, std::size_t>> inlineSecret(std::string_view token) {
    const std::size_t eq = token.find('=');
    if (eq == std::string_view::npos)
        return std::nullopt;
    const auto isKey = [](std::string_view key) {
        // In a URL's query ("https://h/f?X-Amz-Security-Token=t&X-Amz-Expires=60") findEmbeddedSecrets
        // masks the members one by one, so the ones after a secret stay readable.
        if (key.find_first_of("?&") != std::string_view::npos)
            return false;
        for (std::size_t i = 0; i + 1 < key.size(); ++i)
            if (isBlank(key[i]) && key[i + 1] == '-')
                return false;
        return isSecretKey(key);
    };
    if (isKey(token.substr(0, eq)))
        return std::pair{std::string(token.substr(0, eq)), eq + 1};
    if (!token.starts_with('-'))
        return std::nullopt;
    const std::size_t inner = token.find('=', eq + 1);
    if (inner == std::string_view::npos || !isKey(token.substr(eq + 1, inner - eq - 1)))
        return std::nullopt;
    return std::pair{std::string(token.substr(eq + 1, inner - eq - 1)), inner + 1};
}

// The first blank at or after `from` outside quotes (' or ", a backslash escaping inside "), or the end.
std::size_t unquotedBlank(std::string_view token, std::size_t from) {
    char quote = 0;
    for (std::size_t i = from; i < token.size(); ++i) {
        const char c = token[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && quote == '"')
                ++i;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (isBlank(c)) {
            return i;
        }
    }
    return token.size();
}

std::size_t afterBlanks(std::string_view token, std::size_t from) {
    while (from < token.size() && isBlank(token[from]))
        ++from;
    return from;
}

// The end of a -D value that starts at `from`: the next blank outside quotes that is followed by
// another JVM option ('-'), or the end. A blank followed by anything else stays in the value, so a
// value with an unquoted blank is masked whole.
std::size_t javaValueEnd(std::string_view token, std::size_t from) {
    for (std::size_t blank = unquotedBlank(token, from); blank < token.size();
         blank = unquotedBlank(token, afterBlanks(token, blank))) {
        const std::size_t next = afterBlanks(token, blank);
        if (next == token.size() || token[next] == '-')
            return blank;
    }
    return token.size();
}

// Every "-Dkey=value" of a JVM options string inside the token (--driver-java-options' value,
// spark.*.extraJavaOptions, an argument carrying JVM options) whose key is secret. A -D starts the
// token, or follows a blank or '='.
void javaPropertySlots(std::string_view token, std::size_t index, std::vector<SecretSlot>& slots) {
    for (std::size_t at = token.find("-D"); at != std::string_view::npos; at = token.find("-D", at + 2)) {
        if (at > 0 && !isBlank(token[at - 1]) && token[at - 1] != '=')
            continue;
        std::size_t eq = at + 2;
        while (eq < token.size() && token[eq] != '=' && !isBlank(token[eq]))
            ++eq;
        if (eq >= token.size() || token[eq] != '=' || eq == at + 2)
            continue;
        const std::string_view key = token.substr(at, eq - at);
        const std::size_t end = javaValueEnd(token, eq + 1);
        if (isSecretKey(key.substr(2)))
            slots.push_back({std::string(key), index, eq + 1, end - eq - 1});
        at = std::max(at, end > 2 ? end - 2 : at);
    }
}

// The [begin, end) of each word of a token: blank-separated, a quoted part (' or ") inside the word.
std::vector<std::pair<std::size_t, std::size_t>> wordRanges(std::string_view token) {
    std::vector<std::pair<std::size_t, std::size_t>> words;
    for (std::size_t begin = afterBlanks(token, 0); begin < token.size();) {
        const std::size_t end = unquotedBlank(token, begin);
        words.emplace_back(begin, end);
        begin = afterBlanks(token, end);
    }
    return words;
}

// A command line pasted into one token ("spark.y=1 --conf spark.password=X" after --conf, "nightly
// --password X" after --name): each word after the first is read as a parameter of its own, a
// "key=value" or "-option=key=value" with a secret key, or a secret-named option before the next word.
// A value runs to the next blank followed by an option (as a -D value does), so one with blanks is
// hidden whole and splitting the token keeps it in its pair. The first word is tokenSlots' other
// readings', and -D pairs are javaPropertySlots'.
void embeddedSlots(std::string_view token, std::size_t index, std::vector<SecretSlot>& slots) {
    const auto words = wordRanges(token);
    for (std::size_t w = 1; w < words.size(); ++w) {
        const auto [begin, end] = words[w];
        const std::string_view word = token.substr(begin, end - begin);
        if (word.starts_with("-D"))
            continue;
        std::optional<std::pair<std::string, std::size_t>> secret = inlineSecret(word);
        if (secret)
            secret->second += begin;
        else if (isOptionWithoutValue(word) && isSecretKey(word) && w + 1 < words.size())
            secret = std::pair{std::string(word), words[w + 1].first};
        if (secret) {
            const std::size_t from = secret->second;
            slots.push_back({std::move(secret->first), index, from, javaValueEnd(token, from) - from});
        }
    }
}

// Every reading of one token (-D pairs, a command line pasted into it, and, `whole`, an inline
// "key=value" or a secret-named option and its value in one, then the forms findEmbeddedSecrets finds
// in any text: URL query and JDBC pairs, a URL's password, JSON members), without overlaps: a -D pair's
// bounded value wins over an inline reading that starts at the same place, and a slot that starts inside an
// earlier one is dropped. Not `whole`: the token is a pair's value, or a pair whose key is not secret.
void tokenSlots(std::string_view token, std::size_t index, std::vector<SecretSlot>& slots,
                bool whole = true) {
    std::vector<SecretSlot> found;
    javaPropertySlots(token, index, found);
    embeddedSlots(token, index, found);
    if (const auto inOne = optionAndValueInOne(token); whole && inOne && isSecretKey(inOne->first))
        found.push_back({std::string(inOne->first), index, inOne->second});
    if (auto secret = whole ? inlineSecret(token) : std::nullopt) {
        const bool sameStart = std::any_of(
            found.begin(), found.end(), [&](const SecretSlot& s) { return s.valueOffset == secret->second; });
        if (!sameStart)
            found.push_back({std::move(secret->first), index, secret->second});
    }
    for (auto& embedded : findEmbeddedSecrets(token))
        found.push_back({std::move(embedded.key), index, embedded.offset, embedded.length});
    std::stable_sort(found.begin(), found.end(),
                     [](const SecretSlot& a, const SecretSlot& b) { return a.valueOffset < b.valueOffset; });
    std::size_t covered = 0;
    std::size_t kept = 0;
    for (auto& slot : found) {
        // An empty value right after another masked one would make one **** of two.
        const bool empty = slot.end(token.size()) == slot.valueOffset;
        if (slot.valueOffset < covered || (empty && kept > 0 && slot.valueOffset == covered))
            continue;
        // An empty value still holds its place: a second reading of it would mask it twice.
        covered = std::max(slot.end(token.size()), slot.valueOffset + 1);
        ++kept;
        slots.push_back(std::move(slot));
    }
}

// How a list is read: as stored (or shown), or as sent back in ALTER with its secrets as ****.
enum class Reading { AsGiven, AsSentBack };

// maskArguments' reading of the tokens not yet `taken`. The token after a secret-named option is its
// value, masked whole whatever it starts with; a value that is itself a secret-named option takes the
// token after it too, under the first option's key. Sent back, such a value is ****, and a **** followed
// by another continues the chain the same way, so that each **** of it finds its stored value.
void argumentSlots(const std::vector<std::string>& params, std::vector<bool>& taken,
                   std::vector<SecretSlot>& slots, Reading reading) {
    std::size_t i = 0;
    while (i < params.size()) {
        if (taken[i]) {
            ++i;
            continue;
        }
        if (!isOptionWithoutValue(params[i])) {
            tokenSlots(params[i], i, slots);
            ++i;
            continue;
        }
        const std::string& option = params[i++];
        if (!isSecretKey(option))
            continue;
        while (i < params.size() && !taken[i]) {
            const std::string& value = params[i];
            slots.push_back({option, i});
            taken[i++] = true;
            const bool chains =
                (isOptionWithoutValue(value) && isSecretKey(value)) ||
                (reading == Reading::AsSentBack && value == kMask && i < params.size() && params[i] == kMask);
            if (!chains)
                break;
        }
    }
}

bool isConfigurationPair(const ClassifiedToken& t) {
    return t.equalsPos >= 0 || t.cls == TokenClass::ConfPair || t.cls == TokenClass::HudiConfPair ||
           t.cls == TokenClass::MisplacedHudiConfPair;
}

// `withClassifier`: PARAMETERS, whose configuration pairs (--conf, -c, --hudi-conf, --hoodie-conf, their
// inline forms, and --hudi-conf pairs after the path) are found by the classifier and masked by their
// key, or, for a key that is not secret (spark.driver.extraJavaOptions), by the -D pairs of their
// value; every other token is read as an application argument.
std::vector<SecretSlot> secretSlots(const std::vector<std::string>& params, bool withClassifier,
                                    Reading reading = Reading::AsGiven) {
    std::vector<SecretSlot> slots;
    std::vector<bool> taken(params.size(), false);
    if (withClassifier) {
        for (const ClassifiedToken& t : classifyTokens(params).tokens) {
            if (!isConfigurationPair(t))
                continue;
            const auto index = static_cast<std::size_t>(t.index);
            taken[index] = true;
            const std::string_view key = rangeText(params[index], t.keyRange);
            if (t.equalsPos >= 0 && isSecretKey(key))
                slots.push_back({std::string(key), index, static_cast<std::size_t>(t.equalsPos) + 1});
            else if (t.equalsPos >= 0)
                tokenSlots(params[index], index, slots, false);
        }
    }
    argumentSlots(params, taken, slots, reading);
    std::sort(slots.begin(), slots.end(), [](const SecretSlot& a, const SecretSlot& b) {
        return std::pair(a.valueToken, a.valueOffset) < std::pair(b.valueToken, b.valueOffset);
    });
    return slots;
}

std::string_view slotValue(const std::vector<std::string>& params, const SecretSlot& slot) {
    return std::string_view(params[slot.valueToken]).substr(slot.valueOffset, slot.valueLength);
}

// Masks every slot (the last first, so that earlier offsets in the same token stay right) and adds
// what was hidden to `secrets` when given.
std::vector<std::string> maskSlots(const std::vector<std::string>& params, bool withClassifier,
                                   std::vector<std::string>* secrets = nullptr) {
    std::vector<std::string> masked = params;
    const auto slots = secretSlots(params, withClassifier);
    for (auto s = slots.rbegin(); s != slots.rend(); ++s) {
        if (secrets)
            secrets->emplace_back(slotValue(params, *s));
        masked[s->valueToken].replace(s->valueOffset, s->valueLength, kMask);
    }
    return masked;
}

struct Unmasked {
    std::vector<std::string> params;
    std::optional<UnresolvedMask> unresolved; // the first ****, in parameter order, without a stored value
};

Unmasked unmask(const std::vector<std::string>& submitted, const std::vector<std::string>& stored) {
    std::map<std::string, std::vector<std::string>> storedValues;
    for (const auto& s : secretSlots(stored, true))
        storedValues[s.key].emplace_back(slotValue(stored, s));

    Unmasked r{submitted, std::nullopt};
    std::map<std::string, std::size_t> seen;
    std::vector<std::pair<SecretSlot, std::string>> replacements;
    for (const auto& s : secretSlots(submitted, true, Reading::AsSentBack)) {
        const std::size_t n = seen[s.key]++;
        if (slotValue(submitted, s) != kMask)
            continue;
        const auto it = storedValues.find(s.key);
        if (it == storedValues.end()) {
            if (!r.unresolved)
                r.unresolved = UnresolvedMask{s.key, static_cast<int>(s.valueToken)};
            continue;
        }
        const auto& values = it->second;
        replacements.emplace_back(s, values[std::min(n, values.size() - 1)]);
    }
    for (auto it = replacements.rbegin(); it != replacements.rend(); ++it)
        r.params[it->first.valueToken].replace(it->first.valueOffset, it->first.valueLength, it->second);
    return r;
}

// Where a pair's value holds secrets: the whole of it under a secret key, else what tokenSlots finds in
// it (spark.driver.extraJavaOptions = "-Da=1 -Dpw.password=X", spark.y = "1 --conf spark.password=X").
std::vector<SecretSlot> pairValueSlots(const std::string& key, const std::string& value) {
    std::vector<SecretSlot> slots;
    if (isSecretKey(key))
        slots.push_back({key, 0, 0});
    else
        tokenSlots(value, 0, slots, false);
    return slots;
}

// The value of a configuration or argument pair, its secrets as ****.
void maskPairValue(const std::string& key, std::string& value, std::vector<std::string>* secrets = nullptr) {
    const std::vector<SecretSlot> slots = pairValueSlots(key, value);
    for (auto s = slots.rbegin(); s != slots.rend(); ++s) {
        if (secrets)
            secrets->push_back(value.substr(s->valueOffset, s->valueLength));
        value.replace(s->valueOffset, s->valueLength, kMask);
    }
}

// "api.key", "API_KEY", "Api-Key" and "apikey" alike: the name in lower case without its separators.
std::string withoutSeparators(std::string_view lower) {
    std::string joined;
    joined.reserve(lower.size());
    for (const char c : lower)
        if (c != '.' && c != '_' && c != '-')
            joined += c;
    return joined;
}

} // namespace

bool isSecretKey(std::string_view key) {
    // The contract's four words, then the other names secrets go by: a signed URL's signature (S3, GCS,
    // CloudFront; `sig` in an Azure SAS), ODBC's PWD, an HTTP Authorization header, and keys named as such.
    static constexpr std::array<std::string_view, 7> kWords{
        "password", "secret", "token", "credential", "passwd", "passphrase", "signature"};
    static constexpr std::array<std::string_view, 3> kNames{"sig", "pwd", "authorization"};
    // Last in the name, so that "api.key.supplier" (a class) and "private.key.id" stay readable.
    static constexpr std::array<std::string_view, 3> kEndings{"apikey", "privatekey", "accountkey"};
    // ASCII folding: under a Turkish locale std::tolower('I') is not 'i', and DB_CREDENTIAL would show.
    const std::string lower = asciiLowered(key);
    if (std::any_of(kWords.begin(), kWords.end(),
                    [&](std::string_view w) { return lower.find(w) != std::string::npos; }))
        return true;
    const std::string_view name =
        std::string_view(lower).substr(std::min(lower.find_first_not_of('-'), lower.size()));
    if (std::find(kNames.begin(), kNames.end(), name) != kNames.end())
        return true;
    if (lower.find("key") == std::string::npos) // what the rest looks for ends in "key"
        return false;
    const std::string joined = withoutSeparators(lower);
    // Spark's own default redaction (spark.redaction.regex) hides access keys (fs.s3a.access.key); Azure
    // names the account in the middle (fs.azure.account.key.<account>.dfs.core.windows.net).
    if (joined.find("accesskey") != std::string::npos || lower.find("account.key.") != std::string::npos)
        return true;
    return std::any_of(kEndings.begin(), kEndings.end(),
                       [&](std::string_view e) { return joined.ends_with(e); });
}

std::vector<std::string> maskParameters(const std::vector<std::string>& params) {
    return maskSlots(params, true);
}

std::vector<std::string> maskArguments(const std::vector<std::string>& arguments) {
    return maskSlots(arguments, false);
}

std::vector<SecretValueRange> secretValueRanges(const std::vector<std::string>& params) {
    std::vector<SecretValueRange> ranges;
    for (const SecretSlot& slot : secretSlots(params, true)) {
        const std::size_t size = params[slot.valueToken].size();
        ranges.push_back({slot.valueToken, slot.valueOffset, slot.end(size) - slot.valueOffset});
    }
    return ranges;
}

std::string maskArgument(std::string_view token) {
    return maskSlots({std::string(token)}, false).front();
}

std::vector<std::string> unmaskParameters(const std::vector<std::string>& submitted,
                                          const std::vector<std::string>& stored) {
    return unmask(submitted, stored).params;
}

std::string UnresolvedMask::message(Holder holder) const {
    return "The value of " + quoted(key) + " is masked (****) but the " +
           (holder == Holder::Job ? "Job" : "cluster") + " has no stored value for it; send the real value.";
}

UnmaskedPairs unmaskPairs(const std::vector<std::pair<std::string, std::string>>& submitted,
                          const std::vector<std::pair<std::string, std::string>>& stored) {
    UnmaskedPairs r{submitted, std::nullopt};
    for (auto& pair : r.pairs) {
        const std::string& key = pair.first;
        std::string& value = pair.second;
        if (value.find(kMask) == std::string::npos || key.find('=') != std::string::npos)
            continue;
        // Read as one "key=value" parameter: maskPairs hides what such a parameter's reading hides.
        const auto asParameter = [&](const std::string& pairValue) {
            std::string parameter = key;
            parameter += '=';
            parameter += pairValue;
            return parameter;
        };
        const auto same =
            std::find_if(stored.rbegin(), stored.rend(), [&](const auto& kept) { return kept.first == key; });
        std::vector<std::string> storedPair;
        if (same != stored.rend())
            storedPair.push_back(asParameter(same->second));
        Unmasked u = unmask({asParameter(value)}, storedPair);
        if (u.unresolved) {
            if (!r.unresolved)
                r.unresolved = UnresolvedMask{u.unresolved->key, -1};
            continue;
        }
        value = u.params.front().substr(key.size() + 1);
    }
    return r;
}

std::optional<UnresolvedMask> unresolvedMask(const std::vector<std::string>& submitted,
                                             const std::vector<std::string>& stored) {
    // Most lists hold no **** at all: they need no reading.
    if (std::none_of(submitted.begin(), submitted.end(),
                     [](const std::string& p) { return p.find(kMask) != std::string::npos; }))
        return std::nullopt;
    return unmask(submitted, stored).unresolved;
}

std::optional<std::string> findUnresolvedMask(const std::vector<std::string>& submitted,
                                              const std::vector<std::string>& stored) {
    const auto unresolved = unresolvedMask(submitted, stored);
    return unresolved ? std::optional(unresolved->message()) : std::nullopt;
}

std::vector<std::pair<std::size_t, std::size_t>> pairSecretRanges(const std::string& key,
                                                                  const std::string& value) {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (const SecretSlot& slot : pairValueSlots(key, value))
        if (slot.end(value.size()) > slot.valueOffset)
            ranges.emplace_back(slot.valueOffset, slot.end(value.size()) - slot.valueOffset);
    return ranges;
}

bool holdsMaskedSecret(const std::string& key, const std::string& value) {
    if (value.find(kMask) == std::string::npos) // most values: no reading needed
        return false;
    const std::vector<SecretSlot> slots = pairValueSlots(key, value);
    return std::any_of(slots.begin(), slots.end(), [&](const SecretSlot& slot) {
        return std::string_view(value).substr(slot.valueOffset, slot.valueLength) == kMask;
    });
}

std::string maskedPairValue(const std::string& key, std::string value) {
    maskPairValue(key, value);
    return value;
}

void maskPairs(std::vector<std::pair<std::string, std::string>>& pairs) {
    for (auto& [key, value] : pairs)
        maskPairValue(key, value);
}

void maskConfigs(std::map<std::string, std::string>& configs) {
    for (auto& [key, value] : configs)
        maskPairValue(key, value);
}

void maskJob(SparkJob& job) {
    job.parameters = maskParameters(job.parameters);
    job.applicationPath = maskArgument(job.applicationPath);
    job.arguments = maskArguments(job.arguments);
    job.misplacedHudiConfigs = maskArguments(job.misplacedHudiConfigs);
    maskConfigs(job.sparkConfigs);
    maskConfigs(job.hudiConfigs);
}

void maskRun(SparkJobRun& run) {
    run.arguments = maskArguments(run.arguments);
    maskPairs(run.argumentOverrides);
}

void maskCluster(Cluster& cluster) {
    maskConfigs(cluster.sparkConfigs);
    maskConfigs(cluster.hudiConfigs);
    maskPairs(cluster.with);
}

void maskAudit(AuditEntry& entry) {
    maskConfigs(entry.headers);
}

namespace {

void maskParametersCollecting(std::vector<std::string>& params, std::vector<std::string>& secrets) {
    params = maskSlots(params, true, &secrets);
}

void maskPairsCollecting(std::vector<std::pair<std::string, std::string>>& pairs,
                         std::vector<std::string>& secrets) {
    for (auto& [key, value] : pairs)
        maskPairValue(key, value, &secrets);
}

Statement maskParsed(Statement statement, std::vector<std::string>& secrets) {
    std::visit(
        [&](auto& s) {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, CreateJobStatement>) {
                maskParametersCollecting(s.parameters, secrets);
            } else if constexpr (std::is_same_v<T, AlterJobStatement>) {
                if (s.parameters)
                    maskParametersCollecting(*s.parameters, secrets);
            } else if constexpr (std::is_same_v<T, RunJobStatement>) {
                maskPairsCollecting(s.arguments, secrets);
            } else if constexpr (std::is_same_v<T, CreateClusterStatement> ||
                                 std::is_same_v<T, AlterClusterStatement>) {
                maskPairsCollecting(s.with, secrets);
            }
        },
        statement);
    return statement;
}

bool isQuote(char c) {
    return c == '\'' || c == '"' || c == '`';
}

// Characters that end a bare word: blanks, quotes and the statement grammar's punctuation.
bool endsBareWord(char c) {
    return isBlank(c) || isQuote(c) || c == '=' || c == ',' || c == '(' || c == ')' || c == ';';
}

// Text that does not parse, read token by token: strings in any quotes ('...', "...", `...`, the quote
// doubled inside; an unterminated one runs to the end), bare words and punctuation. A string is
// masked as maskArguments masks one token ("k=v", "--opt=k=v", -D pairs). A secret key is followed by
// its value, masked whole in whatever form it comes (quoted in any way or bare, up to the next blank,
// ',' or ')'), after blanks, '=', ':' or ',': a key is a single- or double-quoted string, or a bare or
// back-quoted word followed by '=' or ':' or starting with '-' (an option). Errs on the side of masking.
class UnparsedTextMasker final {
public:
    UnparsedTextMasker(std::string_view text, std::vector<std::string>& secrets)
        : m_text(text)
        , m_secrets(secrets) {}

    std::string run() {
        m_out.reserve(m_text.size());
        while (m_at < m_text.size()) {
            const char c = m_text[m_at];
            if (isQuote(c))
                quoted(c);
            else if (!endsBareWord(c))
                bareWord();
            else
                punctuation(c);
        }
        return std::move(m_out);
    }

private:
    void punctuation(char c) {
        if (c == '(' || c == ')' || c == ';')
            m_valueIsSecret = false; // the key had no value
        m_out += c;
        ++m_at;
    }

    // The next non-blank character after `from` is '=' or ':'.
    bool assignmentFollows(std::size_t from) const {
        while (from < m_text.size() && isBlank(m_text[from]))
            ++from;
        return from < m_text.size() && (m_text[from] == '=' || m_text[from] == ':');
    }

    void hide(std::string_view value) {
        m_secrets.emplace_back(value);
        m_valueIsSecret = false;
    }

    void bareWord() {
        if (m_valueIsSecret) { // a bare value: to the next blank, ',' or ')', '=' included
            const std::size_t start = m_at;
            while (m_at < m_text.size() && !isBlank(m_text[m_at]) && m_text[m_at] != ',' &&
                   m_text[m_at] != ')' && m_text[m_at] != ';')
                ++m_at;
            hide(m_text.substr(start, m_at - start));
            m_out += kMask;
            return;
        }
        std::size_t end = m_at;
        while (end < m_text.size() && !endsBareWord(m_text[end]))
            ++end;
        const std::string_view word = m_text.substr(m_at, end - m_at);
        m_out += word;
        m_at = end;
        m_valueIsSecret = isSecretKey(word) && (word.starts_with('-') || assignmentFollows(end));
    }

    // A quoted string: the quote doubled inside stands for one.
    void quoted(char quote) {
        std::string content;
        std::size_t j = m_at + 1;
        while (j < m_text.size()) {
            if (m_text[j] == quote) {
                if (j + 1 < m_text.size() && m_text[j + 1] == quote) {
                    content += quote;
                    j += 2;
                    continue;
                }
                break;
            }
            content += m_text[j++];
        }
        const bool terminated = j < m_text.size();
        m_at = terminated ? j + 1 : m_text.size();
        const std::string masked = maskedString(content, quote);
        m_out += quote;
        for (const char c : masked) {
            m_out += c;
            if (c == quote)
                m_out += quote;
        }
        if (terminated)
            m_out += quote;
    }

    std::string maskedString(const std::string& content, char quote) {
        if (m_valueIsSecret) {
            hide(content);
            return std::string(kMask);
        }
        std::string masked = maskArguments({content}).front();
        if (masked != content) {
            maskSlots({content}, false, &m_secrets);
            return masked;
        }
        m_valueIsSecret = !content.empty() && isSecretKey(content) &&
                          (quote != '`' || content.starts_with('-') || assignmentFollows(m_at));
        return content;
    }

    std::string_view m_text;
    std::vector<std::string>& m_secrets;
    std::string m_out;
    std::size_t m_at = 0;
    bool m_valueIsSecret = false; // the last key read was secret: the next value is hidden
};

} // namespace

namespace {

// Longest first, so a secret that contains another is replaced whole; each once, none empty or ****.
void orderSecrets(std::vector<std::string>& secrets) {
    std::erase_if(secrets, [](const std::string& secret) { return secret.empty() || secret == kMask; });
    std::sort(secrets.begin(), secrets.end(), [](const std::string& a, const std::string& b) {
        return a.size() != b.size() ? a.size() > b.size() : a < b;
    });
    secrets.erase(std::unique(secrets.begin(), secrets.end()), secrets.end());
}

} // namespace

MaskedStatement maskStatement(const ParseResult& parsed, std::string_view text) {
    if (parsed.statement)
        return maskStatement(*parsed.statement, StatementLayout::OneLine);
    MaskedStatement result;
    result.text = UnparsedTextMasker(text, result.secrets).run();
    orderSecrets(result.secrets);
    return result;
}

MaskedStatement maskStatement(const Statement& statement, StatementLayout layout) {
    MaskedStatement result;
    result.text = printStatement(maskParsed(statement, result.secrets), layout);
    orderSecrets(result.secrets);
    return result;
}

MaskedStatement maskStatement(std::string_view text) {
    return maskStatement(parseStatement(text), text);
}

std::vector<std::string> runSecretValues(const std::vector<std::string>& parameters,
                                         const std::vector<std::string>& arguments,
                                         std::vector<std::pair<std::string, std::string>> pairs) {
    std::vector<std::string> secrets;
    maskSlots(parameters, true, &secrets);
    maskSlots(arguments, false, &secrets);
    maskPairsCollecting(pairs, secrets);
    std::erase_if(secrets, [](const std::string& secret) {
        const std::string lower = asciiLowered(secret);
        return lower == "true" || lower == "false";
    });
    orderSecrets(secrets);
    return secrets;
}

std::vector<std::string> mergeSecretValues(std::vector<std::string> secrets,
                                           const std::vector<std::string>& more) {
    secrets.insert(secrets.end(), more.begin(), more.end());
    orderSecrets(secrets);
    return secrets;
}

void scrubSecrets(std::string& message, const std::vector<std::string>& secrets) {
    for (const auto& secret : secrets)
        for (auto at = secret.empty() ? std::string::npos : message.find(secret); at != std::string::npos;
             at = message.find(secret, at + kMask.size()))
            message.replace(at, secret.size(), kMask);
}

} // namespace jobdeck
