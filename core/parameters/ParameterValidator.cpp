#include "core/parameters/ParameterValidator.h"

#include "core/hudi/EffectiveConfig.h"
#include "core/hudi/HudiCatalogue.h"
#include "core/hudi/HudiConfigExplanation.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/HudiAdvice.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterTextForms.h"
#include "core/parameters/SecretMasking.h"
#include "core/parameters/SparkSubmitOptions.h"
#include "core/parameters/SubmitResources.h"
#include "core/text/AsciiText.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace jobdeck {

namespace {

using Params = std::vector<std::string>;

const std::string kDisabledMessage = "--hudi-conf is not enabled for this organization. Remove the "
                                     "--hudi-conf parameters, or contact Onehouse "
                                     "support to enable Hudi config overrides on Spark jobs.";
const std::string kFlagLastMessage = "--hudi-conf must be followed by hudi config <key>=<value>";
const std::string kFormatMessage = "Hudi config must be of format <key>=<value>";

std::string notPermittedMessage(const std::vector<std::string>& sortedKeys) {
    std::string keys;
    for (const auto& k : sortedKeys)
        keys += (keys.empty() ? "" : ", ") + k;
    return "--hudi-conf keys are not permitted for this organization: " + keys +
           ". Remove them, or contact Onehouse support to allow them.";
}

// A parameter's words as a command line holds them (POSIX shell words, as a pasted command is read),
// when it holds several; else none. One without a blank is never read.
std::vector<std::string> shellWords(const std::string& parameter) {
    if (parameter.find_first_of(" \t\n\r") == std::string::npos)
        return {};
    auto read = parseParameterText(parameter, ParameterTextForm::ShellCommand);
    if (!read.ok() || read.parameters.size() < 2)
        return {};
    return std::move(read.parameters);
}

// An option spark-submit (or Jobdeck, or Hudi Streamer) knows, by name or alias, with or without an
// inline value.
bool isKnownOption(std::string_view word) {
    return !SparkSubmitOptions::nameOf(word).empty() ||
           SparkSubmitOptions::splitInline(word).option == SparkSubmitOptions::kHoodieConf;
}

// Runs on every pair's key and value: two memchr scans beat a loop over the characters, and
// find_first_of("\r\n"), which searches the set once per character.
bool hasLineBreak(std::string_view s) {
    return s.find('\n') != std::string_view::npos || s.find('\r') != std::string_view::npos;
}

bool paddedOrBroken(std::string_view key, std::string_view value) {
    const auto padded = [](std::string_view s) {
        return !s.empty() && (isAsciiSpace(s.front()) || isAsciiSpace(s.back()));
    };
    return padded(key) || padded(value) || hasLineBreak(key) || hasLineBreak(value);
}

using Splice = FixedParameters::Splice;

// A fix's title: most are literals, which are not copied unless the fix is offered.
struct FixTitle {
    FixTitle(const char* literal)
        : fixed(literal) {}
    FixTitle(std::string text)
        : built(std::move(text)) {}
    std::string_view fixed;
    std::string built;
};

// A fix found, kept until the budget says whether it is offered: its splices are in Validation::m_splices,
// its title a literal or, when built, Validation::m_titles[builtTitle].
constexpr std::size_t kLeadsNowhere = std::numeric_limits<std::size_t>::max();

struct PendingFix {
    std::string_view title; // empty when built
    std::size_t builtTitle = 0;
    std::size_t firstSplice = 0;
    std::size_t spliceCount = 0;
    std::size_t leadsTo = kLeadsNowhere; // in Validation::m_titles: the refusal applying it leads to
};

// The fixes of a diagnostic found: m_fixes[firstFix, firstFix + fixCount).
struct Pending {
    std::size_t firstFix = 0;
    std::size_t fixCount = 0;
};

// One --hudi-conf pair before the path, as written.
struct HudiPair {
    const ClassifiedToken* token = nullptr;
    int first = -1; // the flag, or the pair itself when inline: [first, token->index] removes it whole
    std::string_view key, value;
};

// Where each key was seen last: the index `key` was seen at before (-1: not before); remembers `index`.
int exchangeLastSeen(std::unordered_map<std::string_view, int>& last, std::string_view key, int index) {
    const auto [it, inserted] = last.try_emplace(key, index);
    return inserted ? -1 : std::exchange(it->second, index);
}

// Where a finding goes in the result: `group` is its refusal rank for an error, kNotAnError otherwise;
// `token` its tokenIndex + 1; `at` where it was found.
struct Order {
    int group = 0;
    int token = 0;
    std::size_t at = 0;
};
constexpr int kNotAnError = kNotARefusal + 1; // past every refusalRank()

// Sorts by group, then token, keeping the order found among equals. Two counting passes (token, then
// group) instead of a comparison sort: a long list has thousands of findings, and `tokens` bounds token.
void sortStably(std::span<Order> order, std::size_t tokens) {
    if (order.size() < 64) {
        // Insertion sort: stable, and unlike std::stable_sort it asks for no temporary buffer.
        const auto before = [](const Order& a, const Order& b) {
            return a.group != b.group ? a.group < b.group : a.token < b.token;
        };
        for (std::size_t i = 1; i < order.size(); ++i) {
            const Order o = order[i];
            std::size_t j = i;
            for (; j > 0 && before(o, order[j - 1]); --j)
                order[j] = order[j - 1];
            order[j] = o;
        }
        return;
    }
    std::vector<Order> sorted(order.size());
    const auto pass = [](std::span<const Order> from, std::span<Order> to, std::size_t buckets, auto keyOf) {
        std::vector<std::size_t> start(buckets + 1);
        for (const Order& o : from)
            ++start[keyOf(o) + 1];
        for (std::size_t b = 1; b <= buckets; ++b)
            start[b] += start[b - 1];
        for (const Order& o : from)
            to[start[keyOf(o)]++] = o;
    };
    pass(order, sorted, tokens + 1, [](const Order& o) { return static_cast<std::size_t>(o.token); });
    pass(sorted, order, kNotAnError + 1, [](const Order& o) { return static_cast<std::size_t>(o.group); });
}

class Validation final {
public:
    Validation(const Params& params, const ClassifiedParameters& classified, const ValidationContext& context)
        : m_params(params)
        , m_context(context)
        , m_classified(classified) {
        for (const ClassifiedToken& t : classified.tokens)
            ++m_counts[static_cast<std::size_t>(t.cls)];
        // A long job has about a finding for every other pair, and the advice about one per Hudi pair:
        // one allocation each. A typical job's findings stay under 1 KiB, which glibc recycles from its
        // per-thread cache.
        const std::size_t expected = 4 + params.size() / 4;
        m_pending.reserve(expected);
        m_found.reserve(expected + (context.withAdvice ? count(TokenClass::HudiConfPair) : 0));
        m_fixes.reserve(expected);
        m_splices.reserve(expected);
    }

    std::vector<Diagnostic> run() {
        if (m_params.empty()) {
            add(DiagnosticCode::ParametersEmpty,
                "PARAMETERS must not be empty: give at least the path of the application's JAR or Python "
                "file.",
                -1);
            return finish();
        }
        checkMasks();
        checkOptions();
        checkRepeatedOptions();
        checkPath();
        checkConfs();
        checkSubmitResources();
        checkPythonFiles();
        checkHudiConfs();
        checkMisplaced();
        checkArguments();
        return finish();
    }

private:
    // The service puts the stored secret back in place of each **** before it validates (ALTER), and
    // refuses a **** it has no stored value for, before anything else.
    void checkMasks() {
        static const Params kNothingStored;
        const bool alter = m_context.mode == ValidationContext::Mode::Alter;
        if (auto unresolved = unresolvedMask(m_params, alter ? m_context.previousParameters : kNothingStored))
            add(DiagnosticCode::SecretMaskUnresolved, unresolved->message(), unresolved->parameterIndex);
    }

    Pending& add(DiagnosticCode code, std::string message, int tokenIndex) {
        const DiagnosticDescriptor& descriptor = descriptorOf(code);
        m_found.push_back({descriptor.name, descriptor.severity, std::move(message), tokenIndex, {}});
        m_pending.push_back({m_fixes.size(), 0});
        return m_pending.back();
    }

    // --- fixes, offered on `d`, which must be the diagnostic added last ---

    void pend(Pending& d, FixTitle title, std::size_t firstSplice, std::size_t spliceCount) {
        PendingFix fix{title.fixed, 0, firstSplice, spliceCount};
        if (title.fixed.empty()) {
            fix.builtTitle = m_titles.size();
            m_titles.push_back(std::move(title.built));
        }
        m_fixes.push_back(fix);
        ++d.fixCount;
    }

    void offer(Pending& d, FixTitle title, std::initializer_list<Splice> splices) {
        pend(d, std::move(title), m_splices.size(), splices.size());
        m_splices.insert(m_splices.end(), splices);
    }

    void offerRemoval(Pending& d, FixTitle title, std::span<int> indices) {
        if (!std::is_sorted(indices.begin(), indices.end())) // they are gathered in list order
            std::sort(indices.begin(), indices.end());
        const std::size_t first = m_splices.size();
        for (const int i : indices) {
            if (i < 0)
                continue;
            const auto at = static_cast<std::size_t>(i);
            if (m_splices.size() > first && m_splices.back().end >= at)
                m_splices.back().end = std::max(m_splices.back().end, at + 1); // adjacent or repeated
            else
                m_splices.push_back({at, at + 1, {}});
        }
        pend(d, std::move(title), first, m_splices.size() - first);
    }

    void offerRemoval(Pending& d, const HudiPair& pair) {
        pend(d, "Remove this --hudi-conf", m_splices.size(), 1);
        m_splices.push_back(
            {static_cast<std::size_t>(pair.first), static_cast<std::size_t>(pair.token->index) + 1, {}});
    }

    void offerReplacement(Pending& d, FixTitle title, int index, std::vector<std::string> with) {
        const auto at = static_cast<std::size_t>(index);
        offer(d, std::move(title), {{at, at + 1, std::move(with)}});
    }

    // An option spark-submit does not know; one written with its value in one parameter ("--class
    // org.Main", as on a command line) is split into its words, read as a shell reads them, and a
    // misspelt one ("--clas org.Main") is corrected as it is split.
    void checkUnknownOption(int index) {
        const std::string& tok = text(index);
        std::vector<std::string> words = commandLineWords(tok);
        const bool known = !words.empty() && isKnownOption(words.front());
        auto& d = add(DiagnosticCode::OptionUnknown,
                      "Unrecognized option " + quoted(tok) + " before the application path" +
                          (known ? ": an option and its value are parameters of their own." : "."),
                      index);
        const std::string parts = std::to_string(words.size()) + " parameters";
        if (known) {
            offerReplacement(d, "Split into " + parts, index, std::move(words));
            return;
        }
        const std::string& option = words.empty() ? tok : words.front();
        for (const std::string& s : SparkSubmitOptions::suggest(option)) {
            const auto inlineValue = SparkSubmitOptions::splitInline(option).value;
            std::string fixed = inlineValue ? s + "=" + std::string(*inlineValue) : s;
            if (words.empty()) {
                offerReplacement(d, "Did you mean " + s + "?", index, {std::move(fixed)});
                continue;
            }
            std::vector<std::string> corrected = words;
            corrected.front() = std::move(fixed);
            std::string title = "Did you mean " + s + "? (split into ";
            title += parts;
            title += ')';
            offerReplacement(d, std::move(title), index, std::move(corrected));
        }
    }

    // A value that holds another option ("--class=org.Main --verbose", "org.Main --verbose" after
    // --class, "spark.a=1 --conf spark.b=2" after --conf: typed on one line): spark-submit passes it
    // inside the value and never reads the option.
    void checkValueHoldsOption(const ClassifiedToken& t, std::string_view option) {
        std::vector<std::string> words = shellWords(text(t.index));
        if (words.empty())
            return;
        const auto held = std::find_if(std::next(words.begin()), words.end(),
                                       [](const std::string& word) { return isKnownOption(word); });
        if (held == words.end())
            return;
        auto& d = add(DiagnosticCode::OptionValueHoldsOption,
                      "The value of " + std::string(option) + " holds the option " +
                          std::string(SparkSubmitOptions::splitInline(*held).option) +
                          ", which is then read as part of the value: an option and its value are "
                          "parameters of their own.",
                      t.index);
        const std::string title = "Split into " + std::to_string(words.size()) + " parameters";
        offerReplacement(d, title, t.index, std::move(words));
    }

    // The shell words of `tok` when it holds several and the first is an option; else none.
    static std::vector<std::string> commandLineWords(const std::string& tok) {
        std::vector<std::string> words = shellWords(tok);
        if (!words.empty() && !words.front().starts_with('-'))
            return {};
        return words;
    }

    const std::string& text(int index) const { return m_params[static_cast<std::size_t>(index)]; }

    // The option of a pair as written ("-c", "--conf"), inline or the parameter before it.
    std::string_view writtenOptionOf(const ClassifiedToken& t) const {
        if (t.optionIndex < 0)
            return rangeText(text(t.index), t.nameRange);
        const ClassifiedToken& option = m_classified.tokens[static_cast<std::size_t>(t.optionIndex)];
        return rangeText(text(option.index), option.nameRange);
    }

    // The OptionValue token that belongs to option token `t`, or -1.
    int valueOf(const ClassifiedToken& t) const {
        const std::size_t next = static_cast<std::size_t>(t.index) + 1;
        if (next < m_classified.tokens.size() && m_classified.tokens[next].optionIndex == t.index)
            return static_cast<int>(next);
        return -1;
    }

    // Where a value is set: its parameter (-1: nowhere) and its range in it.
    struct ValueAt final {
        int index = -1;
        TokenRange range{-1, -1};
    };

    // The value of option token `t`: the next parameter, or the inline one after its '='.
    ValueAt valueOfOption(const ClassifiedToken& t) const {
        if (const int value = valueOf(t); value >= 0)
            return {value, {0, static_cast<int>(text(value).size())}};
        return {t.valueRange.first >= 0 ? t.index : -1, t.valueRange};
    }

    std::string_view textAt(const ValueAt& at) const { return rangeText(text(at.index), at.range); }

    void checkOptions() {
        for (const ClassifiedToken& t : m_classified.tokens) {
            const std::string& tok = text(t.index);
            const std::string_view name = rangeText(tok, t.nameRange);
            if (t.cls == TokenClass::RefusedOption) {
                const SparkSubmitOption* opt = SparkSubmitOptions::find(name);
                const bool platform = opt && opt->policy == OptionPolicy::PlatformOwned;
                std::array<int, 2> remove{t.index, valueOf(t)}; // -1 when it has no value
                auto& d = add(
                    platform ? DiagnosticCode::OptionPlatformOwned : DiagnosticCode::OptionNotForJobs,
                    platform
                        ? std::string(name) + " is set by the platform for every run and cannot be part of a "
                                              "Job's PARAMETERS. Remove it."
                        : std::string(name) + " does not submit an application and cannot be part of a Job's "
                                              "PARAMETERS. Remove it.",
                    t.index);
                offerRemoval(d, "Remove " + std::string(name), remove);
            } else if (t.cls == TokenClass::UnknownOption && name == SparkSubmitOptions::kHoodieConf) {
                auto& d =
                    add(DiagnosticCode::OptionHoodieConf,
                        "--hoodie-conf is not a spark-submit option. Use --hudi-conf to set a Hudi config on "
                        "the Job.",
                        t.index);
                std::string fixed = std::string(SparkSubmitOptions::kHudiConf) + tok.substr(name.size());
                offerReplacement(d, "Replace --hoodie-conf by --hudi-conf", t.index, {std::move(fixed)});
            } else if (t.cls == TokenClass::UnknownOption) {
                checkUnknownOption(t.index);
            } else if (t.cls == TokenClass::MissingValue && name != SparkSubmitOptions::kHudiConf) {
                add(DiagnosticCode::OptionMissingValue, "Missing argument for option " + quoted(name) + ".",
                    t.index);
            } else if (t.cls == TokenClass::Option && t.valueRange.first >= 0 && t.optionIndex < 0) {
                const SparkSubmitOption* opt = SparkSubmitOptions::find(name);
                if (opt && !opt->takesValue) {
                    auto& d = add(DiagnosticCode::OptionValueIgnored,
                                  std::string(name) + " takes no value: spark-submit ignores " +
                                      quoted(rangeText(tok, t.valueRange)) + ".",
                                  t.index);
                    offerReplacement(d, "Remove the value", t.index, {std::string(name)});
                } else if (opt) {
                    checkValueHoldsOption(t, name);
                }
            } else if (t.cls == TokenClass::OptionValue && t.optionIndex >= 0) {
                checkValueHoldsOption(t, writtenOptionOf(t));
            }
        }
    }

    // spark-submit keeps the last value of an option given more than once ("--jars a.jar --jars b.jar"
    // ships b.jar only); --conf and --hudi-conf set a key each and are checked by key.
    void checkRepeatedOptions() {
        std::unordered_map<std::string_view, int> last;
        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls != TokenClass::Option)
                continue;
            const SparkSubmitOption* opt = SparkSubmitOptions::find(rangeText(text(t.index), t.nameRange));
            if (!opt || !opt->takesValue || opt->name == SparkSubmitOptions::kConf ||
                opt->name == SparkSubmitOptions::kHudiConf)
                continue;
            const int earlier = exchangeLastSeen(last, opt->name, t.index);
            if (earlier < 0)
                continue;
            const std::string name(opt->name);
            std::array<int, 2> remove{earlier, valueOf(m_classified.tokens[std::size_t(earlier)])};
            auto& d = add(DiagnosticCode::OptionDuplicate,
                          name + " is given more than once; spark-submit uses only the last one, " +
                              quoted(textAt(valueOfOption(t))) + ".",
                          earlier);
            offerRemoval(d, "Remove this earlier " + name, remove);
        }
    }

    void checkPath() {
        const int path = m_classified.applicationPath;
        if (path < 0) {
            add(DiagnosticCode::PathMissing,
                "PARAMETERS have no application path: add the path of the application's JAR or Python file "
                "after "
                "the job configuration.",
                -1);
        } else if (asciiTrimmed(text(path)).empty()) {
            add(DiagnosticCode::PathEmpty,
                "The application path is empty: give the path of the application's JAR or Python file.",
                path);
        } else {
            checkPathShape(path);
        }
    }

    // The path is the first parameter that is not an option, so a typo can make an option or a
    // configuration the path with no error (`x--class`, a bare `hoodie.a=1` line). The contract accepts
    // any path, so these are warnings.
    void checkPathShape(int index) {
        const std::string_view path = asciiTrimmed(text(index));
        if (const std::size_t dash = gluedOption(path); dash != std::string_view::npos)
            add(DiagnosticCode::PathOptionGlued,
                "The application path " + quoted(path) + " looks like the option " +
                    quoted(path.substr(dash)) +
                    " glued to other text: an option is a parameter of its own, before the path.",
                index);
        else if (looksLikeConfig(path))
            add(DiagnosticCode::PathLooksLikeConfig,
                "The application path " + quoted(path) +
                    " looks like a key=value configuration: put --hudi-conf (Hudi) or --conf (Spark) before "
                    "it, and the application's path before its arguments.",
                index);
        if (m_context.jobType && !hasApplicationExtension(path, *m_context.jobType))
            add(DiagnosticCode::PathExtension,
                "The application path " + quoted(path) +
                    (*m_context.jobType == JobType::Jar
                         ? " does not end in .jar, as a JAR Job's application does."
                         : " does not end in .py, as a PYTHON Job's application does: spark-submit runs any "
                           "other file as a JAR (.zip and .egg files go in --py-files)."),
                index);
    }

    // Where a spark-submit option (or --hudi-conf) starts inside `path` after other text, npos if none.
    static std::size_t gluedOption(std::string_view path) {
        for (std::size_t dash = path.find("--", 1); dash != std::string_view::npos;
             dash = path.find("--", dash + 1)) {
            const std::string_view option = path.substr(dash, path.find('=', dash) - dash);
            if (option == SparkSubmitOptions::kHudiConf || SparkSubmitOptions::find(option))
                return dash;
        }
        return std::string_view::npos;
    }

    // `key=value` with no directory before the '=': a path or URL has a '/' or ':' there.
    static bool looksLikeConfig(std::string_view path) {
        const std::size_t equals = path.find('=');
        if (equals == 0 || equals == std::string_view::npos)
            return false;
        return path.substr(0, equals).find_first_of("/:") == std::string_view::npos;
    }

    // spark-submit runs a path ending in ".py" (that case only) as Python, and any other as a JAR
    // (SparkSubmit.isPython).
    static bool runsAsPython(std::string_view path) { return path.ends_with(".py"); }

    static bool hasApplicationExtension(std::string_view path, JobType type) {
        if (type == JobType::Python)
            return runsAsPython(path);
        return path.size() > 4 && asciiLowered(path.substr(path.size() - 4)) == ".jar";
    }

    std::size_t count(TokenClass cls) const { return m_counts[static_cast<std::size_t>(cls)]; }

    void checkConfs() {
        std::unordered_map<std::string_view, int> last;
        last.reserve(count(TokenClass::ConfPair));
        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls != TokenClass::ConfPair)
                continue;
            const std::string& tok = text(t.index);
            if (t.equalsPos < 0) {
                add(DiagnosticCode::ConfFormat, "Spark config without '=': " + tok, t.index);
                continue;
            }
            const std::string_view key = checkConfBlanks(t);
            checkValueHoldsOption(t, writtenOptionOf(t));
            if (HudiConfigPolicy::isHudiKey(key)) {
                checkHoodieKeyInConf(t, key);
                continue;
            }
            if (!key.starts_with("spark.")) {
                add(DiagnosticCode::ConfNotSparkKey,
                    "spark-submit ignores the non-Spark config property " + quoted(key) +
                        ": --conf takes spark.* keys.",
                    t.index);
                continue;
            }
            if (EffectiveConfig::isPlatformManagedSparkKey(key))
                add(DiagnosticCode::ConfPlatformManaged,
                    quoted(key) + " is set by the platform for every run; the Job's value is not used.",
                    t.index);
            // As spark-submit sets it, blanks included.
            const std::string_view setKey = rangeText(tok, t.keyRange);
            if (const int earlier = exchangeLastSeen(last, setKey, t.index); earlier >= 0)
                duplicate(DiagnosticCode::ConfDuplicateKey, earlier, setKey);
        }
    }

    // A hoodie.* key given to --conf, which Spark ignores: moved to --hudi-conf, and when Hudi has no
    // config of that name, first moved under the names it may have meant (the catalogue's suggestions),
    // so that one fix ends the finding and the typo that --hudi-conf would show next.
    void checkHoodieKeyInConf(const ClassifiedToken& t, std::string_view key) {
        const std::vector<std::string> meant = meantHudiKeys(key);
        auto& d =
            add(DiagnosticCode::ConfHoodieKey,
                "--conf only configures Spark: " + quoted(key) + " is ignored there. Move it to --hudi-conf.",
                t.index);
        for (const std::string& name : meant)
            offerMoveToHudiConf(d, t, name, "Move to --hudi-conf as " + name);
        offerMoveToHudiConf(d, t, key, "Move " + std::string(key) + " to --hudi-conf");
    }

    // The keys a hoodie.* key Hudi has no config of (not even a deprecated or a Flink name) may have
    // meant: the catalogue's suggestions, closest first.
    static std::vector<std::string> meantHudiKeys(std::string_view key) {
        const HudiCatalogue& catalogue = HudiCatalogue::instance();
        const HudiCatalogue::Names names = catalogue.lookup(key);
        if (names.entry || names.deprecatedOf || names.flinkOption)
            return {};
        return catalogue.suggest(key);
    }

    // "--conf k=v" (two parameters) or "--conf=k=v" (one) becomes the same pair of --hudi-conf, its key
    // written as `key` (the pair stays as written when that is its key); a move the project's settings
    // would refuse says so and what it leads to.
    void offerMoveToHudiConf(Pending& d, const ClassifiedToken& t, std::string_view key, std::string title) {
        const std::optional<std::string> refusal = refusalBeforePath(key);
        if (refusal)
            title += " (refused there)";
        spliceMoveToHudiConf(d, t, key, std::move(title));
        if (refusal)
            leadsTo(*refusal);
    }

    void spliceMoveToHudiConf(Pending& d, const ClassifiedToken& t, std::string_view key, FixTitle title) {
        const std::string& tok = text(t.index);
        std::string pair = tok; // as written, or with its key renamed
        if (asciiTrimmed(rangeText(tok, t.keyRange)) != key)
            pair.replace(static_cast<std::size_t>(t.keyRange.first),
                         static_cast<std::size_t>(t.keyRange.second - t.keyRange.first), key);
        const std::string hudiConf(SparkSubmitOptions::kHudiConf);
        const auto at = static_cast<std::size_t>(t.index);
        if (t.optionIndex < 0) {
            offer(d, std::move(title),
                  {{at, at + 1, {hudiConf + pair.substr(static_cast<std::size_t>(t.nameRange.second))}}});
            return;
        }
        const auto flag = static_cast<std::size_t>(t.optionIndex);
        if (pair == tok)
            offer(d, std::move(title), {{flag, flag + 1, {hudiConf}}});
        else
            offer(d, std::move(title), {{flag, flag + 1, {hudiConf}}, {at, at + 1, {std::move(pair)}}});
    }

    // spark-submit's own check of its resource settings (core SubmitResources): a value it refuses stops
    // every run before the application starts. The last option given counts, else the last --conf of its
    // key; the number of executors only while the Job does not turn dynamic allocation on.
    void checkSubmitResources() {
        std::unordered_map<const SubmitResource*, ValueAt> byOption;
        std::unordered_map<const SubmitResource*, ValueAt> byConf;
        bool dynamicAllocation = false;
        for (const ClassifiedToken& t : m_classified.tokens) {
            const std::string& tok = text(t.index);
            if (t.cls == TokenClass::ConfPair && t.equalsPos >= 0) {
                const std::string_view key = rangeText(tok, t.keyRange);
                const ValueAt value{t.index, {t.equalsPos + 1, static_cast<int>(tok.size())}};
                if (key == "spark.dynamicAllocation.enabled")
                    dynamicAllocation = equalsIgnoringAsciiCase(textAt(value), "true");
                if (const SubmitResource* r = SubmitResources::ofConfKey(key))
                    byConf[r] = value;
            } else if (t.cls == TokenClass::Option) {
                const ValueAt value = valueOfOption(t);
                if (const SubmitResource* r = SubmitResources::ofOption(rangeText(tok, t.nameRange));
                    r && value.index >= 0)
                    byOption[r] = value;
            }
        }
        for (const SubmitResource& r : SubmitResources::all()) {
            const auto option = byOption.find(&r);
            const auto conf = byConf.find(&r);
            const bool confUsed =
                conf != byConf.end() && !EffectiveConfig::isPlatformManagedSparkKey(r.confKey);
            if (option != byOption.end() && confUsed)
                overriddenByOption(r, conf->second.index, option->second);
            if (r.uncheckedWithDynamicAllocation && dynamicAllocation)
                continue;
            if (option != byOption.end())
                checkSubmitResource(r, r.option, option->second);
            else if (confUsed)
                checkSubmitResource(r, r.confKey, conf->second);
        }
    }

    // spark-submit sets a resource's key from its option when both are given: the --conf pair is not used.
    void overriddenByOption(const SubmitResource& r, int pair, const ValueAt& option) {
        const std::string key(r.confKey);
        auto& d = add(DiagnosticCode::ConfOverriddenByOption,
                      quoted(key) + " is not used: " + std::string(r.option) + " sets it, to " +
                          quoted(textAt(option)) + ".",
                      pair);
        std::array<int, 2> remove{pair, m_classified.tokens[std::size_t(pair)].optionIndex}; // -1 when inline
        offerRemoval(d, "Remove this " + key, remove);
    }

    void checkSubmitResource(const SubmitResource& r, std::string_view setting, const ValueAt& at) {
        const std::string_view value = textAt(at);
        if (SubmitResources::accepts(r, value))
            return;
        auto& d = add(DiagnosticCode::ResourceInvalid,
                      "spark-submit refuses " + std::string(setting) + " " + quoted(value) + ": " +
                          std::string(r.what) + " must be a positive number, " +
                          (r.isSize ? "a whole number of bytes with an optional unit such as 512m or 4g"
                                    : "a whole number such as 4") +
                          ". Every run would stop before the application starts.",
                      at.index);
        if (const auto corrected = SubmitResources::corrected(r, value))
            offerReplacement(d, "Use " + *corrected, at.index,
                             {text(at.index).substr(0, std::size_t(at.range.first)) + *corrected});
    }

    // spark-submit ships Python files (--py-files, or spark.submit.pyFiles where the option is not given)
    // only with a Python application, which it tells by its path ending in ".py" (SparkSubmitArguments),
    // and refuses them with any other.
    void checkPythonFiles() {
        const int path = m_classified.applicationPath;
        if (path < 0 || runsAsPython(asciiTrimmed(text(path))))
            return;
        for (const ClassifiedToken& t : m_classified.tokens) {
            const std::string& tok = text(t.index);
            if (t.cls == TokenClass::Option && rangeText(tok, t.nameRange) == SparkSubmitOptions::kPyFiles) {
                std::array<int, 2> remove{t.index, valueOf(t)};
                auto& d = pythonFilesRefused(std::string(SparkSubmitOptions::kPyFiles), path, t.index);
                offerRemoval(d, "Remove " + std::string(SparkSubmitOptions::kPyFiles), remove);
            } else if (t.cls == TokenClass::ConfPair &&
                       rangeText(tok, t.keyRange) == SparkSubmitOptions::kPyFilesKey) {
                std::array<int, 2> remove{t.optionIndex, t.index}; // -1 when inline
                auto& d = pythonFilesRefused(quoted(SparkSubmitOptions::kPyFilesKey) + " (the files of " +
                                                 std::string(SparkSubmitOptions::kPyFiles) + ")",
                                             path, t.index);
                offerRemoval(d, "Remove this " + std::string(SparkSubmitOptions::kPyFilesKey), remove);
            }
        }
    }

    Pending& pythonFilesRefused(const std::string& setting, int path, int index) {
        return add(DiagnosticCode::PythonFilesNotPythonApplication,
                   "spark-submit refuses " + setting + " for an application that is not a Python script: " +
                       quoted(asciiTrimmed(text(path))) +
                       " does not end in .py. Every run would stop before the application starts.",
                   index);
    }

    // spark-submit splits a --conf pair at its first '=' and keeps both sides as written
    // (SparkSubmitUtils.parseSparkConfProperty): "spark.x = 1" sets the key "spark.x ", which Spark
    // never reads. Returns the key without its blanks, what the other checks look at.
    std::string_view checkConfBlanks(const ClassifiedToken& t) {
        const std::string& tok = text(t.index);
        const std::string_view raw = rangeText(tok, t.keyRange);
        const std::string_view key = asciiTrimmed(raw);
        const std::string_view rawValue =
            std::string_view(tok).substr(static_cast<std::size_t>(t.equalsPos) + 1);
        const std::string_view value = asciiTrimmed(rawValue);
        if (key.size() == raw.size() && value.size() == rawValue.size())
            return key;
        auto& d =
            add(DiagnosticCode::ConfWhitespace,
                key.size() != raw.size()
                    ? "--conf entry for " + quoted(key) +
                          " has blanks in its key, which spark-submit keeps: "
                          "it sets " +
                          quoted(raw) + ", a key Spark does not read. Remove them."
                    : "--conf entry for " + quoted(key) +
                          " has blanks at the ends of its value, which spark-submit keeps. Remove them.",
                t.index);
        if (!hasLineBreak(key) && !hasLineBreak(value)) {
            std::string fixed = tok.substr(0, static_cast<std::size_t>(t.keyRange.first)) + std::string(key) +
                                "=" + std::string(value);
            offerReplacement(d, "Remove the blanks", t.index, {std::move(fixed)});
        }
        return key;
    }

    void duplicate(DiagnosticCode code, int earlier, std::string_view key) {
        const ClassifiedToken& t = m_classified.tokens[static_cast<std::size_t>(earlier)];
        std::array<int, 2> remove{earlier, t.optionIndex}; // -1 when inline
        auto& d = add(code, quoted(key) + " is set more than once; only the last value is used.", earlier);
        offerRemoval(d, "Remove this earlier " + std::string(key), remove);
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

    // What checkHudiConfs gathers over every pair for the whole-list errors.
    struct HudiConfScan final {
        std::vector<int> disabledRemove; // every new pair, when the feature is off
        std::vector<std::string> notPermitted;
        std::vector<int> notPermittedRemove;
        std::unordered_map<std::string_view, int> last; // where each key was seen last
    };

    void checkHudiConfs() {
        const bool alter = m_context.mode == ValidationContext::Mode::Alter;
        std::unordered_set<std::string> previous;
        if (alter)
            for (const ConfigSetting& s : classifyParameters(m_context.previousParameters).hudiConfigs)
                previous.insert(s.key + '\0' + s.value);

        const bool enabled = m_context.settings.hudiConfigsEnabled;
        HudiConfScan scan;
        if (!enabled)
            scan.disabledRemove.reserve(2 * count(TokenClass::HudiConfPair) +
                                        count(TokenClass::MissingValue));
        scan.last.reserve(count(TokenClass::HudiConfPair));

        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls == TokenClass::MissingValue &&
                rangeText(text(t.index), t.nameRange) == SparkSubmitOptions::kHudiConf) {
                add(DiagnosticCode::HudiConfFlagLast, kFlagLastMessage, t.index);
                if (!enabled)
                    scan.disabledRemove.push_back(t.index);
                continue;
            }
            if (t.cls != TokenClass::HudiConfPair)
                continue;
            checkValueHoldsOption(t, writtenOptionOf(t));
            const std::string& tok = text(t.index);
            HudiPair pair{&t, t.optionIndex >= 0 ? t.optionIndex : t.index, rangeText(tok, t.keyRange),
                          rangeText(tok, t.valueRange)};
            const bool kept = alter && t.equalsPos >= 0 &&
                              previous.contains(std::string(pair.key) + '\0' + std::string(pair.value));
            if (!kept && !enabled) {
                auto& d = add(DiagnosticCode::HudiConfDisabledPair, kDisabledMessage, t.index);
                offerRemoval(d, pair);
                for (int i = pair.first; i <= t.index; ++i)
                    scan.disabledRemove.push_back(i);
            }
            if (!checkHudiPairForm(pair))
                continue;
            checkPermission(pair, kept, scan.notPermitted, scan.notPermittedRemove);
            checkMultiplePairs(pair);
            const std::string_view key = asciiTrimmed(pair.key);
            if (const int earlier = exchangeLastSeen(scan.last, key, t.index); earlier >= 0)
                duplicate(DiagnosticCode::HudiConfDuplicateKey, earlier, key);
        }
        reportHudiConfsOfTheList(scan);
    }

    // A pair's own form: "key=value" with a hoodie.* key, no stray whitespace, a value. False when the pair
    // cannot be checked further.
    bool checkHudiPairForm(const HudiPair& pair) {
        const ClassifiedToken& t = *pair.token;
        const std::string& tok = text(t.index);
        if (t.equalsPos < 0) {
            add(DiagnosticCode::HudiConfFormat, kFormatMessage, t.index);
            return false;
        }
        const std::string_view key = asciiTrimmed(pair.key);
        if (!HudiConfigPolicy::isHudiKey(key)) {
            auto& d = add(DiagnosticCode::HudiConfNotHudiKey,
                          "--hudi-conf only accepts hoodie.* keys, got " + quoted(key) +
                              ". Use --conf for Spark configs.",
                          t.index);
            if (key.starts_with("spark.")) {
                const int flag = t.optionIndex >= 0 ? t.optionIndex : t.index;
                std::string fixed = t.optionIndex >= 0
                                        ? std::string(SparkSubmitOptions::kConf)
                                        : std::string(SparkSubmitOptions::kConf) + "=" +
                                              tok.substr(static_cast<std::size_t>(t.keyRange.first));
                offerReplacement(d, "Use --conf for " + std::string(key), flag, {std::move(fixed)});
            }
            return false;
        }
        if (paddedOrBroken(pair.key, pair.value)) {
            auto& d =
                add(DiagnosticCode::HudiConfWhitespace,
                    "--hudi-conf entry for " + quoted(key) +
                        " contains a line break or leading/trailing whitespace, which would not survive "
                        "the run's properties file intact.",
                    t.index);
            const std::string_view value = asciiTrimmed(pair.value);
            if (!hasLineBreak(key) && !hasLineBreak(value)) {
                std::string fixed = tok.substr(0, static_cast<std::size_t>(t.keyRange.first)) +
                                    std::string(key) + "=" + std::string(value);
                offerReplacement(d, "Trim the whitespace", t.index, {std::move(fixed)});
            }
            return false;
        }
        if (pair.value.empty()) {
            auto& d = add(DiagnosticCode::HudiConfEmptyValue,
                          "--hudi-conf value for " + quoted(key) +
                              " is empty. Remove the config to fall back to the platform default.",
                          t.index);
            offerRemoval(d, pair);
        }
        return true;
    }

    // The errors about the whole list: the feature off, the keys the allow-list does not permit.
    void reportHudiConfsOfTheList(HudiConfScan& scan) {
        if (!scan.disabledRemove.empty()) {
            auto& d = add(DiagnosticCode::HudiConfDisabled, kDisabledMessage, -1);
            offerRemoval(d, "Remove the --hudi-conf parameters", scan.disabledRemove);
        }
        if (!scan.notPermitted.empty()) {
            std::vector<std::string>& keys = scan.notPermitted;
            std::sort(keys.begin(), keys.end());
            keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
            auto& d = add(DiagnosticCode::HudiConfNotPermitted, notPermittedMessage(keys), -1);
            offerRemoval(d, "Remove the configs that are not permitted", scan.notPermittedRemove);
        }
    }

    void checkPermission(const HudiPair& pair, bool kept, std::vector<std::string>& notPermitted,
                         std::vector<int>& notPermittedRemove) {
        const ProjectSettings& settings = m_context.settings;
        const int index = pair.token->index;
        const HudiConfigStatus status = HudiConfigPolicy::statusOf(pair.key, settings);
        if (kept) {
            if (status == HudiConfigStatus::Applied)
                return;
            add(DiagnosticCode::HudiConfKeptNotApplied,
                quoted(pair.key) + " is kept on the Job but not applied to its runs: " +
                    explainHudiConfig(pair.key, settings).because + ".",
                index);
            return;
        }
        if (!settings.hudiConfigsEnabled)
            return; // hudi-conf.disabled covers it
        if (status == HudiConfigStatus::Reserved || status == HudiConfigStatus::NotAllowed) {
            notPermitted.emplace_back(pair.key);
            for (int i = pair.first; i <= index; ++i)
                notPermittedRemove.push_back(i);
            auto& d =
                status == HudiConfigStatus::Reserved
                    ? add(DiagnosticCode::HudiConfReserved,
                          quoted(pair.key) +
                              " is reserved: the platform manages it, so it is never granted or applied. "
                              "Remove it.",
                          index)
                    : add(DiagnosticCode::HudiConfNotPermittedKey,
                          notPermittedMessage({std::string(pair.key)}), index);
            offerRemoval(d, pair);
        } else if (status == HudiConfigStatus::OverriddenByPlatform) {
            add(DiagnosticCode::HudiConfOverriddenByPlatform,
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
            add(DiagnosticCode::HudiConfMultiplePairs,
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
        offerReplacement(d, "Split into " + std::to_string(pairs.size()) + " --hudi-conf pairs", t.index,
                         std::move(with));
    }

    // A --hudi-conf pair after the path reaches the application. Fixes, those that work first: the moves
    // before the path under the names Hudi may have meant (a misspelt key), removal where the pair as
    // written would be refused there, then the moves that would be refused, the plain move last.
    void checkMisplaced() {
        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls != TokenClass::MisplacedHudiConfPair || t.equalsPos < 0)
                continue;
            const std::string_view key = rangeText(text(t.index), t.keyRange);
            if (!HudiConfigPolicy::isHudiKey(key))
                continue;
            auto& d = add(DiagnosticCode::HudiConfAfterPath, misplacedHudiConfigMessage(key), t.index);
            const std::vector<std::string> meant = meantHudiKeys(key);
            const auto moveAsMeant = [&](bool refused) {
                for (const std::string& name : meant)
                    if (refusalBeforePath(name).has_value() == refused)
                        offerMoveBeforePath(d, t, name, "Move before the application path as " + name);
            };
            moveAsMeant(false);
            if (refusalBeforePath(key)) {
                const int from = t.optionIndex >= 0 ? t.optionIndex : t.index;
                std::array<int, 2> pair{from, t.index};
                offerRemoval(d, "Remove --hudi-conf " + std::string(key), pair);
            }
            moveAsMeant(true);
            offerMoveBeforePath(d, t, key,
                                "Move --hudi-conf " + std::string(key) + " before the application path");
        }
    }

    // The flag and its pair (or "--hudi-conf=k=v") inserted before the path, its key written as `key`,
    // and removed from where they stand; a move the project's settings would refuse says so and what it
    // leads to.
    void offerMoveBeforePath(Pending& d, const ClassifiedToken& t, std::string_view key, std::string title) {
        const std::optional<std::string> refusal = refusalBeforePath(key);
        if (refusal)
            title += " (refused there)";
        const int from = t.optionIndex >= 0 ? t.optionIndex : t.index;
        std::vector<std::string> moved(m_params.begin() + from, m_params.begin() + t.index + 1);
        std::string& pair = moved.back();
        if (rangeText(pair, t.keyRange) != key)
            pair.replace(static_cast<std::size_t>(t.keyRange.first),
                         static_cast<std::size_t>(t.keyRange.second - t.keyRange.first), key);
        const auto at = [](int i) { return static_cast<std::size_t>(i); };
        const int path = m_classified.applicationPath;
        offer(d, std::move(title), {{at(path), at(path), std::move(moved)}, {at(from), at(t.index + 1), {}}});
        if (refusal)
            leadsTo(*refusal);
    }

    // An application argument written as an option and its value in one ("--date 2024-01-01" on one
    // line) reaches the application as one argument, blanks included, and a run's ARGUMENTS override of
    // --date does not find it.
    void checkArguments() {
        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls != TokenClass::ApplicationArgument)
                continue;
            const std::string& tok = text(t.index);
            const std::vector<std::string> words = argumentWords(tok);
            if (words.empty())
                continue;
            auto& d = add(DiagnosticCode::ArgumentOptionAndValue,
                          "The application argument " + quoted(tok) +
                              " reaches the application as one argument, blanks included: an option and its "
                              "value are arguments of their own.",
                          t.index);
            offerReplacement(d, "Split into " + std::to_string(words.size()) + " arguments", t.index, words);
        }
    }

    // The shell words of an argument that reads as an option and its value: "--date 2024-01-01",
    // "-n 5 --x"; not a negative number, nor "--name=a b" (the value inline, its blank meant), nor a
    // list of options such as "-Xmx4g -Xms1g" (the value of the argument before it, likely).
    static std::vector<std::string> argumentWords(const std::string& tok) {
        if (tok.size() < 2 || tok[0] != '-' || isAsciiSpace(tok[1]) || isAsciiDigit(tok[1]))
            return {};
        std::vector<std::string> words = shellWords(tok);
        if (words.empty() || words.front().find('=') != std::string::npos || words[1].starts_with('-'))
            return {};
        return words;
    }

    // The service's refusal of `key` as a Job configuration, followed by the one explanation of what
    // would make it apply (the ALTER PROJECT an admin would run); nullopt when it would be accepted.
    std::optional<std::string> refusalBeforePath(std::string_view key) const {
        const ProjectSettings& settings = m_context.settings;
        const HudiConfigStatus status = HudiConfigPolicy::statusOf(key, settings);
        if (status != HudiConfigStatus::Reserved && status != HudiConfigStatus::NotAllowed)
            return std::nullopt;
        const std::string contract =
            !settings.hudiConfigsEnabled ? kDisabledMessage : notPermittedMessage({std::string(key)});
        return contract + "\n" + explainHudiConfig(key, settings).text();
    }

    // The fix offered last leads to `refusal`.
    void leadsTo(std::string refusal) {
        m_fixes.back().leadsTo = m_titles.size();
        m_titles.push_back(std::move(refusal));
    }

    // Appends the key=value pairs of class `cls` as classifyParameters() lists them (--hudi-conf pairs
    // before the path, --conf pairs with a spark.* key) and returns how many.
    std::size_t appendConfigs(TokenClass cls, std::vector<ConfigView>& out) const {
        const std::size_t before = out.size();
        for (const ClassifiedToken& t : m_classified.tokens) {
            if (t.cls != cls || t.equalsPos < 0)
                continue;
            const std::string& tok = text(t.index);
            const std::string_view key = rangeText(tok, t.keyRange);
            if (cls == TokenClass::ConfPair && !key.starts_with("spark."))
                continue;
            out.push_back({key, rangeText(tok, t.valueRange), t.index});
        }
        return out.size() - before;
    }

    void appendAdvice(std::size_t affordable) {
        // The pairs of a typical job fit on the stack; a long one's take one allocation.
        std::vector<ConfigView> views;
        views.reserve(count(TokenClass::ConfPair) + count(TokenClass::HudiConfPair));
        const std::size_t spark = appendConfigs(TokenClass::ConfPair, views);
        const std::size_t hudi = appendConfigs(TokenClass::HudiConfPair, views);
        const std::span<const ConfigView> all = views;
        appendAdviceOnConfigViews(m_found, m_params, all.first(spark), all.subspan(spark, hudi), affordable);
    }

    std::vector<Diagnostic> finish() {
        // The advice goes after the validator's findings in the same list, which is then sorted in place:
        // a long job has thousands of findings, and a second and third list of them is most of its memory.
        const std::size_t found = m_found.size();
        if (m_context.withAdvice && !m_params.empty()) {
            // Their fixes count against the budget too: ask only for what it can keep.
            const std::size_t affordable =
                m_context.fixesForToken ? std::numeric_limits<std::size_t>::max()
                                        : m_context.fixBudget / std::max<std::size_t>(m_params.size(), 1);
            appendAdvice(affordable);
            for (auto d = m_found.begin() + static_cast<std::ptrdiff_t>(found); d != m_found.end(); ++d)
                if (d->severity == Severity::Error)
                    d->severity = Severity::Warning; // advice never refuses a job
        }
        // Errors first by refusal rank, then everything by parameter; ties keep the order found (the
        // validator's findings, then the advice).
        std::vector<Order> order;
        order.reserve(m_found.size());
        for (std::size_t i = 0; i < m_found.size(); ++i) {
            const Diagnostic& d = m_found[i];
            const bool error = d.severity == Severity::Error;
            order.push_back({error ? refusalRank(d.code) : kNotAnError, d.tokenIndex + 1, i});
        }
        sortStably(order, m_params.size() + 1);
        permute(order);

        std::size_t budget = m_context.fixBudget;
        const auto& only = m_context.fixesForToken;
        const std::size_t cost = std::max<std::size_t>(m_params.size(), 1);
        const auto wanted = [&](int at) { return only ? (at == *only || at == -1) : budget >= cost; };
        for (std::size_t k = 0; k < order.size(); ++k) {
            Diagnostic& d = m_found[k];
            if (order[k].at >= found) {
                // Advice arrives with its fixes made; keep them under the same rule.
                if (!d.fixes.empty()) {
                    if (!wanted(d.tokenIndex))
                        d.fixes.clear();
                    else if (!only)
                        budget -= std::min(budget, cost * d.fixes.size());
                }
                continue;
            }
            const Pending& p = m_pending[order[k].at];
            if (p.fixCount > 0 && wanted(d.tokenIndex))
                d.fixes.reserve(p.fixCount);
            for (std::size_t f = p.firstFix; f < p.firstFix + p.fixCount && wanted(d.tokenIndex); ++f) {
                if (!only)
                    budget -= cost;
                d.fixes.push_back(offered(m_fixes[f]));
            }
        }
        return std::move(m_found);
    }

    // Puts m_found[order[k].at] at k, following each cycle of the permutation once. An entry's group is
    // not needed once sorted, so it marks the places already filled.
    void permute(std::span<Order> order) {
        constexpr int kPlaced = -1;
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (order[k].group == kPlaced || order[k].at == k)
                continue;
            Diagnostic held = std::move(m_found[k]);
            for (std::size_t j = k;;) {
                order[j].group = kPlaced;
                const std::size_t from = order[j].at;
                if (from == k) {
                    m_found[j] = std::move(held);
                    break;
                }
                m_found[j] = std::move(m_found[from]);
                j = from;
            }
        }
    }

    // Called once every finding is in: the fixes share the list and every splice found.
    Fix offered(PendingFix& fix) {
        if (!m_base) {
            auto base = std::make_shared<FixedParameters::Base>(m_params);
            base->splices = std::move(m_splices);
            m_base = std::move(base);
        }
        std::string title = fix.title.empty() ? std::move(m_titles[fix.builtTitle]) : std::string(fix.title);
        std::string leads = fix.leadsTo == kLeadsNowhere ? std::string() : std::move(m_titles[fix.leadsTo]);
        return {std::move(title), FixedParameters(m_base, fix.firstSplice, fix.spliceCount),
                std::move(leads)};
    }

    const Params& m_params;
    const ValidationContext& m_context;
    const ClassifiedParameters& m_classified;
    std::array<std::size_t, kTokenClassCount> m_counts{}; // tokens of each class
    std::vector<Diagnostic> m_found;                      // the findings, then the advice
    std::vector<Pending> m_pending;                       // the findings' fixes
    std::vector<PendingFix> m_fixes;
    std::vector<std::string> m_titles; // the fixes' titles that are not literals
    std::vector<Splice> m_splices;
    std::shared_ptr<const FixedParameters::Base> m_base; // the fixes' shared list, made for the first
};

} // namespace

int refusalRank(std::string_view code) {
    const DiagnosticDescriptor* descriptor = findDiagnosticDescriptor(code);
    return descriptor ? descriptor->refusalRank : kNotARefusal;
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

int refusalParameterIndex(const std::vector<Diagnostic>& diagnostics) {
    const Diagnostic* refusal = firstError(diagnostics);
    if (!refusal || refusal->tokenIndex >= 0)
        return refusal ? refusal->tokenIndex : -1;
    const DiagnosticDescriptor* whole = findDiagnosticDescriptor(refusal->code);
    int first = -1;
    for (const Diagnostic& d : diagnostics) {
        const DiagnosticDescriptor* part = findDiagnosticDescriptor(d.code);
        if (whole && part && part->partOf == whole->code && d.tokenIndex >= 0 &&
            (first < 0 || d.tokenIndex < first))
            first = d.tokenIndex;
    }
    return first;
}

std::string emptyParametersGuidance() {
    return "Type the Job's parameters, one a line: spark-submit options first (--class, --conf key=value, "
           "--hudi-conf key=value), then the path of the application's JAR or Python file, then its "
           "arguments.";
}

std::vector<Diagnostic> validateParameters(const std::vector<std::string>& parameters,
                                           const ValidationContext& context) {
    const ClassifiedParameters classified = classifyTokens(parameters);
    return Validation(parameters, classified, context).run();
}

std::vector<Diagnostic> validateParameters(const std::vector<std::string>& parameters,
                                           const ClassifiedParameters& classified,
                                           const ValidationContext& context) {
    return Validation(parameters, classified, context).run();
}

} // namespace jobdeck
