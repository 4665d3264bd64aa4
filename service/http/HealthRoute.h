#pragma once

#include "service/http/HttpServer.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace jobdeck {

class Stores;

// GET /v1/health: whether the database answers, from a prober thread of its own, so that a database
// that stalls (a frozen server, a lock held elsewhere) holds up no request thread. A request asks for
// a fresh probe and is answered by it; when that probe has not answered within kAnswerWithin, the
// request is answered 503 at once with how long the database has not answered. Between requests the
// prober looks every kProbeInterval, so the log says when the database stops or starts answering.
class HealthRoute final {
public:
    static constexpr std::chrono::seconds kAnswerWithin{3};
    static constexpr std::chrono::seconds kProbeInterval{10};

    HealthRoute(HttpServer& server, Stores& stores);
    ~HealthRoute(); // stops the prober (after its probe under way, which the database timeouts bound)
    HealthRoute(const HealthRoute&) = delete;
    HealthRoute& operator=(const HealthRoute&) = delete;

    void registerRoute();

private:
    struct State;
    using Clock = std::chrono::steady_clock;

    void probeLoop();
    // Answers the request `id` from what is known now, if the prober has not answered it yet.
    static void answerFromKnowledge(const std::shared_ptr<State>& state, std::uint64_t id);

    HttpServer& m_server;
    Stores& m_stores;
    std::shared_ptr<State> m_state; // shared with the answer timers, which may outlive this object
    std::thread m_prober;
};

} // namespace jobdeck
