#include "actors/frames/frame_hub.hpp"

#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "actors/errors.hpp"

namespace troupe::actors {

namespace {

using clock_type = std::chrono::steady_clock;

// How often the panel's steps/s is refreshed, while someone watches.
constexpr auto rate_period = std::chrono::milliseconds(250);
// How long the metrics actor may take to answer for that rate.
constexpr auto totals_timeout = std::chrono::seconds(1);

struct watched_agent {
  agent_actor handle;  // null until the coordinator names it
  std::vector<caf::typed_response_promise<env_frame>> waiting;
  bool rendering = false;       // a render request is out
  bool tick_scheduled = false;  // it will be asked when the rate allows
  bool left = false;            // its agent left the run (a worker's that went away)
  clock_type::time_point last_asked{};
};

struct frame_hub_state {
  frame_hub_config config;
  std::vector<watched_agent> agents;  // grows with the indices asked for
  std::int32_t agent_count = 0;       // slots named so far: 0 until an agent is named
  metrics_actor metrics;
  bool counting = false;  // a request for the env-step count is out
  clock_type::time_point counted_at{};
  std::int64_t counted_steps = -1;
  double steps_per_second = std::numeric_limits<double>::quiet_NaN();
  std::uint64_t sequence = 0;
  static inline const char* name = "frame_hub";
};

// The hub's own timer (agent i may be asked to render again) is no part of
// its public protocol.
using frame_hub_impl = frame_hub_actor::extend<caf::reacts_to<caf::tick_atom, std::int32_t>>;
using hub_pointer = frame_hub_impl::stateful_pointer<frame_hub_state>;

// Viewers may be anywhere, but only an actor of this process names agents
// and the metrics actor: a published hub must not let a peer swap them.
bool from_this_process(hub_pointer self) {
  const auto& sender = self->current_sender();
  return sender != nullptr && sender->node() == self->node();
}

void refuse_waiting(watched_agent& agent, const caf::error& why) {
  for (auto& p : agent.waiting) p.deliver(why);
  agent.waiting.clear();
}

// Refreshes steps_per_second from the metrics actor's env-step count.
void count_steps(hub_pointer self) {
  auto& st = self->state;
  const auto now = clock_type::now();
  if (!st.metrics || st.counting || (st.counted_steps >= 0 && now - st.counted_at < rate_period))
    return;
  st.counting = true;
  self->request(st.metrics, totals_timeout, totals_atom_v)
      .then(
          [=](const metrics_totals& totals) {
            auto& st = self->state;
            st.counting = false;
            const auto at = clock_type::now();
            const double seconds = std::chrono::duration<double>(at - st.counted_at).count();
            if (st.counted_steps >= 0 && seconds > 0)
              st.steps_per_second = double(totals.env_steps - st.counted_steps) / seconds;
            st.counted_steps = totals.env_steps;
            st.counted_at = at;
          },
          [=](caf::error&) { self->state.counting = false; });  // ending: no rate
}

// Every viewer waiting for agent i gets this frame.
void serve(hub_pointer self, std::int32_t i, env_frame frame) {
  auto& st = self->state;
  frame.agent_id = static_cast<std::uint32_t>(i);
  frame.agent_count = std::max<std::int32_t>(1, st.agent_count);
  frame.sequence = ++st.sequence;
  frame.info.steps_per_second = st.steps_per_second;
  auto waiting = std::move(st.agents[size_t(i)].waiting);
  st.agents[size_t(i)].waiting.clear();
  for (size_t v = 0; v + 1 < waiting.size(); ++v) waiting[v].deliver(frame);
  if (!waiting.empty()) waiting.back().deliver(std::move(frame));
  count_steps(self);
}

// Asks agent i for a frame when a viewer waits for one, none is being
// rendered, and the rate limit allows; otherwise when it will.
void ask_to_render(hub_pointer self, std::int32_t i) {
  auto& st = self->state;
  watched_agent& agent = st.agents[size_t(i)];
  if (agent.waiting.empty() || agent.rendering || agent.tick_scheduled || !agent.handle) return;
  const auto now = clock_type::now();
  const auto due = agent.last_asked + std::chrono::duration_cast<clock_type::duration>(
                                          std::chrono::duration<double>(1.0 / st.config.max_fps));
  if (now < due) {
    agent.tick_scheduled = true;
    self->delayed_send(self, due - now, caf::tick_atom_v, i);
    return;
  }
  agent.rendering = true;
  agent.last_asked = now;
  const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::duration<double>(st.config.render_timeout_s));
  self->request(agent.handle, timeout, render_atom_v)
      .then(
          [=](env_frame& frame) {
            if (size_t(i) >= self->state.agents.size()) return;  // fewer agents now
            self->state.agents[size_t(i)].rendering = false;
            serve(self, i, std::move(frame));
          },
          [=](caf::error& err) {
            if (size_t(i) >= self->state.agents.size()) return;
            auto& agent = self->state.agents[size_t(i)];
            agent.rendering = false;
            // Gone, restarting or busy: ask again (the coordinator names a
            // replacement). Any other answer is the agent's own: it cannot draw.
            if (err != caf::sec::request_timeout && err != caf::sec::request_receiver_down)
              refuse_waiting(agent, err);
            ask_to_render(self, i);
          });
}

// Viewers waiting on a slot whose agent left are handed to the next slot
// with an agent, so a worker that goes away does not end their stream.
void rehome_waiting(hub_pointer self) {
  auto& agents = self->state.agents;
  const size_t n = agents.size();
  for (size_t j = 0; j < n; ++j) {
    if (!agents[j].left || agents[j].waiting.empty()) continue;
    for (size_t step = 1; step < n; ++step) {
      watched_agent& next = agents[(j + step) % n];
      if (next.left || !next.handle) continue;
      for (auto& p : agents[j].waiting) next.waiting.push_back(std::move(p));
      agents[j].waiting.clear();
      ask_to_render(self, std::int32_t((j + step) % n));
      break;
    }
  }
}

frame_hub_impl::behavior_type frame_hub(hub_pointer self, frame_hub_config config) {
  self->state.config = config;
  return {
      [=](next_frame_atom, std::int32_t i) -> caf::typed_response_promise<env_frame> {
        auto& st = self->state;
        auto promise = self->make_response_promise<env_frame>();
        if (i < 0 || i >= st.config.max_agents || (st.agent_count > 0 && i >= st.agent_count)) {
          promise.deliver(make_error(
              errc::malformed,
              "no agent " + std::to_string(i) + " to watch; there are " +
                  (st.agent_count > 0 ? std::to_string(st.agent_count) : std::string("none yet"))));
          return promise;
        }
        if (size_t(i) >= st.agents.size()) st.agents.resize(size_t(i) + 1);
        watched_agent& agent = st.agents[size_t(i)];
        if (int(agent.waiting.size()) >= st.config.max_waiting) {
          promise.deliver(make_error(errc::busy, "too many viewers are waiting for agent " +
                                                     std::to_string(i)));
          return promise;
        }
        agent.waiting.push_back(promise);
        if (agent.left)
          rehome_waiting(self);
        else
          ask_to_render(self, i);
        return promise;
      },
      [=](agent_atom, std::int32_t i, agent_actor handle) {
        auto& st = self->state;
        if (!from_this_process(self)) return;
        if (i < 0 || i >= st.config.max_agents) return;
        st.agent_count = std::max(st.agent_count, i + 1);
        if (st.agents.size() < size_t(st.agent_count)) st.agents.resize(size_t(st.agent_count));
        watched_agent& agent = st.agents[size_t(i)];
        agent.left = !handle;
        agent.handle = std::move(handle);
        ask_to_render(self, i);
        rehome_waiting(self);
      },
      [=](metrics_atom, metrics_actor metrics) {
        if (!from_this_process(self)) return;
        self->state.metrics = std::move(metrics);
        count_steps(self);  // the count at the start: the first frames get a rate
      },
      [=](caf::tick_atom, std::int32_t i) {
        auto& st = self->state;
        if (self->current_sender() != self->ctrl()) return;  // its own timer only
        if (i < 0 || size_t(i) >= st.agents.size()) return;
        st.agents[size_t(i)].tick_scheduled = false;
        ask_to_render(self, i);
      },
  };
}

}  // namespace

frame_hub_actor spawn_frame_hub(caf::actor_system& sys, const frame_hub_config& config) {
  return caf::actor_cast<frame_hub_actor>(sys.spawn(frame_hub, config));
}

}  // namespace troupe::actors
