// Exactly-once, in-order rollouts: 64 real agent actors, the real model-owner
// and learner; a recording stand-in for the metrics actor keeps the order in
// which the learner trained rollouts.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "actors/agent_actor.hpp"
#include "actors/learner_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/model_owner.hpp"
#include "algo/a3c_learner.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

struct trace {
  std::mutex mutex;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> trained;  // (agent, sequence)
  std::int64_t env_steps = 0;
};

metrics_actor::behavior_type recorder(metrics_actor::pointer, trace* log) {
  return {
      [=](const episode_report& r) {
        std::lock_guard<std::mutex> lock(log->mutex);
        log->env_steps += r.env_steps;
      },
      [=](const algo::train_result& r) {
        std::lock_guard<std::mutex> lock(log->mutex);
        log->trained.emplace_back(r.agent_id, r.sequence);
      },
      [=](totals_atom) { return metrics_totals{}; },
  };
}

std::size_t trained_so_far(trace& log) {
  std::lock_guard<std::mutex> lock(log.mutex);
  return log.trained.size();
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("64 agents: every rollout is trained exactly once and in order per agent (100 rounds)") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const int agent_count = 64;
  for (int round = 0; round < 100; ++round) {
    CAPTURE(round);
    auto model = model::make_shared_model(model::mlp_spec(4, 2, {16}), round + 1);
    trace log;
    auto metrics = sys.spawn(recorder, &log);
    auto lane = std::make_shared<predict_lane>();
    auto owner = spawn_model_owner(sys, model, {256}, std::uint64_t(round), lane);
    auto learner = spawn_learner(
        sys, std::make_shared<algo::a3c_learner>(model, algo::algo_config{}), metrics);
    std::vector<agent_actor> agents;
    for (int i = 0; i < agent_count; ++i) {
      agent_config a;
      a.id = i;
      a.env.id = "CartPole-v1";
      a.envs = 1 + i % 3;
      a.n_steps = 2;
      a.max_rollouts_in_flight = 2;
      a.seed = round * 1000 + i;
      // Half ask through the owner's lane, as a run's agents do, half by
      // messages, as a cluster worker's do: both share the owner's batches.
      agents.push_back(spawn_agent(sys, a, owner, i % 2 ? nullptr : lane, learner, metrics));
    }
    caf::scoped_actor self{sys};
    for (auto& a : agents) self->send(a, start_atom_v);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (trained_so_far(log) < 300 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));

    std::map<std::uint32_t, std::uint64_t> sent;
    std::int64_t collected = 0, dropped = 0;
    for (auto& a : agents)
      self->request(a, std::chrono::seconds(10), stop_atom_v)
          .receive(
              [&](const agent_final& f) {
                sent[f.agent_id] = f.rollouts_sent;
                collected += f.samples_collected;
                dropped += f.samples_dropped;
              },
              [&](caf::error&) { FAIL("an agent did not stop"); });
    learner_final learned;
    self->request(learner, std::chrono::seconds(10), drain_atom_v)
        .receive([&](const learner_final& f) { learned = f; },
                 [&](caf::error&) { FAIL("the learner did not drain"); });

    // The learner reported every update before answering the drain; one more
    // request to the recorder lands behind those reports.
    self->request(metrics, std::chrono::seconds(10), totals_atom_v)
        .receive([](const metrics_totals&) {}, [&](caf::error&) { FAIL("no recorder"); });

    // Each agent's rollouts were trained once each, in the order it sent them.
    std::map<std::uint32_t, std::uint64_t> next_expected;
    {
      std::lock_guard<std::mutex> lock(log.mutex);
      REQUIRE(log.trained.size() >= 300);
      for (const auto& [agent, sequence] : log.trained) {
        REQUIRE(sequence == next_expected[agent]);  // no gap, repeat or reordering
        ++next_expected[agent];
      }
    }
    for (const auto& [agent, count] : sent) REQUIRE(next_expected[agent] == count);
    REQUIRE(collected == learned.samples_trained + dropped + learned.samples_dropped);

    for (auto& a : agents) self->send_exit(a, caf::exit_reason::user_shutdown);
    self->send_exit(learner, caf::exit_reason::user_shutdown);
    self->send_exit(owner, caf::exit_reason::user_shutdown);
    self->send_exit(metrics, caf::exit_reason::user_shutdown);
  }
}
}
