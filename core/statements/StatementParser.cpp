#include "core/statements/StatementParser.h"

#include "core/statements/NameLimits.h"
#include "core/statements/StatementLexer.h"
#include "core/text/AsciiText.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace jobdeck {

namespace {

// Every word the grammar gives a meaning to; sorted.
constexpr std::array<std::string_view, 35> kKeywords = {
    "ACTIVE",
    "ADD",
    "ALTER",
    "ARGUMENTS",
    "AUDIT_LOG",
    "CANCEL",
    "CLUSTER",
    "CLUSTERS",
    "CONCURRENT_RUNS",
    "CREATE",
    "DELETE",
    "DESCRIBE",
    "DISABLED",
    "ENABLED",
    "HUDI_CONFIGS",
    "HUDI_CONFIG_ALLOWLIST",
    "JOB",
    "JOBS",
    "JOB_NAME",
    "JOB_RUN",
    "JOB_RUNS",
    "LIMIT",
    "MAX_CONCURRENT_RUNS",
    "MAX_CONCURRENT_RUNS_LIMIT",
    "MAX_OCU",
    "MIN_OCU",
    "PARAMETERS",
    "PROJECT",
    "REMOVE",
    "RUN",
    "SET",
    "SHOW",
    "SUMMARY",
    "TYPE",
    "WITH",
};

// A long or multi-line token is shortened in messages; the position already says where it is.
std::string shortened(std::string_view text) {
    constexpr std::size_t kMax = 40;
    std::size_t cut = std::min({text.size(), kMax, text.find_first_of("\r\n")});
    if (cut == text.size())
        return std::string(text);
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut; // do not split a UTF-8 sequence
    return std::string(text.substr(0, cut)) + "...";
}

// How a token is named in a message: keywords upper-case, everything else as written.
std::string describe(const Token& token, std::string_view source) {
    const std::string_view written = source.substr(token.offset, token.length);
    switch (token.kind) {
    case TokenKind::Word:
        return isStatementKeyword(written) ? asciiUppered(written) : shortened(written);
    case TokenKind::QuotedName:
    case TokenKind::String:
    case TokenKind::Number:
        return shortened(written);
    case TokenKind::End:
        return "the end of the statement";
    case TokenKind::Error:
        return token.text;
    default:
        return quoted(written);
    }
}

struct Failure final {
    ParseError error;
};

// Recursive descent over a flat grammar (no nesting), with one token of look-ahead; every
// failure is thrown as Failure and turned into a ParseError by parseStatement.
class StatementParser final {
public:
    explicit StatementParser(std::string_view text)
        : m_text(text)
        , m_lexer(text) {
        advance();
    }

    Statement parse() {
        if (m_token.kind == TokenKind::End)
            fail("empty statement: expected CREATE, ALTER, DELETE, DESCRIBE, SHOW, RUN or CANCEL", m_token);
        Statement statement = parseVerb();
        if (m_token.kind == TokenKind::Semicolon)
            advance();
        if (m_token.kind != TokenKind::End)
            fail("unexpected " + describe(m_token, m_text) + " after the end of the statement", m_token);
        return statement;
    }

private:
    [[noreturn]] static void fail(const std::string& message, const Token& at) {
        throw Failure{
            ParseError{at.line, at.column,
                       message + " at " + std::to_string(at.line) + ":" + std::to_string(at.column)}};
    }

    [[noreturn]] void expected(const std::string& what) const {
        // Every real token spans at least one byte; the empty one is the start of the input.
        const std::string after = m_previous.length > 0 ? " after " + describe(m_previous, m_text) : "";
        fail("expected " + what + after, m_token);
    }

    void advance() {
        m_previous.kind = m_token.kind;
        m_previous.offset = m_token.offset;
        m_previous.length = m_token.length;
        m_token = m_lexer.next();
        if (m_token.kind == TokenKind::Error)
            fail(m_token.text, m_token);
    }

    bool at(std::string_view keyword) const {
        return m_token.kind == TokenKind::Word && equalsIgnoringAsciiCase(m_token.text, keyword);
    }

    bool accept(std::string_view keyword) {
        if (!at(keyword))
            return false;
        advance();
        return true;
    }

    void expectKeyword(std::string_view keyword) {
        if (!accept(keyword))
            expected(std::string(keyword));
    }

    void expectSymbol(TokenKind kind, const char* shown) {
        if (m_token.kind != kind)
            expected(shown);
        advance();
    }

    bool atStatementEnd() const {
        return m_token.kind == TokenKind::End || m_token.kind == TokenKind::Semicolon;
    }

    // A clause keyword that may appear once: remembers it, or fails on the second time.
    void once(bool& seen) const {
        if (seen)
            fail(asciiUppered(m_token.text) + " is given more than once", m_token);
        seen = true;
    }

    // A name over kMaxNameCharacters is refused here, before anything stores or echoes it.
    void checkNameLength(const std::string& what) const {
        if (const auto problem = nameLengthProblem(what, m_token.text))
            fail(*problem, m_token);
    }

    std::string expectName(const std::string& what) {
        if (m_token.kind != TokenKind::Word && m_token.kind != TokenKind::QuotedName)
            expected(what);
        if (m_token.text.empty())
            fail(what + " cannot be empty", m_token);
        checkNameLength(what);
        // A bare UUID is a word for the run ids it stands for; as a name it must be back-quoted.
        if (m_token.kind == TokenKind::Word && !StatementLexer::isNameStart(m_token.text.front()))
            fail(what + " cannot start with a digit: back-quote it (`" + m_token.text + "`)", m_token);
        std::string name = std::move(m_token.text);
        advance();
        return name;
    }

    std::string expectString(const std::string& what) {
        if (m_token.kind != TokenKind::String)
            expected(what);
        std::string text = std::move(m_token.text);
        advance();
        return text;
    }

    // Values that name something (a cluster, a job) may be written as a string or as a name.
    std::string expectNameValue(const std::string& what) {
        if (m_token.kind == TokenKind::String) {
            if (m_token.text.empty())
                fail(what + " cannot be empty", m_token);
            checkNameLength(what);
            return expectString(what);
        }
        return expectName(what);
    }

    std::int64_t expectNumber() {
        if (m_token.kind != TokenKind::Number)
            expected("a number");
        const std::int64_t value = m_token.number;
        advance();
        return value;
    }

    bool expectSwitch() {
        const bool isText = m_token.kind == TokenKind::Word || m_token.kind == TokenKind::String;
        if (isText && equalsIgnoringAsciiCase(m_token.text, "ENABLED")) {
            advance();
            return true;
        }
        if (isText && equalsIgnoringAsciiCase(m_token.text, "DISABLED")) {
            advance();
            return false;
        }
        expected("ENABLED or DISABLED");
    }

    // ( 'a', 'b', ... ); `allowEmpty` is false where an empty list would mean nothing. `itemName` set:
    // the items are names of that kind, within kMaxNameCharacters.
    std::vector<std::string> parseStringList(bool allowEmpty, const std::string& itemName = {}) {
        expectSymbol(TokenKind::LeftParen, "'('");
        std::vector<std::string> items;
        if (m_token.kind == TokenKind::RightParen && allowEmpty) {
            advance();
            return items;
        }
        while (true) {
            if (!itemName.empty() && m_token.kind == TokenKind::String)
                checkNameLength(itemName);
            items.push_back(expectString("a string"));
            if (m_token.kind == TokenKind::RightParen) {
                advance();
                return items;
            }
            if (m_token.kind != TokenKind::Comma)
                expected("',' or ')'");
            advance();
        }
    }

    std::pair<std::string, std::string> parsePair() {
        std::string key = expectString("a string");
        expectSymbol(TokenKind::Equals, "'='");
        std::string value = expectString("a string");
        return {std::move(key), std::move(value)};
    }

    // 'k' = 'v', 'k2' = 'v2' (no parentheses, at least one pair)
    std::vector<std::pair<std::string, std::string>> parseWithPairs() {
        std::vector<std::pair<std::string, std::string>> pairs;
        pairs.push_back(parsePair());
        while (m_token.kind == TokenKind::Comma) {
            advance();
            pairs.push_back(parsePair());
        }
        return pairs;
    }

    Statement parseVerb() {
        if (accept("CREATE")) {
            if (accept("JOB"))
                return parseCreateJob();
            if (accept("CLUSTER"))
                return parseCreateCluster();
            expected("JOB or CLUSTER");
        }
        if (accept("ALTER")) {
            if (accept("JOB"))
                return parseAlterJob();
            if (accept("CLUSTER"))
                return parseAlterCluster();
            if (accept("PROJECT"))
                return parseAlterProject();
            expected("JOB, CLUSTER or PROJECT");
        }
        if (accept("DELETE")) {
            if (accept("JOB"))
                return DeleteJobStatement{expectName("a job name")};
            if (accept("CLUSTER"))
                return DeleteClusterStatement{expectName("a cluster name")};
            expected("JOB or CLUSTER");
        }
        if (accept("DESCRIBE")) {
            if (accept("JOB"))
                return DescribeJobStatement{expectName("a job name")};
            if (accept("JOB_RUN")) {
                auto [runId, jobName] = parseRunReference();
                return DescribeJobRunStatement{std::move(runId), std::move(jobName)};
            }
            if (accept("CLUSTER"))
                return DescribeClusterStatement{expectName("a cluster name")};
            if (accept("PROJECT"))
                return DescribeProjectStatement{};
            expected("JOB, JOB_RUN, CLUSTER or PROJECT");
        }
        if (accept("SHOW")) {
            if (accept("JOBS")) {
                ShowJobsStatement statement{accept("SUMMARY"), std::nullopt};
                if (statement.summary && accept("LIMIT"))
                    statement.limit = expectNumber();
                return statement;
            }
            if (accept("JOB_RUNS"))
                return parseShowJobRuns();
            if (accept("CLUSTERS"))
                return ShowClustersStatement{};
            if (accept("AUDIT_LOG")) {
                ShowAuditLogStatement statement;
                if (accept("LIMIT"))
                    statement.limit = expectNumber();
                return statement;
            }
            expected("JOBS, JOB_RUNS, CLUSTERS or AUDIT_LOG");
        }
        if (accept("RUN")) {
            expectKeyword("JOB");
            return parseRunJob();
        }
        if (accept("CANCEL")) {
            expectKeyword("JOB_RUN");
            auto [runId, jobName] = parseRunReference();
            return CancelJobRunStatement{std::move(runId), std::move(jobName)};
        }
        expected("CREATE, ALTER, DELETE, DESCRIBE, SHOW, RUN or CANCEL");
    }

    CreateJobStatement parseCreateJob() {
        CreateJobStatement statement;
        statement.name = expectName("a job name");
        bool type = false, parameters = false, cluster = false, maxRuns = false;
        while (!atStatementEnd()) {
            if (at("TYPE")) {
                once(type);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.type = parseJobType();
            } else if (at("PARAMETERS")) {
                once(parameters);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.parameters = parseStringList(true);
            } else if (at("CLUSTER")) {
                once(cluster);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.cluster = expectNameValue("a cluster name");
            } else if (at("MAX_CONCURRENT_RUNS")) {
                once(maxRuns);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.maxConcurrentRuns = expectNumber();
            } else {
                expected("TYPE, PARAMETERS, CLUSTER or MAX_CONCURRENT_RUNS");
            }
        }
        if (!type)
            fail("CREATE JOB is missing TYPE = 'JAR' | 'PYTHON'", m_token);
        if (!parameters)
            fail("CREATE JOB is missing PARAMETERS = ( ... )", m_token);
        if (!cluster)
            fail("CREATE JOB is missing CLUSTER = '<cluster>'", m_token);
        return statement;
    }

    JobType parseJobType() {
        if (m_token.kind != TokenKind::String && m_token.kind != TokenKind::Word)
            expected("'JAR' or 'PYTHON'");
        JobType type;
        if (equalsIgnoringAsciiCase(m_token.text, "JAR"))
            type = JobType::Jar;
        else if (equalsIgnoringAsciiCase(m_token.text, "PYTHON"))
            type = JobType::Python;
        else
            fail("unknown job type " + describe(m_token, m_text) + ": expected 'JAR' or 'PYTHON'", m_token);
        advance();
        return type;
    }

    AlterJobStatement parseAlterJob() {
        AlterJobStatement statement;
        statement.name = expectName("a job name");
        do {
            expectKeyword("SET");
            if (at("PARAMETERS")) {
                if (statement.parameters)
                    fail("SET PARAMETERS is given more than once", m_token);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.parameters = parseStringList(true);
            } else if (at("CLUSTER")) {
                if (statement.cluster)
                    fail("SET CLUSTER is given more than once", m_token);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.cluster = expectNameValue("a cluster name");
            } else if (at("MAX_CONCURRENT_RUNS")) {
                if (statement.maxConcurrentRuns)
                    fail("SET MAX_CONCURRENT_RUNS is given more than once", m_token);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.maxConcurrentRuns = expectNumber();
            } else {
                expected("PARAMETERS, CLUSTER or MAX_CONCURRENT_RUNS");
            }
        } while (!atStatementEnd());
        return statement;
    }

    RunJobStatement parseRunJob() {
        RunJobStatement statement;
        statement.name = expectName("a job name");
        if (accept("ARGUMENTS")) {
            expectSymbol(TokenKind::Equals, "'='");
            expectSymbol(TokenKind::LeftParen, "'('");
            if (m_token.kind == TokenKind::RightParen) {
                advance();
                return statement;
            }
            while (true) {
                statement.arguments.push_back(parsePair());
                if (m_token.kind == TokenKind::RightParen) {
                    advance();
                    break;
                }
                if (m_token.kind != TokenKind::Comma)
                    expected("',' or ')'");
                advance();
            }
        }
        return statement;
    }

    // `<runId>` JOB_NAME = '<name>'; the run id may also be a plain name, a bare UUID or a string.
    std::pair<std::string, std::string> parseRunReference() {
        std::string runId;
        if (m_token.kind == TokenKind::String || m_token.kind == TokenKind::Word ||
            m_token.kind == TokenKind::QuotedName) {
            if (m_token.text.empty())
                fail("a run id cannot be empty", m_token);
            checkNameLength("a run id");
            runId = std::move(m_token.text);
            advance();
        } else {
            expected("a run id");
        }
        expectKeyword("JOB_NAME");
        expectSymbol(TokenKind::Equals, "'='");
        return {std::move(runId), expectNameValue("a job name")};
    }

    ShowJobRunsStatement parseShowJobRuns() {
        ShowJobRunsStatement statement;
        bool jobName = false, active = false, limit = false;
        while (!atStatementEnd()) {
            if (at("JOB_NAME")) {
                once(jobName);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.jobName = expectNameValue("a job name");
            } else if (at("ACTIVE")) {
                once(active);
                advance();
                statement.activeOnly = true;
            } else if (at("LIMIT")) {
                once(limit);
                advance();
                statement.limit = expectNumber();
            } else {
                expected("JOB_NAME, ACTIVE or LIMIT");
            }
        }
        return statement;
    }

    CreateClusterStatement parseCreateCluster() {
        CreateClusterStatement statement;
        statement.name = expectName("a cluster name");
        bool type = false, maxOcu = false, minOcu = false, with = false;
        while (!atStatementEnd()) {
            if (at("TYPE")) {
                once(type);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                if (m_token.kind == TokenKind::Word)
                    statement.type = expectName("a cluster type");
                else {
                    if (m_token.kind == TokenKind::String)
                        checkNameLength("a cluster type");
                    statement.type = expectString("a cluster type such as 'Spark'");
                }
            } else if (at("MAX_OCU")) {
                once(maxOcu);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.maxOcu = expectNumber();
            } else if (at("MIN_OCU")) {
                once(minOcu);
                advance();
                expectSymbol(TokenKind::Equals, "'='");
                statement.minOcu = expectNumber();
            } else if (at("WITH")) {
                once(with);
                advance();
                statement.with = parseWithPairs();
            } else {
                expected("TYPE, MAX_OCU, MIN_OCU or WITH");
            }
        }
        if (!type)
            fail("CREATE CLUSTER is missing TYPE = 'Spark'", m_token);
        if (!maxOcu)
            fail("CREATE CLUSTER is missing MAX_OCU = <n>", m_token);
        if (!minOcu)
            fail("CREATE CLUSTER is missing MIN_OCU = <n>", m_token);
        return statement;
    }

    AlterClusterStatement parseAlterCluster() {
        AlterClusterStatement statement;
        statement.name = expectName("a cluster name");
        bool with = false;
        do {
            if (accept("SET")) {
                if (at("MAX_OCU")) {
                    if (statement.maxOcu)
                        fail("SET MAX_OCU is given more than once", m_token);
                    advance();
                    expectSymbol(TokenKind::Equals, "'='");
                    statement.maxOcu = expectNumber();
                } else if (at("MIN_OCU")) {
                    if (statement.minOcu)
                        fail("SET MIN_OCU is given more than once", m_token);
                    advance();
                    expectSymbol(TokenKind::Equals, "'='");
                    statement.minOcu = expectNumber();
                } else {
                    expected("MAX_OCU or MIN_OCU");
                }
            } else if (at("WITH")) {
                once(with);
                advance();
                statement.with = parseWithPairs();
            } else {
                expected("SET or WITH");
            }
        } while (!atStatementEnd());
        return statement;
    }

    AlterProjectStatement parseAlterProject() {
        AlterProjectStatement statement;
        do {
            if (accept("SET")) {
                if (at("HUDI_CONFIGS")) {
                    if (statement.hudiConfigs)
                        fail("SET HUDI_CONFIGS is given more than once", m_token);
                    advance();
                    expectSymbol(TokenKind::Equals, "'='");
                    statement.hudiConfigs = expectSwitch();
                } else if (at("CONCURRENT_RUNS")) {
                    if (statement.concurrentRuns)
                        fail("SET CONCURRENT_RUNS is given more than once", m_token);
                    advance();
                    expectSymbol(TokenKind::Equals, "'='");
                    statement.concurrentRuns = expectSwitch();
                    if (at("MAX_CONCURRENT_RUNS_LIMIT"))
                        parseRunsLimit(statement);
                } else if (at("MAX_CONCURRENT_RUNS_LIMIT")) {
                    parseRunsLimit(statement);
                } else {
                    expected("HUDI_CONFIGS, CONCURRENT_RUNS or MAX_CONCURRENT_RUNS_LIMIT");
                }
            } else if (at("ADD") || at("REMOVE")) {
                if (statement.allowlistOp != AlterProjectStatement::AllowlistOp::None)
                    fail("only one ADD or REMOVE HUDI_CONFIG_ALLOWLIST is allowed per statement", m_token);
                statement.allowlistOp = at("ADD") ? AlterProjectStatement::AllowlistOp::Add
                                                  : AlterProjectStatement::AllowlistOp::Remove;
                advance();
                expectKeyword("HUDI_CONFIG_ALLOWLIST");
                statement.allowlistEntries = parseStringList(false, "a HUDI_CONFIG_ALLOWLIST entry");
            } else {
                expected("SET, ADD or REMOVE");
            }
        } while (!atStatementEnd());
        return statement;
    }

    void parseRunsLimit(AlterProjectStatement& statement) {
        if (statement.maxConcurrentRunsLimit)
            fail("MAX_CONCURRENT_RUNS_LIMIT is given more than once", m_token);
        advance();
        expectSymbol(TokenKind::Equals, "'='");
        statement.maxConcurrentRunsLimit = expectNumber();
    }

    std::string_view m_text;
    StatementLexer m_lexer;
    Token m_token;
    Token m_previous; // kind and place only: named in "expected ... after <it>" when that happens
};

} // namespace

bool isStatementKeyword(std::string_view word) {
    return std::any_of(kKeywords.begin(), kKeywords.end(),
                       [&](std::string_view keyword) { return equalsIgnoringAsciiCase(word, keyword); });
}

ParseResult parseStatement(std::string_view text) {
    try {
        StatementParser parser(text);
        return ParseResult{parser.parse(), std::nullopt};
    } catch (const Failure& failure) {
        return ParseResult{std::nullopt, failure.error};
    }
}

} // namespace jobdeck
