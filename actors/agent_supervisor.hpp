#pragma once
// The agent supervisor: starts a node's agents and replaces each one that
// fails (its environment throws, say) with a fresh agent, fresh environments
// and a fresh random stream, until more than agents.max_restarts failures
// have happened; from then on a failed agent stays stopped. A learner's node
// (actors/coordinator.cpp) and a cluster worker (actors/cluster/worker.cpp)
// use it alike, from their own blocking loop: a caf::scoped_actor that
// receives the agents' down messages and hands each to on_down().
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "actors/agent_actor.hpp"

namespace troupe::actors {

class agent_supervisor {
 public:
  // Where agent `index` sends its requests, rollouts and reports.
  struct wiring {
    predict_service owner;
    std::shared_ptr<predict_lane> lane;  // the owner's, when it is in this process
    rollout_sink learner;
    report_sink metrics;
    opponent_source opponents = {};  // a two-player game's other side (self-play, another policy)
  };
  // The seed of agent `index` when started for the `incarnation`-th time
  // (0 first, then the node's failure count at each restart).
  using seed_of = std::function<std::uint64_t(size_t index, std::uint64_t incarnation)>;
  // Told about every agent started (for viewers: the frame hub, the gateway).
  using on_started = std::function<void(size_t index, const agent_actor& agent)>;

  // `agents[i]` is agent i's config without its seed, `wires[i]` its wiring.
  agent_supervisor(caf::actor_system& sys, caf::scoped_actor& self,
                   std::vector<agent_config> agents, std::vector<wiring> wires,
                   int max_restarts, seed_of seeds, on_started started = {});

  void start_all();

  // When `down` came from one of these agents: counts the failure, then
  // replaces the agent or, past the budget, leaves it stopped. Returns
  // whether the message was about one of them.
  bool on_down(const caf::down_msg& down);

  // More than max_restarts failures: the node cannot go on as configured.
  bool over_budget() const { return failures_ > max_restarts_; }
  int failures() const { return failures_; }
  const std::string& last_failure() const { return last_failure_; }

  // Stops every running agent (each reports and drops its unfinished
  // rollout); returns the samples each agent dropped, by index.
  std::vector<std::int64_t> stop_all(std::chrono::seconds timeout);

 private:
  void start(size_t index, std::uint64_t incarnation);

  caf::actor_system& sys_;
  caf::scoped_actor& self_;
  std::vector<agent_config> configs_;
  std::vector<wiring> wires_;
  std::vector<agent_actor> running_;  // null: stopped for good
  int max_restarts_;
  seed_of seeds_;
  on_started started_;
  int failures_ = 0;
  std::string last_failure_;
};

}  // namespace troupe::actors
