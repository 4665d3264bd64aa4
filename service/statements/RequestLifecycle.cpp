#include "service/statements/RequestLifecycle.h"

#include "core/policy/IdempotencyKey.h"
#include "core/statements/StatementRefusals.h"
#include "core/text/Utf8.h"
#include "core/wire/DatabaseFaults.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/DatabaseFaultError.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <utility>

namespace jobdeck {

namespace {

using Answer = RequestLifecycle::Answer;

Answer requestIdAnswer(const std::string& requestId) {
    Answer answer;
    answer.kind = Answer::Kind::RequestId;
    answer.requestId = requestId;
    return answer;
}

// A POST's status: `requestId` is written into it.
Answer statusAnswer(StatusJson status, const std::string& requestId,
                    std::optional<std::chrono::seconds> wait) {
    Answer answer;
    answer.status = std::move(status);
    answer.requestId = requestId;
    answer.waitApplied = wait;
    return answer;
}

Answer refusal(Answer::Kind kind, std::string message) {
    Answer answer;
    answer.kind = kind;
    answer.message = std::move(message);
    return answer;
}

// A request whose id could not be put on disk: the client gets no id that a restart would forget. A
// group commit's callback knows only that the write failed: a full disk or a timeout just seen is why.
Answer notRecorded(DatabaseFault fault = DatabaseFaultError::recentFault()) {
    return refusal(Answer::Kind::Unavailable, requestNotRecordedMessage(fault));
}

} // namespace

RequestLifecycle::RequestLifecycle(StatementExecutor& executor, RequestRegistry& registry,
                                   boost::asio::thread_pool& workers, bool (*onIoThread)(),
                                   unsigned statementThreads, std::chrono::seconds statusHold)
    : m_executor(executor)
    , m_registry(registry)
    , m_workers(workers)
    , m_onIoThread(onIoThread)
    , m_statusHold(statusHold)
    , m_statementRunners(std::max(1U, statementThreads)) {}

RequestLifecycle::~RequestLifecycle() {
    stop();
}

void RequestLifecycle::stop() {
    m_statementRunners.join();
}

void RequestLifecycle::offIoThread(std::function<void()> work) {
    if (m_onIoThread())
        boost::asio::post(m_workers, std::move(work));
    else
        work();
}

void RequestLifecycle::submit(RequestContext context, std::string statement,
                              std::optional<std::chrono::seconds> wait, Respond respond) {
    if (wait && m_executor.isQuickRead(statement)) {
        answerAtOnce(context, statement, *wait, respond);
        return;
    }
    // Registered before its key is claimed, so a repeat that finds the claim finds the request too.
    context.requestId = m_registry.begin(context.principal.projectUid);
    // Claiming a key writes to the database: never on an IO thread, which a stalled database would hold.
    offIoThread([this, context = std::move(context), statement = std::move(statement), wait,
                 respond = std::move(respond)]() mutable { claimAndRun(context, statement, wait, respond); });
}

void RequestLifecycle::answerAtOnce(RequestContext& context, const std::string& statement,
                                    std::chrono::seconds wait, const Respond& respond) {
    // Answered where it runs, with no hand-off; the status is recorded before the answer leaves.
    // Nobody has the id before that, so it is never PENDING in the registry.
    context.requestId = RequestRegistry::newId();
    Outcome outcome = execute(context, statement);
    Answer answer = statusAnswer(outcome.status, context.requestId, wait);
    m_registry.finish(context.principal.projectUid, context.requestId, outcome.status, outcome.stored);
    respond(std::move(answer));
}

void RequestLifecycle::claimAndRun(RequestContext& context, const std::string& statement,
                                   std::optional<std::chrono::seconds> wait, const Respond& respond) {
    try {
        if (context.idempotencyKey && answeredAsRepeat(context, statement, wait, respond))
            return;
    } catch (const std::exception& e) {
        // The key could not be claimed: nothing runs, and nobody has the request's id.
        spdlog::error("could not claim the Idempotency-Key of request {}: {}", context.requestId, e.what());
        m_registry.abandon(context.principal.projectUid, context.requestId);
        respond(notRecorded(DatabaseFaultError::faultOf(e)));
        return;
    }
    if (wait)
        runWithin(context, statement, *wait, respond);
    else
        acknowledgeThenRun(context, statement, respond);
}

bool RequestLifecycle::answeredAsRepeat(RequestContext& context, const std::string& statement,
                                        std::optional<std::chrono::seconds> wait, const Respond& respond) {
    const auto claim = m_executor.claimIdempotencyKey(context, statement);
    using Kind = RepeatedWrites::Claim::Kind;
    if (claim.kind == Kind::First)
        return false;
    m_registry.abandon(context.principal.projectUid, context.requestId); // nobody was given its id
    if (claim.kind == Kind::Conflict) {
        respond(refusal(Answer::Kind::Conflict, RepeatedWrites::conflictMessage(*context.idempotencyKey)));
        return true;
    }
    // Reading the first answer may commit queued writes (a worker's).
    boost::asio::post(m_workers, [this, projectUid = context.principal.projectUid,
                                  requestId = claim.requestId, wait, respond] {
        try {
            answerFirst(projectUid, requestId, wait, respond);
        } catch (const std::exception& e) {
            spdlog::error("could not answer a repeated write: {}", e.what());
            respond(refusal(Answer::Kind::Unavailable, firstAnswerUnreadableMessage()));
        }
    });
    return true;
}

void RequestLifecycle::answerFirst(const std::string& projectUid, const std::string& requestId,
                                   std::optional<std::chrono::seconds> wait, const Respond& respond) {
    if (!wait) {
        m_registry.acknowledge(projectUid, requestId, RequestRegistry::Durability::Durable);
        respond(requestIdAnswer(requestId));
        return;
    }
    m_registry.waitFor(
        projectUid, requestId, *wait, [this, projectUid, requestId, wait, respond](StatusJson status) {
            if (status.isFinal()) {
                respond(statusAnswer(std::move(status), requestId, wait));
                return;
            }
            boost::asio::post(m_workers, [this, projectUid, requestId, wait, respond, status] {
                m_registry.acknowledge(projectUid, requestId, RequestRegistry::Durability::Durable);
                respond(statusAnswer(status, requestId, wait));
            });
        });
}

void RequestLifecycle::acknowledgeThenRun(const RequestContext& context, const std::string& statement,
                                          const Respond& respond) {
    const std::string& requestId = context.requestId;
    const std::string& projectUid = context.principal.projectUid;
    // The id is handed out only once it is on disk, so that it is answered after any restart.
    try {
        m_registry.acknowledge(projectUid, requestId, ackDurability(statement),
                               [respond, requestId](bool recorded) {
                                   respond(recorded ? requestIdAnswer(requestId) : notRecorded());
                               });
    } catch (const std::exception& e) {
        // A write's PENDING row could not be committed: it does not run, and nobody has its id.
        spdlog::error("could not record request {}: {}", requestId, e.what());
        respond(notRecorded(DatabaseFaultError::faultOf(e)));
        m_registry.finish(projectUid, requestId, StatusJson(ApiStatus::failed(requestNotRecordedMessage())),
                          RequestRegistry::Stored::OnlyIfAcknowledged);
        return;
    }
    runOnStatementThread(context, statement);
}

void RequestLifecycle::runWithin(const RequestContext& context, const std::string& statement,
                                 std::chrono::seconds wait, const Respond& respond) {
    m_registry.waitFor(context.principal.projectUid, context.requestId, wait,
                       [this, respond, projectUid = context.principal.projectUid,
                        requestId = context.requestId, wait, statement](const StatusJson& status) {
                           if (status.isFinal()) {
                               respond(statusAnswer(status, requestId, wait));
                               return;
                           }
                           // The wait ran out (on a timer thread): record the id off the IO threads.
                           boost::asio::post(
                               m_workers, [this, projectUid, requestId, statement, status, wait, respond] {
                                   answerPending(projectUid, requestId, statement, status, wait, respond);
                               });
                       });
    runOnStatementThread(context, statement);
}

void RequestLifecycle::answerPending(const std::string& projectUid, const std::string& requestId,
                                     const std::string& statement, const StatusJson& pending,
                                     std::chrono::seconds wait, const Respond& respond) {
    try {
        m_registry.acknowledge(projectUid, requestId, ackDurability(statement),
                               [respond, requestId, pending, wait](bool recorded) {
                                   respond(recorded ? statusAnswer(pending, requestId, wait) : notRecorded());
                               });
    } catch (const std::exception& e) {
        spdlog::error("could not record pending request {}: {}", requestId, e.what());
        respond(notRecorded());
    }
}

RequestLifecycle::Outcome RequestLifecycle::execute(const RequestContext& context,
                                                    const std::string& statement) {
    Outcome outcome;
    try {
        StatementExecutor::StatusRecord record = StatementExecutor::StatusRecord::Committed;
        outcome.status = m_executor.execute(context, statement, &record);
        if (record == StatementExecutor::StatusRecord::NotStored)
            outcome.stored = RequestRegistry::Stored::OnlyIfAcknowledged;
    } catch (const std::exception& e) {
        spdlog::error("request {} failed unexpectedly: {}", context.requestId, e.what());
        outcome.status = StatusJson(ApiStatus::failed(internalErrorMessage()));
        outcome.stored = RequestRegistry::Stored::No;
    }
    return outcome;
}

void RequestLifecycle::run(const RequestContext& context, const std::string& statement) {
    Outcome outcome = execute(context, statement);
    m_registry.finish(context.principal.projectUid, context.requestId, outcome.status, outcome.stored);
}

void RequestLifecycle::runOnStatementThread(const RequestContext& context, const std::string& statement) {
    boost::asio::post(m_statementRunners, [this, context, statement] { run(context, statement); });
}

RequestRegistry::Durability RequestLifecycle::ackDurability(std::string_view statement) {
    // Only a read's PENDING acknowledgement may wait for the next group commit: it changes nothing.
    return m_executor.isReadStatement(statement) ? RequestRegistry::Durability::Deferred
                                                 : RequestRegistry::Durability::Durable;
}

void RequestLifecycle::poll(const std::string& projectUid, std::string requestId,
                            std::optional<std::chrono::seconds> wait, Respond respond) {
    if (requestId.empty() || requestId.find('/') != std::string::npos || !isQueryableText(requestId)) {
        respond(refusal(Answer::Kind::NotFound, m_registry.notFoundMessage()));
        return;
    }
    const std::chrono::seconds hold = wait.value_or(m_statusHold);
    if (const auto status = m_registry.findQuickly(projectUid, requestId)) {
        if (status->isFinal() || hold.count() == 0)
            respond(statusAnswer(*status, {}, wait));
        else
            holdPending(projectUid, requestId, hold, wait, respond);
        return;
    }
    // Unknown, PENDING in the database or still queued: looked up again after committing the
    // queued statuses (an fsync), on a worker.
    offIoThread(
        [this, projectUid, requestId = std::move(requestId), hold, wait, respond = std::move(respond)] {
            const auto status = m_registry.find(projectUid, requestId);
            if (!status)
                respond(refusal(Answer::Kind::NotFound, m_registry.notFoundMessage()));
            else if (!status->isFinal() && hold.count() > 0)
                holdPending(projectUid, requestId, hold, wait, respond);
            else
                respond(statusAnswer(*status, {}, wait));
        });
}

void RequestLifecycle::holdPending(const std::string& projectUid, const std::string& requestId,
                                   std::chrono::seconds hold, std::optional<std::chrono::seconds> wait,
                                   const Respond& respond) {
    // Answered from the thread that finishes the request, or from the timer's: no thread waits.
    m_registry.waitFor(projectUid, requestId, hold, [respond, wait](StatusJson status) {
        respond(statusAnswer(std::move(status), {}, wait));
    });
}

} // namespace jobdeck
