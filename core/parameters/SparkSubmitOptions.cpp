#include "core/parameters/SparkSubmitOptions.h"

#include <algorithm>
#include <array>

namespace jobdeck {

namespace {

using P = OptionPolicy;

// Order follows SparkSubmitOptionParser (Spark 3.5): its `opts`, then its `switches`.
constexpr std::array<SparkSubmitOption, 35> kOptions{{
    {"--archives", "", true, P::Allowed},
    {"--class", "", true, P::Allowed},
    {"--conf", "-c", true, P::Allowed},
    {"--deploy-mode", "", true, P::PlatformOwned},
    {"--driver-class-path", "", true, P::Allowed},
    {"--driver-cores", "", true, P::Allowed},
    {"--driver-java-options", "", true, P::Allowed},
    {"--driver-library-path", "", true, P::Allowed},
    {"--driver-memory", "", true, P::Allowed},
    {"--executor-cores", "", true, P::Allowed},
    {"--executor-memory", "", true, P::Allowed},
    {"--files", "", true, P::Allowed},
    {"--jars", "", true, P::Allowed},
    {"--keytab", "", true, P::Allowed},
    {"--kill", "", true, P::NotForJobs},
    {"--master", "", true, P::PlatformOwned},
    {"--remote", "", true, P::PlatformOwned},
    {"--name", "", true, P::Allowed},
    {"--num-executors", "", true, P::Allowed},
    {"--packages", "", true, P::Allowed},
    {"--exclude-packages", "", true, P::Allowed},
    {"--principal", "", true, P::Allowed},
    {"--properties-file", "", true, P::Allowed},
    {"--proxy-user", "", true, P::Allowed},
    {"--py-files", "", true, P::Allowed},
    {"--queue", "", true, P::Allowed},
    {"--repositories", "", true, P::Allowed},
    {"--status", "", true, P::NotForJobs},
    {"--total-executor-cores", "", true, P::Allowed},
    {"--hudi-conf", "", true, P::Allowed},
    // switches
    {"--help", "-h", false, P::NotForJobs},
    {"--supervise", "", false, P::Allowed},
    {"--usage-error", "", false, P::NotForJobs},
    {"--verbose", "-v", false, P::Allowed},
    {"--version", "", false, P::NotForJobs},
}};

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::span<const SparkSubmitOption> SparkSubmitOptions::all() {
    return kOptions;
}

const SparkSubmitOption* SparkSubmitOptions::find(std::string_view option) {
    // Names and aliases by length: every parameter before the path is looked up, and few share a length.
    static const auto byLength = [] {
        std::size_t longest = 0;
        for (const auto& o : kOptions)
            longest = std::max(longest, o.name.size());
        std::vector<std::vector<const SparkSubmitOption*>> index(longest + 1);
        for (const auto& o : kOptions) {
            index[o.name.size()].push_back(&o);
            if (!o.alias.empty())
                index[o.alias.size()].push_back(&o);
        }
        return index;
    }();
    if (option.size() >= byLength.size())
        return nullptr;
    for (const SparkSubmitOption* o : byLength[option.size()])
        if (o->name == option || o->alias == option)
            return o;
    return nullptr;
}

SparkSubmitOptions::Inline SparkSubmitOptions::splitInline(std::string_view token) {
    const std::size_t eq = token.find('=');
    if (token.starts_with("--") && eq != std::string_view::npos && eq > 2 && eq + 1 < token.size())
        return {token.substr(0, eq), token.substr(eq + 1)};
    return {token, std::nullopt};
}

std::string_view SparkSubmitOptions::nameOf(std::string_view token) {
    const SparkSubmitOption* option = find(splitInline(token).option);
    return option ? option->name : std::string_view();
}

std::vector<std::string> SparkSubmitOptions::suggest(std::string_view unknown, std::size_t max) {
    const std::string_view name = splitInline(unknown).option;
    if (name.size() > 40)
        return {};
    std::vector<std::pair<std::size_t, std::string_view>> scored;
    for (const auto& o : all()) {
        if (o.policy != OptionPolicy::Allowed)
            continue;
        const std::size_t d = editDistance(name, o.name);
        if (d <= std::max<std::size_t>(2, o.name.size() / 4))
            scored.emplace_back(d, o.name);
    }
    std::stable_sort(scored.begin(), scored.end(), [](auto& a, auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (const auto& [d, n] : scored) {
        if (out.size() >= max)
            break;
        out.emplace_back(n);
    }
    return out;
}

} // namespace jobdeck
