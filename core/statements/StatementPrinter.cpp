#include "core/statements/StatementPrinter.h"

#include "core/statements/StatementLexer.h"
#include "core/statements/StatementParser.h"

#include <algorithm>

namespace jobdeck {

namespace {

// `text` between two `quote`s, a quote inside doubled: how the statement language writes strings and names.
std::string enclosedDoubling(std::string_view text, char quote) {
    std::string result;
    result.reserve(text.size() + 2);
    result.push_back(quote);
    for (char c : text) {
        if (c == quote)
            result.push_back(quote);
        result.push_back(c);
    }
    result.push_back(quote);
    return result;
}

void appendStringList(std::string& out, const std::vector<std::string>& items,
                      StatementLayout layout = StatementLayout::OneLine) {
    const bool lines = layout == StatementLayout::ParameterPerLine && !items.empty();
    out += '(';
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (lines)
            out += i > 0 ? ",\n    " : "\n    ";
        else if (i > 0)
            out += ", ";
        out += quoteString(items[i]);
    }
    out += lines ? "\n)" : ")";
}

void appendPairs(std::string& out, const std::vector<std::pair<std::string, std::string>>& pairs) {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += quoteString(pairs[i].first) + " = " + quoteString(pairs[i].second);
    }
}

const char* switchWord(bool enabled) {
    return enabled ? "ENABLED" : "DISABLED";
}

void print(std::string& out, const CreateJobStatement& s, StatementLayout layout) {
    out += "CREATE JOB " + quoteName(s.name);
    out += s.type == JobType::Jar ? " TYPE = 'JAR'" : " TYPE = 'PYTHON'";
    out += " PARAMETERS = ";
    appendStringList(out, s.parameters, layout);
    out += " CLUSTER = " + quoteString(s.cluster);
    if (s.maxConcurrentRuns)
        out += " MAX_CONCURRENT_RUNS = " + std::to_string(*s.maxConcurrentRuns);
}

void print(std::string& out, const AlterJobStatement& s, StatementLayout layout) {
    out += "ALTER JOB " + quoteName(s.name);
    if (s.parameters) {
        out += " SET PARAMETERS = ";
        appendStringList(out, *s.parameters, layout);
    }
    if (s.cluster)
        out += " SET CLUSTER = " + quoteString(*s.cluster);
    if (s.maxConcurrentRuns)
        out += " SET MAX_CONCURRENT_RUNS = " + std::to_string(*s.maxConcurrentRuns);
}

void print(std::string& out, const DeleteJobStatement& s) {
    out += "DELETE JOB " + quoteName(s.name);
}

void print(std::string& out, const DescribeJobStatement& s) {
    out += "DESCRIBE JOB " + quoteName(s.name);
}

void print(std::string& out, const ShowJobsStatement& s) {
    out += s.summary ? "SHOW JOBS SUMMARY" : "SHOW JOBS";
    if (s.limit)
        out += " LIMIT " + std::to_string(*s.limit);
}

void print(std::string& out, const RunJobStatement& s) {
    out += "RUN JOB " + quoteName(s.name);
    if (!s.arguments.empty()) {
        out += " ARGUMENTS = (";
        appendPairs(out, s.arguments);
        out += ')';
    }
}

// The contract writes run ids back-quoted whatever they look like.
void print(std::string& out, const DescribeJobRunStatement& s) {
    out += "DESCRIBE JOB_RUN " + enclosedDoubling(s.runId, '`') + " JOB_NAME = " + quoteString(s.jobName);
}

void print(std::string& out, const CancelJobRunStatement& s) {
    out += "CANCEL JOB_RUN " + enclosedDoubling(s.runId, '`') + " JOB_NAME = " + quoteString(s.jobName);
}

void print(std::string& out, const ShowJobRunsStatement& s) {
    out += "SHOW JOB_RUNS";
    if (s.jobName)
        out += " JOB_NAME = " + quoteString(*s.jobName);
    if (s.activeOnly)
        out += " ACTIVE";
    if (s.limit)
        out += " LIMIT " + std::to_string(*s.limit);
}

void print(std::string& out, const CreateClusterStatement& s) {
    out += "CREATE CLUSTER " + quoteName(s.name) + " TYPE = " + quoteString(s.type) +
           " MAX_OCU = " + std::to_string(s.maxOcu) + " MIN_OCU = " + std::to_string(s.minOcu);
    if (!s.with.empty()) {
        out += " WITH ";
        appendPairs(out, s.with);
    }
}

void print(std::string& out, const AlterClusterStatement& s) {
    out += "ALTER CLUSTER " + quoteName(s.name);
    if (s.maxOcu)
        out += " SET MAX_OCU = " + std::to_string(*s.maxOcu);
    if (s.minOcu)
        out += " SET MIN_OCU = " + std::to_string(*s.minOcu);
    if (!s.with.empty()) {
        out += " WITH ";
        appendPairs(out, s.with);
    }
}

void print(std::string& out, const DescribeClusterStatement& s) {
    out += "DESCRIBE CLUSTER " + quoteName(s.name);
}

void print(std::string& out, const ShowClustersStatement&) {
    out += "SHOW CLUSTERS";
}

void print(std::string& out, const DeleteClusterStatement& s) {
    out += "DELETE CLUSTER " + quoteName(s.name);
}

void print(std::string& out, const DescribeProjectStatement&) {
    out += "DESCRIBE PROJECT";
}

void print(std::string& out, const AlterProjectStatement& s) {
    out += "ALTER PROJECT";
    if (s.hudiConfigs)
        out += std::string(" SET HUDI_CONFIGS = ") + switchWord(*s.hudiConfigs);
    if (s.concurrentRuns) {
        out += std::string(" SET CONCURRENT_RUNS = ") + switchWord(*s.concurrentRuns);
        if (s.maxConcurrentRunsLimit)
            out += " MAX_CONCURRENT_RUNS_LIMIT = " + std::to_string(*s.maxConcurrentRunsLimit);
    } else if (s.maxConcurrentRunsLimit) {
        out += " SET MAX_CONCURRENT_RUNS_LIMIT = " + std::to_string(*s.maxConcurrentRunsLimit);
    }
    if (s.allowlistOp != AlterProjectStatement::AllowlistOp::None) {
        out += s.allowlistOp == AlterProjectStatement::AllowlistOp::Add ? " ADD" : " REMOVE";
        out += " HUDI_CONFIG_ALLOWLIST ";
        appendStringList(out, s.allowlistEntries);
    }
}

void print(std::string& out, const ShowAuditLogStatement& s) {
    out += "SHOW AUDIT_LOG";
    if (s.limit)
        out += " LIMIT " + std::to_string(*s.limit);
}

} // namespace

std::string printStatement(const Statement& statement, StatementLayout layout) {
    std::string out;
    std::visit(
        [&](const auto& s) {
            if constexpr (requires { print(out, s, layout); })
                print(out, s, layout);
            else
                print(out, s);
        },
        statement);
    return out;
}

std::string quoteString(std::string_view text) {
    return enclosedDoubling(text, '\'');
}

std::string quoteName(std::string_view name) {
    const bool bare = !name.empty() && StatementLexer::isNameStart(name.front()) &&
                      std::all_of(name.begin(), name.end(), StatementLexer::isNameChar) &&
                      !isStatementKeyword(name);
    return bare ? std::string(name) : enclosedDoubling(name, '`');
}

} // namespace jobdeck
