#include "core/ParameterValidator.h"

#include "core/EffectiveConfig.h"
#include "core/HudiAdvice.h"
#include "core/HudiConfigPolicy.h"
#include "core/ParameterClassifier.h"
#include "core/SparkSubmitOptions.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace jobdeck {

namespace {

using Params = std::vector<std::string>;

const std::string kDisabledMessage = "--hudi-conf is not enabled for this organization. Remove the "
                                     "--hudi-conf parameters, or contact Onehouse "
                                     "support to enable Hudi config overrides on Spark jobs.";
const std::string kFlagLastMessage = "--hudi-conf must be followed by hudi config <key>=<value>";
const std::string kFormatMessage = "Hudi config must be of format <key>=<value>";

// Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "'" + std::string(s).
std::string quoted(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '\'';
    out += s;
    out += '\'';
    return out;
}

std::string notPermittedMessage(const std::vector<std::string>& sortedKeys) {
    std::string keys;
    for (const auto& k : sortedKeys)
        keys += (keys.empty() ? "" : ", ") + k;
    return "--hudi-conf keys are not permitted for this organization: " + keys +
           ". Remove them, or contact Onehouse support to allow them.";
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool paddedOrBroken(std::string_view key, std::string_view value) {
    const auto padded = [](std::string_view s) {
        return !s.empty() && (isSpace(s.front()) || isSpace(s.back()));
    };
    return padded(key) || padded(value) || key.find_first_of("\r\n") != std::string_view::npos ||
           value.find_first_of("\r\n") != std::string_view::npos;
}

std::string_view part(const std::string& token, TokenRange r) {
    if (r.first < 0)
        return {};
    return std::string_view(token).substr(static_cast<std::size_t>(r.first),
                                          static_cast<std::size_t>(r.second - r.first));
}

// --- fixes: each returns the whole corrected list ---

Params without(const Params& p, std::vector<int> indices) {
    std::sort(indices.begin(), indices.end());
    Params out;
    out.reserve(p.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (k < indices.size() && indices[k] < static_cast<int>(i))
            ++k;
        if (k < indices.size() && indices[k] == static_cast<int>(i))
            continue;
        out.push_back(p[i]);
    }
    return out;
}

Params replaced(const Params& p, int index, const std::vector<std::string>& with) {
    Params out;
    out.reserve(p.size() + with.size());
    out.insert(out.end(), p.begin(), p.begin() + index);
    out.insert(out.end(), with.begin(), with.end());
    out.insert(out.end(), p.begin() + index + 1, p.end());
    return out;
}

// Moves the tokens [from, from + count) to just before `before` (before < from).
Params moved(const Params& p, int from, int count, int before) {
    Params out;
    out.reserve(p.size());
    out.insert(out.end(), p.begin(), p.begin() + before);
    out.insert(out.end(), p.begin() + from, p.begin() + from + count);
    out.insert(out.end(), p.begin() + before, p.begin() + from);
    out.insert(out.end(), p.begin() + from + count, p.end());
    return out;
}

struct Pending {
    Diagnostic diagnostic;
    std::vector<std::pair<std::string, std::function<Params()>>> fixes; // title, corrected list
};

// One --hudi-conf pair before the path, as written.
struct HudiPair {
    const ClassifiedToken* token = nullptr;
    std::vector<int> indices; // flag (unless inline) and pair, to remove it whole
    std::string_view key, value;
};

class Validation final {
public:
    Validation(const Params& params, const ValidationContext& context)
        : m_params(params)
        , m_context(context)
        , m_classified(classifyParameters(params)) {}

    std::vector<Diagnostic> run() {
        if (m_params.empty()) {
            add("parameters.empty", Severity::Error,
                "PARAMETERS must not be empty: give at least the path of the application's JAR or Python "
                "file.",
                -1);
            return finish();
        }
        checkOptions();
        checkPath();
        checkConfs();
        checkHudiConfs();
        checkMisplaced();
        return finish();
    }

private:
    Pending& add(std::string code, Severity severity, std::string message, int tokenIndex) {
        m_pending.push_back({Diagnostic{std::move(code), severity, std::move(message), tokenIndex, {}}, {}});
        return m_pending.back();
    }

    const std::string& text(int index) const { return m_params[static_cast<std::size_t>(index)]; }

    // The OptionValue token that belongs to option token `t`, or -1.
    int valueOf(const ClassifiedToken& t) const {
        const std::size_t next = static_cast<std::size_t>(t.index) + 1;
        if (next < m_classified.tokens.size() && m_classified.tokens[next].optionIndex == t.index)
            return static_cast<int>(next);
        return -1;
    }

    void checkOptions() {
        for (const ClassifiedToken& t : m_classified.tokens) {
            const std::string& tok = text(t.index);
            const std::string_view name = part(tok, t.nameRange);
            if (t.cls == TokenClass::RefusedOption) {
                const SparkSubmitOption* opt = SparkSubmitOptions::find(name);
                const bool platform = opt && opt->policy == OptionPolicy::PlatformOwned;
                std::vector<int> remove{t.index};
                if (const int v = valueOf(t); v >= 0)
                    remove.push_back(v);
                auto& d = add(platform ? "option.platform-owned" : "option.not-for-jobs", Severity::Error,
                              platform ? std::string(name) +
                                             " is set by the platform for every run and cannot be part of a "
                                             "Job's PARAMETERS. Remove it."
                                       : std::string(name) +
                                             " does not submit an application and cannot be part of a Job's "
                                             "PARAMETERS. Remove it.",
                              t.index);
                d.fixes.emplace_back("Remove " + std::string(name),
                                     [this, remove] { return without(m_params, remove); });
            } else if (t.cls == TokenClass::UnknownOption && name == SparkSubmitOptions::kHoodieConf) {
                auto& d =
                    add("option.hoodie-conf", Severity::Error,
                        "--hoodie-conf is not a spark-submit option. Use --hudi-conf to set a Hudi config on "
                        "the Job.",
                        t.index);
                const std::string fixed =
                    std::string(SparkSubmitOptions::kHudiConf) + tok.substr(name.size());
                d.fixes.emplace_back("Replace --hoodie-conf by --hudi-conf",
                                     [this, i = t.index, fixed] { return replaced(m_params, i, {fixed}); });
            } else if (t.cls == TokenClass::UnknownOption) {
                auto& d =
                    add("option.unknown", Severity::Error,
                        "Unrecognized option " + quoted(tok) + " before the application path.", t.index);
                for (const std::string& s : SparkSubmitOptions::suggest(tok)) {
                    const auto split = SparkSubmitOptions::splitInline(tok);
                    const std::string fixed = split.value ? s + "=" + std::string(*split.value) : s;
                    d.fixes.emplace_back("Did you mean " + s + "?", [this, i = t.index, fixed] {
                        return replaced(m_params, i, {fixed});
                    });
                }
            } else if (t.cls == TokenClass::MissingValue && name != SparkSubmitOptions::kHudiConf) {
                add("option.missing-value", Severity::Error,
                    "Missing argument for option " + quoted(name) + ".", t.index);
            } else if (t.cls == TokenClass::Option && t.valueRange.first >= 0 && t.optionIndex < 0) {
                const SparkSubmitOption* opt = SparkSubmitOptions::find(name);
                if (opt && !opt->takesValue) {
                    auto& d = add("option.value-ignored", Severity::Warning,
                                  std::string(name) + " takes no value: spark-submit ignores " +
                                      quoted(part(tok, t.valueRange)) + ".",
                                  t.index);
                    d.fixes.emplace_back("Remove the value", [this, i = t.index, n = std::string(name)] {
                        return replaced(m_params, i, {n});
                    });
                }
            }
        }
    }

    void checkPath() {
        const int path = m_classified.applicationPath;
        if (path < 0) {
            add("path.missing", Severity::Error,
                "PARAMETERS have no application path: add the path of the application's JAR or Python file "
                "after "
                "the job configuration.",
                -1);
        } else if (trimmed(text(path)).empty()) {
            add("path.empty", Severity::Error,
                "The application path is empty: give the path of the application's JAR or Python file.",
                path);
        }
    }

    void checkConfs() {
        std::unordered_map<std::string_view, int> last; // key -> last ConfPair index
        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls != TokenClass::ConfPair)
                continue;
            const std::string& tok = text(t.index);
            if (t.equalsPos < 0) {
                add("conf.format", Severity::Error, "Spark config without '=': " + tok, t.index);
                continue;
            }
            const std::string_view key = part(tok, t.keyRange);
            if (HudiConfigPolicy::isHudiKey(key)) {
                auto& d = add("conf.hoodie-key", Severity::Warning,
                              "--conf only configures Spark: " + quoted(key) +
                                  " is ignored there. Move it to --hudi-conf.",
                              t.index);
                const bool inlined = t.optionIndex < 0;
                const int flag = inlined ? t.index : t.optionIndex;
                const std::string fixed =
                    inlined ? std::string(SparkSubmitOptions::kHudiConf) + tok.substr(t.nameRange.second)
                            : std::string(SparkSubmitOptions::kHudiConf);
                d.fixes.emplace_back("Move " + std::string(key) + " to --hudi-conf",
                                     [this, flag, fixed] { return replaced(m_params, flag, {fixed}); });
                continue;
            }
            if (!key.starts_with("spark.")) {
                add("conf.not-spark-key", Severity::Warning,
                    "spark-submit ignores the non-Spark config property " + quoted(key) +
                        ": --conf takes spark.* keys.",
                    t.index);
                continue;
            }
            if (EffectiveConfig::isPlatformManagedSparkKey(key))
                add("conf.platform-managed", Severity::Warning,
                    quoted(key) + " is set by the platform for every run; the Job's value is not used.",
                    t.index);
            if (auto [it, inserted] = last.try_emplace(key, t.index); !inserted) {
                duplicate("conf.duplicate-key", it->second, key);
                it->second = t.index;
            }
        }
    }

    void duplicate(const char* code, int earlier, std::string_view key) {
        const ClassifiedToken& t = m_classified.tokens[static_cast<std::size_t>(earlier)];
        std::vector<int> remove{earlier};
        if (t.optionIndex >= 0)
            remove.push_back(t.optionIndex);
        auto& d = add(code, Severity::Warning,
                      quoted(key) + " is set more than once; only the last value is used.", earlier);
        d.fixes.emplace_back("Remove this earlier " + std::string(key),
                             [this, remove] { return without(m_params, remove); });
    }

    // "y1,hoodie.x2=y2": each ",hoodie." whose segment (up to the next ",hoodie.") has an '=' starts a new
    // pair. Empty when the value holds a single config.
    static std::vector<std::string> splitPairs(std::string_view key, std::string_view value) {
        constexpr std::string_view kMarker = ",hoodie.";
        std::vector<std::size_t> cuts;
        for (std::size_t at = value.find(kMarker); at != std::string_view::npos;
             at = value.find(kMarker, at + 1)) {
            const std::size_t next = value.find(kMarker, at + 1);
            const std::string_view segment =
                value.substr(at + 1, next == std::string_view::npos ? next : next - at - 1);
            if (segment.find('=') != std::string_view::npos)
                cuts.push_back(at);
        }
        if (cuts.empty())
            return {};
        std::vector<std::string> pairs{std::string(key) + "=" + std::string(value.substr(0, cuts.front()))};
        for (std::size_t k = 0; k < cuts.size(); ++k) {
            const std::size_t begin = cuts[k] + 1;
            const std::size_t end = k + 1 < cuts.size() ? cuts[k + 1] : value.size();
            pairs.emplace_back(value.substr(begin, end - begin));
        }
        return pairs;
    }

    void checkHudiConfs() {
        const bool alter = m_context.mode == ValidationContext::Mode::Alter;
        std::unordered_set<std::string> previous;
        if (alter)
            for (const ConfigSetting& s : classifyParameters(m_context.previousParameters).hudiConfigs)
                previous.insert(s.key + '\0' + s.value);

        const ProjectSettings& settings = m_context.settings;
        std::vector<int> disabledRemove; // every new pair, when the feature is off
        std::vector<std::string> notPermitted;
        std::vector<int> notPermittedRemove;
        std::unordered_map<std::string_view, int> last;

        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls == TokenClass::MissingValue &&
                part(text(t.index), t.nameRange) == SparkSubmitOptions::kHudiConf) {
                add("hudi-conf.flag-last", Severity::Error, kFlagLastMessage, t.index);
                if (!settings.hudiConfigsEnabled)
                    disabledRemove.push_back(t.index);
                continue;
            }
            if (t.cls != TokenClass::HudiConfPair)
                continue;
            const std::string& tok = text(t.index);
            HudiPair pair{&t, {t.index}, part(tok, t.keyRange), part(tok, t.valueRange)};
            if (t.optionIndex >= 0)
                pair.indices.push_back(t.optionIndex);
            const auto removeFix = [this, indices = pair.indices] { return without(m_params, indices); };
            const bool kept = alter && t.equalsPos >= 0 &&
                              previous.contains(std::string(pair.key) + '\0' + std::string(pair.value));
            if (!kept && !settings.hudiConfigsEnabled) {
                auto& d = add("hudi-conf.disabled.pair", Severity::Error, kDisabledMessage, t.index);
                d.fixes.emplace_back("Remove this --hudi-conf", removeFix);
                disabledRemove.insert(disabledRemove.end(), pair.indices.begin(), pair.indices.end());
            }

            if (t.equalsPos < 0) {
                add("hudi-conf.format", Severity::Error, kFormatMessage, t.index);
                continue;
            }
            const std::string_view key = trimmed(pair.key);
            if (!HudiConfigPolicy::isHudiKey(key)) {
                auto& d = add("hudi-conf.not-hudi-key", Severity::Error,
                              "--hudi-conf only accepts hoodie.* keys, got " + quoted(key) +
                                  ". Use --conf for Spark configs.",
                              t.index);
                if (key.starts_with("spark.")) {
                    const int flag = t.optionIndex >= 0 ? t.optionIndex : t.index;
                    const std::string fixed =
                        t.optionIndex >= 0 ? std::string(SparkSubmitOptions::kConf)
                                           : std::string(SparkSubmitOptions::kConf) + "=" +
                                                 tok.substr(static_cast<std::size_t>(t.keyRange.first));
                    d.fixes.emplace_back("Use --conf for " + std::string(key),
                                         [this, flag, fixed] { return replaced(m_params, flag, {fixed}); });
                }
                continue;
            }
            if (paddedOrBroken(pair.key, pair.value)) {
                auto& d =
                    add("hudi-conf.whitespace", Severity::Error,
                        "--hudi-conf entry for " + quoted(key) +
                            " contains a line break or leading/trailing whitespace, which would not survive "
                            "the run's properties file intact.",
                        t.index);
                const std::string_view value = trimmed(pair.value);
                if (key.find_first_of("\r\n") == std::string_view::npos &&
                    value.find_first_of("\r\n") == std::string_view::npos) {
                    const std::string fixed = tok.substr(0, static_cast<std::size_t>(t.keyRange.first)) +
                                              std::string(key) + "=" + std::string(value);
                    d.fixes.emplace_back("Trim the whitespace", [this, i = t.index, fixed] {
                        return replaced(m_params, i, {fixed});
                    });
                }
                continue;
            }
            if (pair.value.empty()) {
                auto& d = add("hudi-conf.empty-value", Severity::Error,
                              "--hudi-conf value for " + quoted(key) +
                                  " is empty. Remove the config to fall back to the platform default.",
                              t.index);
                d.fixes.emplace_back("Remove this --hudi-conf", removeFix);
            }

            checkPermission(pair, kept, notPermitted, notPermittedRemove, removeFix);
            checkMultiplePairs(pair);
            if (auto [it, inserted] = last.try_emplace(key, t.index); !inserted) {
                duplicate("hudi-conf.duplicate-key", it->second, key);
                it->second = t.index;
            }
        }

        if (!disabledRemove.empty()) {
            auto& d = add("hudi-conf.disabled", Severity::Error, kDisabledMessage, -1);
            d.fixes.emplace_back("Remove the --hudi-conf parameters",
                                 [this, disabledRemove] { return without(m_params, disabledRemove); });
        }
        if (!notPermitted.empty()) {
            std::sort(notPermitted.begin(), notPermitted.end());
            notPermitted.erase(std::unique(notPermitted.begin(), notPermitted.end()), notPermitted.end());
            auto& d = add("hudi-conf.not-permitted", Severity::Error, notPermittedMessage(notPermitted), -1);
            d.fixes.emplace_back("Remove the configs that are not permitted", [this, notPermittedRemove] {
                return without(m_params, notPermittedRemove);
            });
        }
    }

    void checkPermission(const HudiPair& pair, bool kept, std::vector<std::string>& notPermitted,
                         std::vector<int>& notPermittedRemove, const std::function<Params()>& removeFix) {
        const ProjectSettings& settings = m_context.settings;
        const int index = pair.token->index;
        const HudiConfigStatus status = HudiConfigPolicy::statusOf(pair.key, settings);
        if (kept) {
            if (status == HudiConfigStatus::Applied)
                return;
            const std::string why =
                status == HudiConfigStatus::Reserved               ? "it is reserved for the platform"
                : status == HudiConfigStatus::OverriddenByPlatform ? "the platform sets it for every run"
                : !settings.hudiConfigsEnabled ? "--hudi-conf is not enabled for this project"
                                               : "it is outside the project's allow-list";
            add("hudi-conf.kept-not-applied", Severity::Warning,
                quoted(pair.key) + " is kept on the Job but not applied to its runs: " + why + ".", index);
            return;
        }
        if (!settings.hudiConfigsEnabled)
            return; // hudi-conf.disabled covers it
        if (status == HudiConfigStatus::Reserved || status == HudiConfigStatus::NotAllowed) {
            notPermitted.emplace_back(pair.key);
            notPermittedRemove.insert(notPermittedRemove.end(), pair.indices.begin(), pair.indices.end());
            auto& d =
                status == HudiConfigStatus::Reserved
                    ? add("hudi-conf.reserved", Severity::Error,
                          quoted(pair.key) +
                              " is reserved: the platform manages it, so it is never granted or applied. "
                              "Remove it.",
                          index)
                    : add("hudi-conf.not-permitted.key", Severity::Error,
                          notPermittedMessage({std::string(pair.key)}), index);
            d.fixes.emplace_back("Remove this --hudi-conf", removeFix);
        } else if (status == HudiConfigStatus::OverriddenByPlatform) {
            add("hudi-conf.overridden-by-platform", Severity::Info,
                quoted(pair.key) + " is set by the platform for every run (" +
                    *HudiConfigPolicy::platformManagedValue(pair.key) + "); the Job's value is not applied.",
                index);
        }
    }

    void checkMultiplePairs(const HudiPair& pair) {
        std::vector<std::string> pairs = splitPairs(pair.key, pair.value);
        if (pairs.empty())
            return;
        const ClassifiedToken& t = *pair.token;
        auto& d =
            add("hudi-conf.multiple-pairs", Severity::Warning,
                "--hudi-conf carries one config per flag: " + quoted(pair.key) + " gets the literal value " +
                    quoted(pair.value) + ". Repeat --hudi-conf for each config.",
                t.index);
        // Keep the first pair where it is (inline or not), the others each get their own flag.
        std::vector<std::string> with;
        with.push_back(text(t.index).substr(0, static_cast<std::size_t>(t.keyRange.first)) + pairs.front());
        for (std::size_t i = 1; i < pairs.size(); ++i) {
            with.emplace_back(SparkSubmitOptions::kHudiConf);
            with.push_back(pairs[i]);
        }
        d.fixes.emplace_back("Split into " + std::to_string(pairs.size()) + " --hudi-conf pairs",
                             [this, i = t.index, with] { return replaced(m_params, i, with); });
    }

    void checkMisplaced() {
        const int path = m_classified.applicationPath;
        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls != TokenClass::MisplacedHudiConfPair || t.equalsPos < 0)
                continue;
            const std::string_view key = part(text(t.index), t.keyRange);
            if (!HudiConfigPolicy::isHudiKey(key))
                continue;
            auto& d =
                add("hudi-conf.after-path", Severity::Warning,
                    "--hudi-conf " + std::string(key) +
                        " comes after the application path, so it is passed to the application as an "
                        "argument and is not a Job configuration. Move it before the path if it is meant "
                        "for the Job.",
                    t.index);
            const int from = t.optionIndex >= 0 ? t.optionIndex : t.index;
            const int count = t.index - from + 1;
            d.fixes.emplace_back("Move --hudi-conf " + std::string(key) + " before the application path",
                                 [this, from, count, path] { return moved(m_params, from, count, path); });
        }
    }

    std::vector<Diagnostic> finish() {
        if (m_context.withAdvice && !m_params.empty()) {
            // Their fixes are copies of the list too: ask only for what the budget can keep.
            const std::size_t affordable =
                m_context.fixesForToken ? std::numeric_limits<std::size_t>::max()
                                        : m_context.fixBudget / std::max<std::size_t>(m_params.size(), 1);
            for (Diagnostic& d :
                 adviseOnConfigs(m_params, m_classified.sparkConfigs, m_classified.hudiConfigs, affordable)) {
                if (d.severity == Severity::Error)
                    d.severity = Severity::Warning; // advice never refuses a job
                Pending p{std::move(d), {}};
                m_pending.push_back(std::move(p));
            }
        }
        std::stable_sort(m_pending.begin(), m_pending.end(), [](const Pending& a, const Pending& b) {
            const bool ae = a.diagnostic.severity == Severity::Error;
            const bool be = b.diagnostic.severity == Severity::Error;
            if (ae != be)
                return ae;
            const int ar = ae ? refusalRank(a.diagnostic.code) : 0;
            const int br = be ? refusalRank(b.diagnostic.code) : 0;
            if (ar != br)
                return ar < br;
            return a.diagnostic.tokenIndex < b.diagnostic.tokenIndex;
        });
        std::vector<Diagnostic> out;
        out.reserve(m_pending.size());
        std::size_t budget = m_context.fixBudget;
        const auto& only = m_context.fixesForToken;
        const std::size_t cost = std::max<std::size_t>(m_params.size(), 1);
        const auto wanted = [&](int at) { return only ? (at == *only || at == -1) : budget >= cost; };
        for (Pending& p : m_pending) {
            const int at = p.diagnostic.tokenIndex;
            for (auto& [title, make] : p.fixes) {
                if (!wanted(at))
                    break;
                if (!only)
                    budget -= cost;
                p.diagnostic.fixes.push_back(Fix{title, make()});
            }
            // Advice arrives with its fixes made; keep them under the same rule.
            if (p.fixes.empty() && !p.diagnostic.fixes.empty()) {
                if (!wanted(at))
                    p.diagnostic.fixes.clear();
                else if (!only)
                    budget -= std::min(budget, cost * p.diagnostic.fixes.size());
            }
            out.push_back(std::move(p.diagnostic));
        }
        return out;
    }

    const Params& m_params;
    const ValidationContext& m_context;
    ClassifiedParameters m_classified;
    std::vector<Pending> m_pending;
};

} // namespace

int refusalRank(std::string_view code) {
    static const std::unordered_map<std::string_view, int> ranks{
        {"parameters.empty", 0},
        {"option.platform-owned", 1},
        {"option.not-for-jobs", 1},
        {"option.hoodie-conf", 1},
        {"option.unknown", 1},
        {"option.missing-value", 1},
        {"conf.format", 1},
        {"hudi-conf.disabled", 2},
        {"hudi-conf.flag-last", 3},
        {"hudi-conf.format", 3},
        {"hudi-conf.not-hudi-key", 3},
        {"hudi-conf.whitespace", 3},
        {"hudi-conf.empty-value", 3},
        {"path.missing", 4},
        {"path.empty", 4},
        {"hudi-conf.not-permitted", 5},
        {"hudi-conf.disabled.pair", 6},
        {"hudi-conf.reserved", 6},
        {"hudi-conf.not-permitted.key", 6},
    };
    const auto it = ranks.find(code);
    return it == ranks.end() ? 7 : it->second;
}

const Diagnostic* firstError(const std::vector<Diagnostic>& diagnostics) {
    const Diagnostic* best = nullptr;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity != Severity::Error)
            continue;
        if (!best || refusalRank(d.code) < refusalRank(best->code) ||
            (refusalRank(d.code) == refusalRank(best->code) && d.tokenIndex < best->tokenIndex))
            best = &d;
    }
    return best;
}

std::optional<std::string> refusalMessage(const std::vector<Diagnostic>& diagnostics) {
    if (const Diagnostic* d = firstError(diagnostics))
        return d->message;
    return std::nullopt;
}

std::vector<Diagnostic> validateParameters(const std::vector<std::string>& parameters,
                                           const ValidationContext& context) {
    return Validation(parameters, context).run();
}

} // namespace jobdeck
