#pragma once

#include "service/runs/RequestContext.h"
#include "service/statements/RequestRegistry.h"
#include "service/stores/StatusJson.h"

#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

class StatementExecutor;

// A request of the statement API (CONTRACT §1) from its id to its answer: the one owner of the order in
// which a submitted statement is given an id, has its Idempotency-Key checked, is recorded as PENDING
// when its client is told the id before the status, runs and has its final status recorded; and of
// how a poll of a request id is answered. The HTTP routes read the request and write the Answer; nothing
// here knows HTTP.
//
// Threads: submit() and poll() may be called on an IO thread, which must never wait for the database:
// only a quick read (StatementExecutor::isQuickRead, with a wait) and a status already in memory or
// final in the database are answered there; the rest goes to `workers`, and the statements themselves
// to threads of their own. A wait or a hold is a timer of RequestRegistry::waitFor, never a thread.
class RequestLifecycle final {
public:
    // What the client is told, said once per request.
    struct Answer {
        enum class Kind {
            RequestId,   // the request's id, on disk so that a restart still answers it
            Status,      // a status: with `requestId`, a POST's, which writes the id into it
            Conflict,    // the Idempotency-Key came with another statement (`message`)
            NotFound,    // no such request for the project, or its status expired (`message`)
            Unavailable, // the request could not be recorded, or a repeat's first answer read (`message`)
        };
        Kind kind = Kind::Status;
        std::string requestId;
        StatusJson status;
        std::optional<std::chrono::seconds> waitApplied; // the client's `Prefer: wait` that was honoured
        std::string message;
    };
    // Called exactly once, from any thread.
    using Respond = std::function<void(Answer)>;

    // `workers`: where requests are taken in (their keys claimed, their ids recorded, polls answered);
    // `onIoThread` tells whether the calling thread is one that must not wait for the database.
    // Statements run on `statementThreads` threads of their own, so that statements waiting for a row
    // lock never hold up taking in and answering other requests.
    // `statusHold`: how long a poll without a wait of its own holds a PENDING request for its final status.
    RequestLifecycle(StatementExecutor& executor, RequestRegistry& registry,
                     boost::asio::thread_pool& workers, bool (*onIoThread)(), unsigned statementThreads,
                     std::chrono::seconds statusHold);
    ~RequestLifecycle();
    // Waits for the statements under way to end; none is taken after.
    void stop();
    RequestLifecycle(const RequestLifecycle&) = delete;
    RequestLifecycle& operator=(const RequestLifecycle&) = delete;

    // Runs `statement` for `context` (authenticated; its Idempotency-Key and audited headers set). With
    // `wait`, the answer is the final status, or PENDING once `wait` ran out; without, the request id.
    void submit(RequestContext context, std::string statement, std::optional<std::chrono::seconds> wait,
                Respond respond);
    // The status of the project's request `requestId`, held while PENDING for `wait` (the poll's own
    // `Prefer: wait`, then said to be applied) or else the status hold.
    void poll(const std::string& projectUid, std::string requestId, std::optional<std::chrono::seconds> wait,
              Respond respond);

private:
    struct Outcome {
        StatusJson status;
        RequestRegistry::Stored stored = RequestRegistry::Stored::Yes;
    };
    void answerAtOnce(RequestContext& context, const std::string& statement, std::chrono::seconds wait,
                      const Respond& respond);
    // On a worker: the Idempotency-Key claimed, then the statement handed to a statement thread.
    void claimAndRun(RequestContext& context, const std::string& statement,
                     std::optional<std::chrono::seconds> wait, const Respond& respond);
    // A write other than RUN JOB whose Idempotency-Key was seen within RepeatedWrites::kWindow: answered
    // with the first request's id and status (or Conflict when the key came with another statement), and
    // true. Otherwise false (context.writeKeyHash set for a first write with a key).
    bool answeredAsRepeat(RequestContext& context, const std::string& statement,
                          std::optional<std::chrono::seconds> wait, const Respond& respond);
    // The first request's answer to a repeat, as it would be polled.
    void answerFirst(const std::string& projectUid, const std::string& requestId,
                     std::optional<std::chrono::seconds> wait, const Respond& respond);
    // Without a wait: the id recorded and answered, then the statement run.
    void acknowledgeThenRun(const RequestContext& context, const std::string& statement,
                            const Respond& respond);
    // With a wait: the statement run and answered when final, or its id recorded and PENDING answered
    // when the wait runs out first.
    void runWithin(const RequestContext& context, const std::string& statement, std::chrono::seconds wait,
                   const Respond& respond);
    // On a worker, after the wait ran out: PENDING answered once the id is on disk.
    void answerPending(const std::string& projectUid, const std::string& requestId,
                       const std::string& statement, const StatusJson& pending, std::chrono::seconds wait,
                       const Respond& respond);
    // Never throws: an unexpected failure becomes a FAILED status that is not stored.
    Outcome execute(const RequestContext& context, const std::string& statement);
    // execute() and record the final status.
    void run(const RequestContext& context, const std::string& statement);
    // run() on a statement thread.
    void runOnStatementThread(const RequestContext& context, const std::string& statement);
    RequestRegistry::Durability ackDurability(std::string_view statement);
    // Answers the request's status once it is final, or PENDING after `hold`.
    void holdPending(const std::string& projectUid, const std::string& requestId, std::chrono::seconds hold,
                     std::optional<std::chrono::seconds> wait, const Respond& respond);
    // Runs `work` on a worker when the caller is on an IO thread, else at once.
    void offIoThread(std::function<void()> work);

    StatementExecutor& m_executor;
    RequestRegistry& m_registry;
    boost::asio::thread_pool& m_workers;
    bool (*const m_onIoThread)();
    const std::chrono::seconds m_statusHold;
    // The statements, apart from the workers: statements waiting for a row lock may hold all of these
    // (a replica paused in the middle of a step holds the row), and a client still gets PENDING when its
    // wait ran out (CONTRACT §1), and its polls answered, from the workers.
    boost::asio::thread_pool m_statementRunners;
};

} // namespace jobdeck
