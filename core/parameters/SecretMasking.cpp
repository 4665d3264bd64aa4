#include "core/parameters/SecretMasking.h"

#include "core/parameters/ParameterClassifier.h"
#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"
#include "core/wire/AuditEntry.h"
#include "core/wire/Cluster.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobRun.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <type_traits>

namespace jobdeck {

namespace {

bool isOptionWithoutValue(std::string_view token) {
    return token.size() > 1 && token.front() == '-' && token.find('=') == std::string_view::npos;
}

// "--verbose" yes; "-5" or "--" no: a secret may well start with a dash.
bool looksLikeLongOption(std::string_view token) {
    return token.size() > 2 && token.substr(0, 2) == "--" &&
           std::isalpha(static_cast<unsigned char>(token[2]));
}

// Where a token holds the value of a secret key: either its own "key=value" (valueToken == the token,
// value from valueOffset on), or the token following a secret option (the whole token).
struct SecretSlot {
    std::string key;
    std::size_t valueToken = 0;
    std::size_t valueOffset = 0; // where the value starts inside valueToken
};

// A secret value inside one token read on its own: "key=value" with a secret key, or
// "-option=key=value" (spark-submit's inline form, and any option written like it) with a secret
// inner key. The key is the one a configuration pair of the same setting has, so forms match in ALTER.
std::optional<std::pair<std::string, std::size_t>> inlineSecret(std::string_view token) {
    const std::size_t eq = token.find('=');
    if (eq == std::string_view::npos)
        return std::nullopt;
    if (isSecretKey(token.substr(0, eq)))
        return std::pair{std::string(token.substr(0, eq)), eq + 1};
    if (!token.starts_with('-'))
        return std::nullopt;
    const std::size_t inner = token.find('=', eq + 1);
    if (inner == std::string_view::npos || !isSecretKey(token.substr(eq + 1, inner - eq - 1)))
        return std::nullopt;
    return std::pair{std::string(token.substr(eq + 1, inner - eq - 1)), inner + 1};
}

// maskArguments' reading of the tokens not yet `taken`.
void argumentSlots(const std::vector<std::string>& params, std::vector<bool>& taken,
                   std::vector<SecretSlot>& slots) {
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (taken[i])
            continue;
        const std::string& t = params[i];
        if (isOptionWithoutValue(t)) {
            if (isSecretKey(t) && i + 1 < params.size() && !taken[i + 1] &&
                !looksLikeLongOption(params[i + 1])) {
                slots.push_back({t, i + 1, 0});
                taken[i + 1] = true;
                ++i; // the value token is not itself a key
            }
            continue;
        }
        if (auto secret = inlineSecret(t))
            slots.push_back({std::move(secret->first), i, secret->second});
    }
}

bool isConfigurationPair(const ClassifiedToken& t) {
    return t.equalsPos >= 0 || t.cls == TokenClass::ConfPair || t.cls == TokenClass::HudiConfPair ||
           t.cls == TokenClass::MisplacedHudiConfPair;
}

// `withClassifier`: PARAMETERS, whose configuration pairs (--conf, -c, --hudi-conf, --hoodie-conf, their
// inline forms, and --hudi-conf pairs after the path) are found by the classifier and masked by their
// key alone; every other token is read as an application argument.
std::vector<SecretSlot> secretSlots(const std::vector<std::string>& params, bool withClassifier) {
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
        }
    }
    argumentSlots(params, taken, slots);
    std::sort(slots.begin(), slots.end(),
              [](const SecretSlot& a, const SecretSlot& b) { return a.valueToken < b.valueToken; });
    return slots;
}

std::vector<std::string> maskSlots(const std::vector<std::string>& params, bool withClassifier) {
    std::vector<std::string> masked = params;
    for (const auto& s : secretSlots(params, withClassifier))
        masked[s.valueToken].replace(s.valueOffset, std::string::npos, kMask);
    return masked;
}

struct Unmasked {
    std::vector<std::string> params;
    std::optional<UnresolvedMask> unresolved; // the first ****, in parameter order, without a stored value
};

Unmasked unmask(const std::vector<std::string>& submitted, const std::vector<std::string>& stored) {
    std::map<std::string, std::vector<std::string>> storedValues;
    for (const auto& s : secretSlots(stored, true))
        storedValues[s.key].push_back(stored[s.valueToken].substr(s.valueOffset));

    Unmasked r{submitted, std::nullopt};
    std::map<std::string, std::size_t> seen;
    for (const auto& s : secretSlots(submitted, true)) {
        const std::size_t n = seen[s.key]++;
        if (std::string_view(submitted[s.valueToken]).substr(s.valueOffset) != kMask)
            continue;
        const auto it = storedValues.find(s.key);
        if (it == storedValues.end()) {
            if (!r.unresolved)
                r.unresolved = UnresolvedMask{s.key, static_cast<int>(s.valueToken)};
            continue;
        }
        const auto& values = it->second;
        r.params[s.valueToken].replace(s.valueOffset, std::string::npos,
                                       values[std::min(n, values.size() - 1)]);
    }
    return r;
}

} // namespace

bool isSecretKey(std::string_view key) {
    static constexpr std::array<std::string_view, 4> kWords{"password", "secret", "token", "credential"};
    std::string lower(key);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return std::any_of(kWords.begin(), kWords.end(),
                       [&](std::string_view w) { return lower.find(w) != std::string::npos; });
}

std::vector<std::string> maskParameters(const std::vector<std::string>& params) {
    return maskSlots(params, true);
}

std::vector<std::string> maskArguments(const std::vector<std::string>& arguments) {
    return maskSlots(arguments, false);
}

std::vector<std::string> unmaskParameters(const std::vector<std::string>& submitted,
                                          const std::vector<std::string>& stored) {
    return unmask(submitted, stored).params;
}

std::string UnresolvedMask::message() const {
    return "The value of '" + key +
           "' is masked (****) but the Job has no stored value for it; send the real value.";
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

void maskPairs(std::vector<std::pair<std::string, std::string>>& pairs) {
    for (auto& [key, value] : pairs)
        if (isSecretKey(key))
            value = kMask;
}

void maskConfigs(std::map<std::string, std::string>& configs) {
    for (auto& [key, value] : configs)
        if (isSecretKey(key))
            value = kMask;
}

void maskJob(SparkJob& job) {
    job.parameters = maskParameters(job.parameters);
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

// What masking hid from a list: the tail of each token that masking replaced by ****.
void collectMasked(const std::vector<std::string>& original, const std::vector<std::string>& masked,
                   std::vector<std::string>& secrets) {
    for (std::size_t i = 0; i < original.size() && i < masked.size(); ++i)
        if (original[i] != masked[i] && masked[i].size() >= kMask.size())
            secrets.push_back(
                original[i].substr(std::min(original[i].size(), masked[i].size() - kMask.size())));
}

void maskParametersCollecting(std::vector<std::string>& params, std::vector<std::string>& secrets) {
    auto masked = maskParameters(params);
    collectMasked(params, masked, secrets);
    params = std::move(masked);
}

void maskPairsCollecting(std::vector<std::pair<std::string, std::string>>& pairs,
                         std::vector<std::string>& secrets) {
    const auto original = pairs;
    maskPairs(pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].second != original[i].second)
            secrets.push_back(original[i].second);
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

bool isBareWordCharacter(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// Text that does not parse. Its quoted strings are read in order like a list of arguments, one token
// each (the string after a quoted secret key is masked whole, which also covers 'db.password' = 'x');
// outside quotes, a bare word=value with a secret word loses its value. Errs on the side of masking.
class UnparsedTextMasker final {
public:
    UnparsedTextMasker(std::string_view text, std::vector<std::string>& secrets)
        : m_text(text)
        , m_secrets(secrets) {}

    std::string run() {
        m_out.reserve(m_text.size());
        while (m_at < m_text.size()) {
            if (m_text[m_at] == '\'')
                quoted();
            else if (isBareWordCharacter(m_text[m_at]))
                bareWord();
            else
                m_out += m_text[m_at++];
        }
        return std::move(m_out);
    }

private:
    void bareWord() {
        std::size_t end = m_at;
        while (end < m_text.size() && m_text[end] != '\'' && m_text[end] != '=' &&
               !std::isspace(static_cast<unsigned char>(m_text[end])) && m_text[end] != ',' &&
               m_text[end] != '(' && m_text[end] != ')')
            ++end;
        const std::string_view word = m_text.substr(m_at, end - m_at);
        m_out += word;
        m_at = end;
        if (m_at >= m_text.size() || m_text[m_at] != '=' || !isSecretKey(word))
            return;
        m_out += m_text[m_at++];
        while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at])))
            m_out += m_text[m_at++];
        if (m_at < m_text.size() && m_text[m_at] == '\'') {
            m_maskNextString = true;
            return;
        }
        const std::size_t valueStart = m_at;
        while (m_at < m_text.size() && !std::isspace(static_cast<unsigned char>(m_text[m_at])) &&
               m_text[m_at] != ',' && m_text[m_at] != ')')
            ++m_at;
        m_secrets.emplace_back(m_text.substr(valueStart, m_at - valueStart));
        m_out += kMask;
    }

    // A quoted string: '' inside is an escaped quote; an unterminated one runs to the end.
    void quoted() {
        std::string content;
        std::size_t j = m_at + 1;
        while (j < m_text.size()) {
            if (m_text[j] == '\'') {
                if (j + 1 < m_text.size() && m_text[j + 1] == '\'') {
                    content += '\'';
                    j += 2;
                    continue;
                }
                break;
            }
            content += m_text[j++];
        }
        const bool terminated = j < m_text.size();
        std::string masked = maskedString(content);
        m_out += '\'';
        for (const char c : masked) {
            m_out += c;
            if (c == '\'')
                m_out += '\'';
        }
        if (terminated)
            m_out += '\'';
        m_at = terminated ? j + 1 : m_text.size();
    }

    std::string maskedString(const std::string& content) {
        if (m_maskNextString) {
            m_maskNextString = false;
            m_secrets.push_back(content);
            return std::string(kMask);
        }
        if (auto secret = inlineSecret(content)) {
            m_secrets.push_back(content.substr(secret->second));
            return content.substr(0, secret->second) + std::string(kMask);
        }
        m_maskNextString = !content.empty() && isSecretKey(content);
        return content;
    }

    std::string_view m_text;
    std::vector<std::string>& m_secrets;
    std::string m_out;
    std::size_t m_at = 0;
    bool m_maskNextString = false;
};

} // namespace

MaskedStatement maskStatement(const ParseResult& parsed, std::string_view text) {
    MaskedStatement result;
    if (parsed.statement)
        result.text = printStatement(maskParsed(*parsed.statement, result.secrets));
    else
        result.text = UnparsedTextMasker(text, result.secrets).run();
    // Longest first, so a secret that contains another is replaced whole.
    std::erase_if(result.secrets,
                  [](const std::string& secret) { return secret.empty() || secret == kMask; });
    std::sort(result.secrets.begin(), result.secrets.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    return result;
}

MaskedStatement maskStatement(std::string_view text) {
    return maskStatement(parseStatement(text), text);
}

void scrubSecrets(std::string& message, const std::vector<std::string>& secrets) {
    for (const auto& secret : secrets)
        for (auto at = message.find(secret); at != std::string::npos;
             at = message.find(secret, at + kMask.size()))
            message.replace(at, secret.size(), kMask);
}

} // namespace jobdeck
