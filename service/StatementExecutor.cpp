#include "service/StatementExecutor.h"

#include "core/AuditEntry.h"
#include "core/ProjectEvent.h"
#include "core/RolePolicy.h"
#include "core/SecretMasking.h"
#include "core/StatementParser.h"
#include "core/StatementPrinter.h"
#include "service/EventBus.h"
#include "service/RunStatements.h"
#include "service/Storage.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <type_traits>

namespace jobdeck {

namespace {

// Set by recordJobEvent on the executing thread, so execute() knows to wake the event waiters after commit.
thread_local bool t_eventsRecorded = false;

bool isRunStatement(const Statement& s) {
    return std::holds_alternative<RunJobStatement>(s) || std::holds_alternative<DescribeJobRunStatement>(s) ||
           std::holds_alternative<CancelJobRunStatement>(s) ||
           std::holds_alternative<ShowJobRunsStatement>(s);
}

// Masks inside single-quoted strings of text that did not parse: a 'key=value' whose key is secret keeps
// its key, and the string following a quoted secret key ('--password', 'x' or 'db.password' = 'x') is
// masked whole. Then bare key=value outside quotes. Errs on the side of masking. The values it hid are
// added to `secrets`.
std::string maskUnparsedText(std::string_view text, std::vector<std::string>& secrets) {
    std::string out;
    out.reserve(text.size());
    bool maskNextString = false;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] != '\'') {
            // Outside quotes: a bare word=value with a secret word loses its value.
            if (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '-' ||
                text[i] == '.') {
                std::size_t end = i;
                while (end < text.size() && text[end] != '\'' && text[end] != '=' &&
                       !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != ',' &&
                       text[end] != '(' && text[end] != ')')
                    ++end;
                const std::string_view word = text.substr(i, end - i);
                out += word;
                i = end;
                if (i < text.size() && text[i] == '=' && isSecretKey(word)) {
                    out += '=';
                    ++i;
                    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
                        out += text[i++];
                    if (i < text.size() && text[i] != '\'') {
                        const std::size_t valueStart = i;
                        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
                               text[i] != ',' && text[i] != ')')
                            ++i;
                        secrets.emplace_back(text.substr(valueStart, i - valueStart));
                        out += kMask;
                    } else {
                        maskNextString = true;
                    }
                }
                continue;
            }
            out += text[i++];
            continue;
        }
        // A quoted string: '' inside is an escaped quote; an unterminated one runs to the end.
        std::string content;
        std::size_t j = i + 1;
        while (j < text.size()) {
            if (text[j] == '\'') {
                if (j + 1 < text.size() && text[j + 1] == '\'') {
                    content += '\'';
                    j += 2;
                    continue;
                }
                break;
            }
            content += text[j++];
        }
        const bool terminated = j < text.size();
        std::string masked;
        if (maskNextString) {
            masked = std::string(kMask);
            secrets.push_back(content);
            maskNextString = false;
        } else if (const auto eq = content.find('=');
                   eq != std::string::npos && isSecretKey(content.substr(0, eq))) {
            masked = content.substr(0, eq + 1) + std::string(kMask);
            secrets.push_back(content.substr(eq + 1));
        } else {
            masked = content;
            maskNextString = isSecretKey(content) && !content.empty();
        }
        out += '\'';
        for (const char c : masked) {
            out += c;
            if (c == '\'')
                out += '\'';
        }
        if (terminated)
            out += '\'';
        i = terminated ? j + 1 : text.size();
    }
    return out;
}

// What masking hid from a list: the tail of each token that masking replaced by ****.
void collectMasked(const std::vector<std::string>& original, const std::vector<std::string>& masked,
                   std::vector<std::string>& secrets) {
    for (std::size_t i = 0; i < original.size() && i < masked.size(); ++i)
        if (original[i] != masked[i] && masked[i].size() >= kMask.size())
            secrets.push_back(
                original[i].substr(std::min(original[i].size(), masked[i].size() - kMask.size())));
}

void maskPairsCollecting(std::vector<std::pair<std::string, std::string>>& pairs,
                         std::vector<std::string>& secrets) {
    const auto original = pairs;
    maskPairs(pairs);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].second != original[i].second)
            secrets.push_back(original[i].second);
}

// The statement with its secret values masked; the values it hid are added to `secrets`.
Statement maskStatement(Statement statement, std::vector<std::string>& secrets) {
    std::visit(
        [&](auto& s) {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, CreateJobStatement>) {
                auto masked = maskParameters(s.parameters);
                collectMasked(s.parameters, masked, secrets);
                s.parameters = std::move(masked);
            } else if constexpr (std::is_same_v<T, AlterJobStatement>) {
                if (s.parameters) {
                    auto masked = maskParameters(*s.parameters);
                    collectMasked(*s.parameters, masked, secrets);
                    s.parameters = std::move(masked);
                }
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

// The text the audit log and the logs show, and the secret values it hides (so that messages quoting
// the statement, such as a parse error naming a token, can be scrubbed of them too).
struct MaskedStatement {
    std::string text;
    std::vector<std::string> secrets;
};

MaskedStatement maskedText(const ParseResult& parsed, std::string_view text) {
    MaskedStatement result;
    if (parsed.statement)
        result.text = printStatement(maskStatement(*parsed.statement, result.secrets));
    else
        result.text = maskUnparsedText(text, result.secrets);
    // Longest first, so a secret that contains another is replaced whole.
    std::erase_if(result.secrets,
                  [](const std::string& secret) { return secret.empty() || secret == kMask; });
    std::sort(result.secrets.begin(), result.secrets.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    return result;
}

void scrub(ApiStatus& status, const std::vector<std::string>& secrets) {
    if (!status.errorMessage)
        return;
    std::string& message = *status.errorMessage;
    for (const auto& secret : secrets)
        for (auto at = message.find(secret); at != std::string::npos;
             at = message.find(secret, at + kMask.size()))
            message.replace(at, secret.size(), kMask);
}

} // namespace

StatementExecutor::StatementExecutor(Storage& storage, EventBus& events)
    : m_storage(storage)
    , m_events(events) {}

void StatementExecutor::setRunStatements(RunStatements* runs) {
    m_runs.store(runs);
}

bool StatementExecutor::isReadStatement(const Statement& s) {
    return std::holds_alternative<DescribeJobStatement>(s) || std::holds_alternative<ShowJobsStatement>(s) ||
           std::holds_alternative<DescribeClusterStatement>(s) ||
           std::holds_alternative<ShowClustersStatement>(s) ||
           std::holds_alternative<DescribeProjectStatement>(s) ||
           std::holds_alternative<ShowAuditLogStatement>(s) ||
           std::holds_alternative<DescribeJobRunStatement>(s) ||
           std::holds_alternative<ShowJobRunsStatement>(s);
}

// A statement's parse and its masked text depend on its text alone.
struct StatementExecutor::Prepared {
    ParseResult parsed;
    MaskedStatement masked;
};

bool StatementExecutor::isReadStatement(std::string_view statementText) {
    const auto prepared = prepare(statementText);
    return prepared->parsed.statement && isReadStatement(*prepared->parsed.statement);
}

bool StatementExecutor::isQuickRead(std::string_view statementText) {
    const auto prepared = prepare(statementText);
    return prepared->parsed.statement &&
           (std::holds_alternative<DescribeJobStatement>(*prepared->parsed.statement) ||
            std::holds_alternative<DescribeClusterStatement>(*prepared->parsed.statement));
}

std::string StatementExecutor::maskStatementText(std::string_view statementText) {
    return maskedText(parseStatement(statementText), statementText).text;
}

std::shared_ptr<const StatementExecutor::Prepared>
StatementExecutor::prepare(std::string_view statementText) {
    {
        const std::lock_guard lock(m_cacheMutex);
        if (const auto it = m_prepared.find(statementText); it != m_prepared.end())
            return it->second;
    }
    auto prepared = std::make_shared<Prepared>();
    prepared->parsed = parseStatement(statementText);
    prepared->masked = maskedText(prepared->parsed, statementText);
    // Reads come back with the same text again and again; writes rarely do, and may be large.
    if (prepared->parsed.statement && isReadStatement(*prepared->parsed.statement) &&
        statementText.size() <= kPreparedTextLimit) {
        const std::lock_guard lock(m_cacheMutex);
        if (m_prepared.size() >= kPreparedLimit)
            m_prepared.clear();
        m_prepared.emplace(std::string(statementText), prepared);
    }
    return prepared;
}

StatusJson StatementExecutor::execute(const RequestContext& context, std::string_view statementText,
                                      StatusRecord* record) {
    if (record)
        *record = StatusRecord::Committed;
    const auto prepared = prepare(statementText);
    const ParseResult& parsed = prepared->parsed;
    const MaskedStatement& masked = prepared->masked;
    const std::string& auditText = masked.text;
    ApiStatus status;
    if (!parsed.statement) {
        status =
            ApiStatus::invalid(parsed.error ? parsed.error->message : "The statement could not be parsed");
    } else if (auto denied = RolePolicy::refusal(context.principal.role, *parsed.statement)) {
        status = ApiStatus::failed(std::move(*denied));
    } else if (isReadStatement(*parsed.statement)) {
        // Nothing changed, so nothing needs to be on disk before the answer.
        if (record)
            *record = StatusRecord::NotStored;
        StatusJson answer;
        if (const auto* describe = std::get_if<DescribeJobStatement>(&*parsed.statement)) {
            answer = describeJobCached(context, *describe, auditText);
        } else if (std::holds_alternative<ShowJobsStatement>(*parsed.statement)) {
            try {
                const Storage::ReadScope snapshot(m_storage);
                answer = showJobs(context); // names no secret of the statement: nothing to scrub
            } catch (const std::exception& e) {
                spdlog::error("Statement failed: {}: {}", auditText, e.what());
                answer = StatusJson(ApiStatus::failed(std::string("Internal error: ") + e.what()));
            }
        } else {
            try {
                const Storage::ReadScope snapshot(m_storage);
                status = dispatchGuarded(context, *parsed.statement, auditText);
            } catch (const std::exception& e) {
                spdlog::error("Statement failed: {}: {}", auditText, e.what());
                status = ApiStatus::failed(std::string("Internal error: ") + e.what());
            }
            scrub(status, masked.secrets);
            answer = StatusJson(status);
        }
        try {
            writeAudit(context, auditText, answer, Durability::Deferred);
        } catch (const std::exception& e) {
            spdlog::error("Could not queue the audit entry for request {}: {}", context.requestId, e.what());
        }
        return answer;
    } else if (isRunStatement(*parsed.statement)) {
        // The run manager keeps its own transactions (and may start processes): not inside ours.
        status = dispatchGuarded(context, *parsed.statement, auditText);
    } else {
        // The change, its events, its audit entry and its status commit together: one durable write.
        try {
            t_eventsRecorded = false;
            StatusJson answer = m_storage.database().transaction([&] {
                ApiStatus result = dispatch(context, *parsed.statement);
                scrub(result, masked.secrets);
                StatusJson committed(result);
                writeAudit(context, auditText, committed, Durability::Durable);
                return committed;
            });
            if (t_eventsRecorded)
                m_events.wake(context.principal.projectUid);
            return answer;
        } catch (const std::exception& e) {
            spdlog::error("Statement failed: {}: {}", auditText, e.what());
            status = ApiStatus::failed(std::string("Internal error: ") + e.what());
        }
    }
    scrub(status, masked.secrets);
    StatusJson answer(status);
    try {
        m_storage.database().transaction(
            [&] { writeAudit(context, auditText, answer, Durability::Durable); });
    } catch (const std::exception& e) {
        spdlog::error("Could not write the audit entry for request {}: {}", context.requestId, e.what());
    }
    return answer;
}

StatusJson StatementExecutor::describeJobCached(const RequestContext& context,
                                                const DescribeJobStatement& statement,
                                                const std::string& auditText) {
    // The stamp is read before the job, so an entry is never older than the stamp it is kept under.
    // The one read when the request was authenticated will do: what was committed before is in it.
    const std::uint64_t stamp = context.changeStamp != 0 ? context.changeStamp : m_storage.changeStamp();
    // Built in a buffer of the thread's: a cached answer costs no allocation for its key.
    thread_local std::string key;
    key.assign(context.principal.projectUid);
    key += '\n';
    key += statement.name;
    {
        const std::lock_guard lock(m_cacheMutex);
        if (const auto it = m_describedJobs.find(key);
            it != m_describedJobs.end() && it->second.stamp == stamp)
            return it->second.answer;
    }
    ApiStatus status;
    try {
        const Storage::ReadScope snapshot(m_storage);
        status = describeJob(context, statement);
    } catch (const std::exception& e) {
        spdlog::error("Statement failed: {}: {}", auditText, e.what());
        return StatusJson(ApiStatus::failed(std::string("Internal error: ") + e.what()));
    }
    StatusJson answer(status);
    const std::lock_guard lock(m_cacheMutex);
    if (m_describedJobs.size() >= kDescribedJobLimit)
        m_describedJobs.clear();
    m_describedJobs.insert_or_assign(key, DescribedJob{stamp, answer});
    return answer;
}

ApiStatus StatementExecutor::dispatchGuarded(const RequestContext& context, const Statement& statement,
                                             const std::string& auditText) {
    try {
        return dispatch(context, statement);
    } catch (const std::exception& e) {
        spdlog::error("Statement failed: {}: {}", auditText, e.what());
        return ApiStatus::failed(std::string("Internal error: ") + e.what());
    }
}

ApiStatus StatementExecutor::dispatch(const RequestContext& context, const Statement& statement) {
    return std::visit(
        [&](const auto& s) -> ApiStatus {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, CreateJobStatement>)
                return createJob(context, s);
            else if constexpr (std::is_same_v<T, AlterJobStatement>)
                return alterJob(context, s);
            else if constexpr (std::is_same_v<T, DeleteJobStatement>)
                return deleteJob(context, s);
            else if constexpr (std::is_same_v<T, DescribeJobStatement>)
                return describeJob(context, s);
            else if constexpr (std::is_same_v<T, ShowJobsStatement>)
                throw std::logic_error("SHOW JOBS is answered as text by showJobs()");
            else if constexpr (std::is_same_v<T, CreateClusterStatement>)
                return createCluster(context, s);
            else if constexpr (std::is_same_v<T, AlterClusterStatement>)
                return alterCluster(context, s);
            else if constexpr (std::is_same_v<T, DeleteClusterStatement>)
                return deleteCluster(context, s);
            else if constexpr (std::is_same_v<T, DescribeClusterStatement>)
                return describeCluster(context, s);
            else if constexpr (std::is_same_v<T, ShowClustersStatement>)
                return showClusters(context);
            else if constexpr (std::is_same_v<T, DescribeProjectStatement>)
                return describeProject(context);
            else if constexpr (std::is_same_v<T, AlterProjectStatement>)
                return alterProject(context, s);
            else if constexpr (std::is_same_v<T, ShowAuditLogStatement>)
                return showAuditLog(context, s);
            else {
                RunStatements* runs = m_runs.load();
                if (!runs)
                    return ApiStatus::failed("Runs are not available on this service");
                if constexpr (std::is_same_v<T, RunJobStatement>)
                    return runs->runJob(context, s);
                else if constexpr (std::is_same_v<T, DescribeJobRunStatement>)
                    return runs->describeJobRun(context, s);
                else if constexpr (std::is_same_v<T, CancelJobRunStatement>)
                    return runs->cancelJobRun(context, s);
                else {
                    static_assert(std::is_same_v<T, ShowJobRunsStatement>);
                    return runs->showJobRuns(context, s);
                }
            }
        },
        statement);
}

void StatementExecutor::recordJobEvent(const RequestContext& context, std::string_view type,
                                       const std::string& jobName) {
    ProjectEvent event;
    event.type = std::string(type);
    event.jobName = jobName;
    event.at = timestampNow();
    m_storage.appendEvent(context.principal.projectUid, event);
    t_eventsRecorded = true;
}

void StatementExecutor::writeAudit(const RequestContext& context, std::string_view statementText,
                                   const StatusJson& status, Durability durability) {
    AuditEntry entry;
    entry.at = timestampNow();
    entry.projectUid = context.principal.projectUid;
    entry.keyId = context.principal.keyId;
    entry.role = std::string(roleName(context.principal.role));
    entry.statement = std::string(statementText);
    entry.outcome = status.apiStatus();
    entry.errorMessage = status.errorMessage();
    entry.requestId = context.requestId;
    entry.headers = context.clientHeaders;
    maskAudit(entry);
    if (durability == Durability::Deferred) {
        m_storage.deferAudit(std::move(entry));
        return;
    }
    m_storage.appendAudit(entry);
    if (!context.requestId.empty())
        m_storage.saveRequestStatus(context.principal.projectUid, context.requestId, status);
}

} // namespace jobdeck
