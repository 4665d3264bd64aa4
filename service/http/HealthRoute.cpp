#include "service/http/HealthRoute.h"

#include "core/wire/DatabaseFaults.h"
#include "core/wire/HttpMessages.h"
#include "service/stores/Stores.h"

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

namespace jobdeck {

struct HealthRoute::State {
    struct Waiter {
        Responder respond;
        Clock::time_point asked;
    };
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::uint64_t nextId = 0;
    std::map<std::uint64_t, Waiter> waiters;
    std::optional<Clock::time_point> probingSince;        // a probe under way, since then
    std::optional<std::string> lastReason = std::nullopt; // what the last probe found (nullopt: fine)
};

namespace {

HttpResponse healthAnswer(const std::optional<std::string>& reason) {
    if (reason)
        return HttpResponse::error(503, *reason);
    return HttpResponse::json(nlohmann::json{{"status", "ok"}, {"version", JOBDECK_VERSION}}.dump());
}

} // namespace

HealthRoute::HealthRoute(HttpServer& server, Stores& stores)
    : m_server(server)
    , m_stores(stores)
    , m_state(std::make_shared<State>()) {
    m_prober = std::thread([this] { probeLoop(); });
}

HealthRoute::~HealthRoute() {
    {
        const std::lock_guard lock(m_state->mutex);
        m_state->stopping = true;
    }
    m_state->wake.notify_all();
    m_prober.join();
}

void HealthRoute::registerRoute() {
    m_server.addRoute(
        "GET", "/v1/health",
        [this](const HttpRequest& request, const Responder& respond) {
            if (request.path != "/v1/health") {
                respond(HttpResponse::error(404, pathNotFoundMessage(request.path)));
                return;
            }
            std::uint64_t id = 0;
            {
                const std::lock_guard lock(m_state->mutex);
                id = m_state->nextId++;
                m_state->waiters.emplace(id, State::Waiter{respond, Clock::now()});
            }
            m_state->wake.notify_all();
            auto timer = std::make_shared<boost::asio::steady_timer>(m_server.ioContext(), kAnswerWithin);
            timer->async_wait([state = m_state, id, timer](const boost::system::error_code&) {
                answerFromKnowledge(state, id);
            });
        },
        RoutePlacement::IoThread);
}

void HealthRoute::answerFromKnowledge(const std::shared_ptr<State>& state, std::uint64_t id) {
    std::unique_lock lock(state->mutex);
    const auto found = state->waiters.find(id);
    if (found == state->waiters.end())
        return; // the probe answered it
    const Responder respond = std::move(found->second.respond);
    state->waiters.erase(found);
    const auto since = state->probingSince.value_or(Clock::now());
    lock.unlock();
    const auto waited = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - since);
    const std::string message = databaseNotAnsweringMessage(waited);
    spdlog::warn("health: {}", message);
    respond(HttpResponse::error(503, message));
}

void HealthRoute::probeLoop() {
    std::unique_lock lock(m_state->mutex);
    while (!m_state->stopping) {
        m_state->wake.wait_for(lock, kProbeInterval,
                               [this] { return m_state->stopping || !m_state->waiters.empty(); });
        if (m_state->stopping)
            return;
        const Clock::time_point started = Clock::now();
        m_state->probingSince = started;
        lock.unlock();
        std::optional<std::string> reason;
        try {
            reason = m_stores.unavailableReason();
        } catch (const std::exception& e) {
            reason = databaseNoAnswerReason(e.what());
        }
        if (reason)
            reason = databaseUnavailableMessage(*reason);
        lock.lock();
        m_state->probingSince.reset();
        if (reason != m_state->lastReason)
            reason ? spdlog::warn("health: {}", *reason) : spdlog::info("health: the database answers again");
        m_state->lastReason = reason;
        // Requests that came while the probe was under way wait for the next one, which saw them.
        std::vector<Responder> answered;
        for (auto it = m_state->waiters.begin(); it != m_state->waiters.end();)
            if (it->second.asked <= started) {
                answered.push_back(std::move(it->second.respond));
                it = m_state->waiters.erase(it);
            } else {
                ++it;
            }
        lock.unlock();
        for (const auto& respond : answered)
            respond(healthAnswer(reason));
        lock.lock();
    }
}

} // namespace jobdeck
