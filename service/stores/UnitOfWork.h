#pragma once

#include "service/stores/DatabaseError.h"

#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace jobdeck {

// While it lives, this thread's reads through the stores share one snapshot (see UnitOfWork::snapshot).
class ReadSnapshot {
public:
    virtual ~ReadSnapshot() = default;
};

// How writes to several stores become one atomic, durable step (a change, its event, its audit entry and
// its request's status), and how reads share one snapshot. Each backend implements it over its
// connections; every store of that backend joins the step that is under way on the calling thread.
class UnitOfWork {
public:
    virtual ~UnitOfWork() = default;

    // Runs `work` so that what the stores write inside it is committed together, durably, when it
    // returns, or not at all when it throws (rethrown). Inside another on the same thread it joins
    // that one. Returns what `work` returns.
    template <class Work> auto run(Work&& work) -> std::invoke_result_t<Work&> {
        using Result = std::invoke_result_t<Work&>;
        if constexpr (std::is_void_v<Result>) {
            runAtomically([&] { work(); });
        } else {
            std::optional<Result> result;
            runAtomically([&] { result.emplace(work()); });
            return std::move(*result);
        }
    }

    // run(), and once more when the step fails on a constraint (DatabaseError::isConstraintViolation):
    // where steps run at once, a decision made on what a step read as free (a name, an Idempotency-Key)
    // can lose to another step's insert, and made again it sees what that step committed. A second
    // failure is rethrown.
    template <class Work> auto runDecidingAgainOnConflict(Work&& work) -> std::invoke_result_t<Work&> {
        try {
            return run(work);
        } catch (const DatabaseError& e) {
            if (!e.isConstraintViolation())
                throw;
        }
        return run(work);
    }

    // While the returned object lives, this thread's reads see one snapshot. Inside run() it does
    // nothing (reads there see what the step wrote so far).
    [[nodiscard]] virtual std::unique_ptr<ReadSnapshot> snapshot() = 0;

    // True on the thread that is inside run().
    virtual bool inStepOnThisThread() const = 0;
    // Whether steps on different threads run at once, each holding only the rows it reads to decide
    // (PostgreSQL), rather than one after the other behind one writer (SQLite). Group commit pays off
    // only behind one writer.
    virtual bool stepsRunConcurrently() const { return false; }
    // Inside run() on this thread: `action` runs when the outermost run() ends, with true when it
    // committed and false when it rolled back (what a step took out of memory goes back then).
    // Actions run in the reverse order of their registration and must not throw.
    virtual void onStepEnd(std::function<void(bool committed)> action) = 0;

protected:
    virtual void runAtomically(const std::function<void()>& work) = 0;
};

} // namespace jobdeck
