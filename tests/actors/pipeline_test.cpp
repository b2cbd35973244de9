// Exactly-once, in-order rollouts: 64 real agent actors, the real model-owner
// and learner (two of each: two policies whose agents play each other); a recording stand-in for the metrics actor keeps the order in
// which the learner trained rollouts, and what each batch's training did.
// A3C trains rollouts one by one; PPO gathers batches of them and trains
// each for several epochs of minibatches.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "actors/agent_actor.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/learner_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/model_owner.hpp"
#include "actors/league/policy_opponents.hpp"
#include "algo/learner.hpp"
#include "tests/loop_rounds.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

struct trace {
  std::mutex mutex;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> trained;  // (agent, sequence)
  std::vector<algo::train_result> batches;
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
        for (const auto& id : r.rollouts) log->trained.emplace_back(id.agent_id, id.sequence);
        log->batches.push_back(r);
      },
      [=](const member_hyperparams&) {},
      [=](totals_atom) { return metrics_totals{}; },
      [=](final_atom) { return metrics_totals{}; },
      [=](round_atom, std::uint64_t) { return true; },  // deterministic runs only
  };
}

std::size_t trained_so_far(trace& log) {
  std::lock_guard<std::mutex> lock(log.mutex);
  return log.trained.size();
}

// Each agent's rollouts (`sent`: how many each sent) were trained once
// each, in the order it sent them; a batch that could not fill at the end
// was dropped whole. With `gaps`, stale rollouts were dropped: the order
// holds, with gaps.
void check_exactly_once(trace& log, const std::map<std::uint32_t, std::uint64_t>& sent,
                        const algo::algo_config& algo, bool gaps) {
  std::map<std::uint32_t, std::uint64_t> next_expected;
  {
    std::lock_guard<std::mutex> lock(log.mutex);
    for (const auto& [agent, sequence] : log.trained) {
      REQUIRE(sent.count(agent));  // one of this learner's own agents
      // No repeat or reordering; no gap unless stale rollouts were dropped.
      if (gaps)
        REQUIRE(sequence >= next_expected[agent]);
      else
        REQUIRE(sequence == next_expected[agent]);
      next_expected[agent] = sequence + 1;
    }
  }
  // What was sent and never trained is the last batch, which could not
  // fill once the agents stopped: fewer rollouts than a batch.
  std::int64_t untrained = 0;
  for (const auto& [agent, count] : sent) {
    REQUIRE(next_expected[agent] <= count);
    untrained += std::int64_t(count - next_expected[agent]);
  }
  if (!gaps) CHECK(untrained < algo.batch_rollouts);
}

// `rounds` runs of 64 agents until at least 300 rollouts have trained; each
// agent's rollouts must be trained once each, in the order it sent them,
// and every sample collected be trained or dropped. Returns every round's
// batches and the learners' finals, for the caller's own checks.
// With an admission that bounds the lag, rollouts too stale to train are
// dropped: then each agent's trained rollouts keep its order, with gaps.
void run_rounds(int rounds, const algo::algo_config& algo,
                const std::function<void(const std::vector<algo::train_result>&, const learner_final&)>& check,
                const rollout_admission& admission = {}) {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const int agent_count = 64;
  for (int round = 0; round < rounds; ++round) {
    CAPTURE(round);
    auto model = model::make_shared_model(model::mlp_spec(4, 2, {16}), round + 1);
    trace log;
    auto metrics = sys.spawn(recorder, &log);
    auto lane = std::make_shared<predict_lane>();
    auto owner = spawn_model_owner(sys, model, {256}, std::uint64_t(round), lane);
    auto learner = spawn_learner(sys, std::make_shared<algo::learner>(model, algo), metrics, {},
                                 admission);
    std::vector<agent_actor> agents;
    for (int i = 0; i < agent_count; ++i) {
      agent_config a;
      a.id = i;
      a.env.id = "CartPole-v1";
      a.envs = 1 + i % 3;
      a.n_steps = 2;
      a.max_rollouts_in_flight = admission.per_agent_in_flight;
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

    REQUIRE(trained_so_far(log) >= 300);
    check_exactly_once(log, sent, algo, admission.max_policy_lag > 0);
    REQUIRE(collected == learned.samples_trained + dropped + learned.samples_dropped);
    std::lock_guard<std::mutex> lock(log.mutex);
    check(log.batches, learned);

    for (auto& a : agents) self->send_exit(a, caf::exit_reason::user_shutdown);
    self->send_exit(learner, caf::exit_reason::user_shutdown);
    self->send_exit(owner, caf::exit_reason::user_shutdown);
    self->send_exit(metrics, caf::exit_reason::user_shutdown);
  }
}

}  // namespace

TEST_SUITE("actors") {
// The rounds below are a quarter under ASan: the binary must know which it
// is. ctest says what to expect (TROUPE_EXPECT_ASAN, tests/CMakeLists.txt).
TEST_CASE("a test binary knows whether the ASan runtime is in it, so its loops take the rounds they should") {
  const char* expected = std::getenv("TROUPE_EXPECT_ASAN");
  if (expected == nullptr) return;  // run by hand: nothing said to compare with
  CHECK(troupe::tests::under_address_sanitizer() == (std::string(expected) == "1"));
  CHECK(troupe::tests::loop_rounds(100) == (std::string(expected) == "1" ? 25 : 100));
}
TEST_CASE("64 agents: every rollout is trained exactly once and in order per agent (100 rounds)") {
  run_rounds(troupe::tests::loop_rounds(100), algo::algo_config{}, [](const auto& batches, const learner_final& learned) {
    for (const auto& b : batches) REQUIRE(b.rollouts.size() == 1);
    CHECK(learned.batches == std::int64_t(batches.size()));
  });
}

TEST_CASE("64 agents, a budget of 4 rollouts in flight and a lag bound of 6: exactly once, in order, no trained sample older than the bound (40 rounds)") {
  rollout_admission admission;
  admission.max_in_flight = 4;
  admission.per_agent_in_flight = 2;
  admission.max_policy_lag = 6;
  run_rounds(
      troupe::tests::loop_rounds(40), algo::algo_config{},
      [](const auto& batches, const learner_final& learned) {
        for (const auto& b : batches) {
          REQUIRE(b.rollouts.size() == 1);
          // A sample's lag is measured against the version it trained with,
          // the one before its update.
          CHECK(b.lag_max <= 6);
        }
        CHECK(learned.acks_held > 0);  // the budget held agents back
        // Stale rollouts (the first ones of 64 agents started at once) are
        // dropped and counted, within the samples dropped.
        CHECK(learned.samples_stale <= learned.samples_dropped);
      },
      admission);
}

TEST_CASE("two policies, 64 agents playing Connect Four against each other: each rollout trained once, in order, by its own policy's learner (20 rounds)") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const int agent_count = 64;
  algo::algo_config ppo;
  ppo.kind = algo::algo_kind::ppo;
  ppo.optimizer = algo::optimizer_kind::adam;
  ppo.n_steps = 2;
  ppo.batch_rollouts = 8;
  ppo.ppo.epochs = 2;
  ppo.ppo.minibatches = 2;
  const algo::algo_config algos[2] = {algo::algo_config{}, ppo};  // A3C plays PPO
  for (int round = 0; round < troupe::tests::loop_rounds(20); ++round) {
    CAPTURE(round);
    struct policy {
      std::shared_ptr<model::shared_model> model;
      trace log;
      metrics_actor metrics;
      std::shared_ptr<predict_lane> lane;
      model_owner_actor owner;
      learner_actor learner;
      std::map<std::uint32_t, std::uint64_t> sent;
      std::int64_t collected = 0, dropped = 0;
    };
    policy policies[2];
    for (int p = 0; p < 2; ++p) {
      policy& pol = policies[p];
      pol.model = model::make_shared_model(model::mlp_spec(84, 7, {16}), 2 * round + p + 1);
      pol.metrics = caf::actor_cast<metrics_actor>(sys.spawn(recorder, &pol.log));
      pol.lane = std::make_shared<predict_lane>();
      pol.owner = spawn_model_owner(sys, pol.model, {256}, std::uint64_t(10 * round + p), pol.lane);
      pol.learner = spawn_learner(sys, std::make_shared<algo::learner>(pol.model, algos[p]), pol.metrics, {}, {});
    }
    std::vector<agent_actor> agents;
    for (int i = 0; i < agent_count; ++i) {
      const int p = i % 2;
      const policy& other = policies[1 - p];
      agent_config a;
      a.id = i;
      a.env.id = "ConnectFour-v0";
      a.env.versus.seat = p == 0 ? "first" : "second";
      a.envs = 1 + i % 3;
      a.n_steps = 2;
      a.seed = round * 1000 + i;
      // Half ask through the owners' lanes, half by messages.
      const bool by_lane = (i / 2) % 2 == 0;
      opponent_source others = [owner = other.owner, lane = by_lane ? other.lane : nullptr](
                                   caf::actor_system& s, int, const envs::env_config&, const envs::env_spec& spec) {
        return policy_opponents(s, owner, lane, spec, "other");
      };
      agents.push_back(spawn_agent(sys, a, policies[p].owner, by_lane ? policies[p].lane : nullptr,
                                   policies[p].learner, policies[p].metrics, others));
    }
    caf::scoped_actor self{sys};
    for (auto& a : agents) self->send(a, start_atom_v);
    if (round == 0) {
      // A viewer of agent 1 (the second seat: the other policy has moved
      // before each of its turns) sees the other's last move beside its own.
      self->request(agents[1], std::chrono::seconds(10), render_atom_v)
          .receive(
              [&](const env_frame& frame) {
                CHECK(frame.info.seat == "second");
                CHECK(frame.info.other_player == "policy other");
                REQUIRE(frame.info.other_probabilities.size() == 7);
                float sum = 0;
                for (float p : frame.info.other_probabilities) sum += p;
                CHECK(sum == doctest::Approx(1.0).epsilon(1e-4));
                REQUIRE(frame.info.other_chosen.size() == 1);
                REQUIRE(frame.info.other_legal.size() == 7);
                CHECK(frame.info.other_legal[size_t(frame.info.other_chosen[0])] == 1);
              },
              [&](caf::error& e) { FAIL("no frame: " << sys.render(e)); });
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while ((trained_so_far(policies[0].log) < 150 || trained_so_far(policies[1].log) < 150) &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (auto& a : agents)
      self->request(a, std::chrono::seconds(10), stop_atom_v)
          .receive(
              [&](const agent_final& f) {
                policy& pol = policies[f.agent_id % 2];
                pol.sent[f.agent_id] = f.rollouts_sent;
                pol.collected += f.samples_collected;
                pol.dropped += f.samples_dropped;
              },
              [&](caf::error&) { FAIL("an agent did not stop"); });
    for (int p = 0; p < 2; ++p) {
      CAPTURE(p);
      policy& pol = policies[p];
      learner_final learned;
      self->request(pol.learner, std::chrono::seconds(10), drain_atom_v)
          .receive([&](const learner_final& f) { learned = f; },
                   [&](caf::error&) { FAIL("a learner did not drain"); });
      self->request(pol.metrics, std::chrono::seconds(10), totals_atom_v)
          .receive([](const metrics_totals&) {}, [&](caf::error&) { FAIL("no recorder"); });
      REQUIRE(trained_so_far(pol.log) >= 150);
      REQUIRE(pol.sent.size() == size_t(agent_count / 2));
      // Only this policy's agents reached its learner, each rollout once, in order.
      check_exactly_once(pol.log, pol.sent, algos[p], false);
      REQUIRE(pol.collected == learned.samples_trained + pol.dropped + learned.samples_dropped);
      // Its steps were reported to its own metrics: its agents' samples, no other's.
      std::lock_guard<std::mutex> lock(pol.log.mutex);
      CHECK(pol.log.env_steps == pol.collected);
    }
    for (auto& a : agents) self->send_exit(a, caf::exit_reason::user_shutdown);
    for (auto& pol : policies) {
      self->send_exit(pol.learner, caf::exit_reason::user_shutdown);
      self->send_exit(pol.owner, caf::exit_reason::user_shutdown);
      self->send_exit(pol.metrics, caf::exit_reason::user_shutdown);
    }
  }
}

TEST_CASE("PPO, 64 agents: every rollout in exactly one batch, trained once per epoch and counted once (40 rounds)") {
  algo::algo_config ppo;
  ppo.kind = algo::algo_kind::ppo;
  ppo.optimizer = algo::optimizer_kind::adam;
  ppo.n_steps = 2;
  ppo.batch_rollouts = 24;
  ppo.ppo.epochs = 3;
  ppo.ppo.minibatches = 4;
  run_rounds(40, ppo, [](const auto& batches, const learner_final& learned) {
    std::int64_t samples = 0, updates = 0;
    for (const auto& b : batches) {
      REQUIRE(b.rollouts.size() == 24);
      CHECK(b.epochs == 3);
      CHECK(b.updates == 3 * 4);
      // Each epoch's minibatches covered every sample of the batch once.
      CHECK(b.sample_passes == 3 * b.samples);
      samples += b.samples;
      updates += b.updates;
    }
    CHECK(learned.samples_trained == samples);  // once each, not once per epoch
    CHECK(learned.updates == updates);
    CHECK(learned.version == std::uint64_t(updates));
  });
}
}
