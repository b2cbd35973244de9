// A deterministic run's learner (rollout_admission::deterministic_agents):
// rollouts train in (round, agent) order whatever order they arrive in, a
// round trains only once whole, its acknowledgements go only after it has
// trained (each exactly once, leftovers of a batch included), a refused
// rollout keeps its place, and a round the metrics actor stops is never
// trained. The trainer is a stand-in that records what it is given; the
// learner actor and its protocol are the real ones.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "actors/actor_system_setup.hpp"
#include "actors/learner_actor.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

using rollout_key = std::pair<std::uint64_t, std::uint32_t>;  // (sequence, agent)

class recording_trainer final : public algo::trainer {
 public:
  explicit recording_trainer(int batch) : batch_(batch) {}
  int batch_rollouts() const override { return batch_; }
  void check(const algo::rollout& r) const override {
    if (r.rewards.empty()) throw std::invalid_argument("a rollout without rewards");
  }
  algo::train_result train(std::vector<algo::rollout> batch, std::vector<float>*) override {
    std::lock_guard<std::mutex> lock(mutex_);
    algo::train_result result;
    for (const auto& r : batch) {
      order_.emplace_back(r.sequence, r.agent_id);
      result.samples += r.samples();
    }
    batches_.push_back(int(batch.size()));
    result.applied = true;
    result.updates = 1;
    result.version = ++version_;
    return result;
  }
  std::optional<std::uint64_t> apply_peer_update(const std::vector<float>&) override { return std::nullopt; }
  std::uint64_t version() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return version_;
  }
  std::uint64_t save_checkpoint(const std::string&, const model::checkpoint_meta&) override { return 0; }

  std::vector<rollout_key> order() {
    std::lock_guard<std::mutex> lock(mutex_);
    return order_;
  }
  std::vector<int> batches() {
    std::lock_guard<std::mutex> lock(mutex_);
    return batches_;
  }

 private:
  int batch_;
  std::mutex mutex_;
  std::vector<rollout_key> order_;
  std::vector<int> batches_;
  std::uint64_t version_ = 0;
};

algo::rollout rollout_of(std::uint32_t agent, std::uint64_t sequence) {
  algo::rollout r;
  r.agent_id = agent;
  r.sequence = sequence;
  r.n_steps = 1;
  r.n_envs = 1;
  r.rewards = {1.0f};
  return r;
}

// Every (round, agent) of `rounds` rounds of `agents` agents, in order.
std::vector<rollout_key> all_keys(int rounds, int agents) {
  std::vector<rollout_key> keys;
  for (int s = 0; s < rounds; ++s)
    for (int a = 0; a < agents; ++a) keys.emplace_back(s, a);
  return keys;
}

// The acknowledgements that come within `wait`, by (sequence, agent): the
// learner answers a rollout sent with send() by a train_ack message.
int acks_within(caf::scoped_actor& self, std::chrono::milliseconds wait, int most) {
  int got = 0;
  for (bool more = true; more && got < most;)
    self->receive([&](const train_ack&) { ++got; }, caf::after(wait) >> [&] { more = false; });
  return got;
}

learner_actor spawn_rounds(caf::actor_system& sys, std::shared_ptr<recording_trainer> trainer,
                           int agents, metrics_actor metrics = {}) {
  rollout_admission admission;
  admission.deterministic_agents = agents;
  return spawn_learner(sys, std::move(trainer), std::move(metrics), {}, admission);
}

learner_final drain(caf::scoped_actor& self, const learner_actor& learner) {
  learner_final f;
  self->request(learner, std::chrono::seconds(10), drain_atom_v)
      .receive([&](const learner_final& got) { f = got; },
               [&](caf::error& e) { FAIL("no drain: " << caf::to_string(e)); });
  return f;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("a deterministic learner trains in (round, agent) order whatever the arrival order, 100 times") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const int agents = 1 + trial % 4, rounds = 4;
    auto trainer = std::make_shared<recording_trainer>(1);
    auto learner = spawn_rounds(sys, trainer, agents);
    caf::scoped_actor self{sys};
    std::vector<rollout_key> keys = all_keys(rounds, agents);
    std::shuffle(keys.begin(), keys.end(), rng);  // later rounds before earlier ones too
    for (const auto& [s, a] : keys) self->send(learner, rollout_of(a, s));
    CHECK(acks_within(self, std::chrono::seconds(5), rounds * agents) == rounds * agents);
    CHECK(acks_within(self, std::chrono::milliseconds(20), 1) == 0);  // none twice
    CHECK(trainer->order() == all_keys(rounds, agents));
    drain(self, learner);
    self->send_exit(learner, caf::exit_reason::user_shutdown);
  }
}

TEST_CASE("a deterministic learner acknowledges a round only once all of it has come and trained") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  std::mt19937 rng(11);
  // Batches of 2 over rounds of 3: every other round leaves one rollout for
  // the next round's first batch; it is acknowledged (untrained) with its own round.
  auto trainer = std::make_shared<recording_trainer>(2);
  auto learner = spawn_rounds(sys, trainer, 3);
  caf::scoped_actor self{sys};
  for (std::uint64_t s = 0; s < 4; ++s) {
    std::vector<std::uint32_t> agents{0, 1, 2};
    std::shuffle(agents.begin(), agents.end(), rng);
    self->send(learner, rollout_of(agents[0], s));
    self->send(learner, rollout_of(agents[1], s));
    CHECK(acks_within(self, std::chrono::milliseconds(50), 1) == 0);
    self->send(learner, rollout_of(agents[2], s));
    CHECK(acks_within(self, std::chrono::seconds(5), 3) == 3);
  }
  CHECK(acks_within(self, std::chrono::milliseconds(50), 1) == 0);
  CHECK(trainer->order() == all_keys(4, 3));
  CHECK(trainer->batches() == std::vector<int>(6, 2));
  const learner_final f = drain(self, learner);
  CHECK(f.samples_trained == 12);
  CHECK(f.samples_dropped == 0);
  self->send_exit(learner, caf::exit_reason::user_shutdown);
}

TEST_CASE("a refused rollout keeps its place in a deterministic learner's round") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto trainer = std::make_shared<recording_trainer>(1);
  auto learner = spawn_rounds(sys, trainer, 3);
  caf::scoped_actor self{sys};
  algo::rollout bad = rollout_of(1, 0);
  bad.rewards.clear();  // the trainer's check refuses it
  self->send(learner, bad);
  self->send(learner, rollout_of(2, 0));
  CHECK(acks_within(self, std::chrono::milliseconds(50), 1) == 0);  // its agent waits too
  self->send(learner, rollout_of(0, 0));
  CHECK(acks_within(self, std::chrono::seconds(5), 3) == 3);
  CHECK(trainer->order() == std::vector<rollout_key>{{0, 0}, {0, 2}});
  const learner_final f = drain(self, learner);
  CHECK(f.samples_dropped == 1);
  self->send_exit(learner, caf::exit_reason::user_shutdown);
}

TEST_CASE("a deterministic learner trains no round that the metrics actor stops") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  // A stand-in for the metrics actor: round 0 trains, round 1 is the stop.
  std::atomic<int> asked{0};
  metrics_actor metrics = sys.spawn([&asked]() -> metrics_actor::behavior_type {
    return {
        [](const episode_report&) {},
        [](const algo::train_result&) {},
        [](const member_hyperparams&) {},
        [](totals_atom) { return metrics_totals{}; },
        [](final_atom) { return metrics_totals{}; },
        [&asked](round_atom, std::uint64_t round) {
          ++asked;
          return round == 0;
        },
    };
  });
  auto trainer = std::make_shared<recording_trainer>(1);
  auto learner = spawn_rounds(sys, trainer, 2, metrics);
  caf::scoped_actor self{sys};
  for (std::uint64_t s = 0; s < 2; ++s)
    for (std::uint32_t a = 0; a < 2; ++a) self->send(learner, rollout_of(a, s));
  CHECK(acks_within(self, std::chrono::seconds(5), 2) == 2);         // round 0's
  CHECK(acks_within(self, std::chrono::milliseconds(100), 1) == 0);  // round 1 waits
  CHECK(trainer->order() == std::vector<rollout_key>{{0, 0}, {0, 1}});
  const learner_final f = drain(self, learner);
  CHECK(acks_within(self, std::chrono::seconds(5), 2) == 2);  // dropped at the drain
  CHECK(f.samples_trained == 2);
  CHECK(f.samples_dropped == 2);
  CHECK(asked.load() == 2);
  CHECK(trainer->order().size() == 2);
  self->send_exit(learner, caf::exit_reason::user_shutdown);
  self->send_exit(metrics, caf::exit_reason::user_shutdown);
}
}
