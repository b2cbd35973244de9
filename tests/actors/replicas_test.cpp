// Several parameter replicas kept in agreement by message (one learner actor
// per replica, the real protocol): every update reaches every replica exactly
// once, and no replica ever falls more than max_lag of another's own updates
// behind. The trainers are stand-ins with known gradients, so the exact final
// parameters are known; the lag is watched by an observer thread that reads
// the replicas' clock on its own, besides what the learners report.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "actors/learner_actor.hpp"
#include "actors/actor_system_setup.hpp"
#include "model/replica_clock.hpp"
#include "model/shared_model_impl.hpp"
#include "model/staleness_bound.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

// Trains a rollout by one plain SGD step (lr 1) whose gradient is
// rollout.rewards[0] in every element; optionally slow, to load the others.
class known_gradient_trainer final : public algo::trainer {
 public:
  known_gradient_trainer(std::shared_ptr<model::shared_model> m, std::chrono::microseconds slow)
      : model_(std::move(m)),
        sgd_(std::make_unique<torch::optim::SGD>(std::vector<torch::Tensor>{model_->flat}, torch::optim::SGDOptions(1.0))),
        slow_(slow) {}

  void check(const algo::rollout&) const override {}

  algo::train_result train(std::vector<algo::rollout> batch, std::vector<float>* delta) override {
    const algo::rollout& r = batch.front();  // batches of one
    if (slow_.count()) std::this_thread::sleep_for(slow_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      trained_.push_back(r.sequence);
    }
    const torch::Tensor grads = torch::full_like(model_->flat, r.rewards[0]);
    algo::train_result result;
    result.rollouts = {{r.agent_id, r.sequence}};
    result.samples = r.samples();
    const auto version = model::apply_gradients(*model_, *sgd_, grads, delta);
    result.applied = version.has_value();
    result.updates = result.applied ? 1 : 0;
    result.version = version.value_or(0);
    return result;
  }

  std::optional<std::uint64_t> apply_peer_update(const std::vector<float>& delta) override {
    if (slow_.count()) std::this_thread::sleep_for(slow_);
    return model::apply_delta(*model_, delta);
  }

  std::uint64_t version() override { return model::current_version(*model_); }

  std::uint64_t save_checkpoint(const std::string&, const model::checkpoint_meta&) override {
    return 0;
  }

  std::vector<std::uint64_t> trained() {
    std::lock_guard<std::mutex> lock(mutex_);
    return trained_;
  }

 private:
  std::shared_ptr<model::shared_model> model_;
  std::unique_ptr<torch::optim::Optimizer> sgd_;
  std::chrono::microseconds slow_;
  std::mutex mutex_;
  std::vector<std::uint64_t> trained_;
};

algo::rollout rollout_with_gradient(std::uint32_t agent, std::uint64_t sequence, float g) {
  algo::rollout r;
  r.agent_id = agent;
  r.sequence = sequence;
  r.n_steps = 1;
  r.n_envs = 1;
  r.rewards = {g};
  return r;
}

// Gradient of the k-th rollout to a replica: a multiple of 2^-6, so every
// partial sum of them is exact in float whatever the order.
float gradient(int replica, int k) { return float(1 + (replica * 7 + k) % 5) / 64.0f; }

struct replica_run {
  std::vector<std::shared_ptr<model::shared_model>> models;
  std::vector<std::shared_ptr<known_gradient_trainer>> trainers;
  std::vector<learner_actor> learners;
  std::shared_ptr<model::replica_clock> clock;
};

// Replicas that start from all-zero parameters; replica r's trainer sleeps
// slow[r] per update.
replica_run start_replicas(caf::actor_system& sys, const std::vector<int>& slow_us,
                           std::uint64_t max_lag) {
  replica_run run;
  const int n = static_cast<int>(slow_us.size());
  run.clock = std::make_shared<model::replica_clock>(n);
  for (int r = 0; r < n; ++r) {
    run.models.push_back(model::make_shared_model(model::mlp_spec(3, 2, {4}), 1 + r));
    if (r == 0) {
      torch::NoGradGuard no_grad;
      for (auto& p : run.models[0]->net->parameters()) p.zero_();
    } else {
      model::copy_parameters(*run.models[0], *run.models[r]);  // other seeds: other weights
    }
    run.trainers.push_back(std::make_shared<known_gradient_trainer>(
        run.models[r], std::chrono::microseconds(slow_us[r])));
    run.learners.push_back(spawn_learner(sys, run.trainers[r], metrics_actor{},
                                         replica_setup{std::uint32_t(r), max_lag, run.clock}));
  }
  introduce_replicas(sys, run.learners);
  return run;
}

// Drains every learner, then asks each again: once all have drained, every
// update has reached every replica, so the second answers count them all.
std::vector<learner_final> drain_all(caf::actor_system& sys, const replica_run& run) {
  caf::scoped_actor self{sys};
  std::vector<learner_final> finals;
  for (int pass = 0; pass < 2; ++pass) {
    finals.clear();
    for (const auto& l : run.learners)
      self->request(l, std::chrono::seconds(30), drain_atom_v)
          .receive([&](const learner_final& f) { finals.push_back(f); },
                   [&](caf::error& err) { FAIL("a learner did not drain: " << caf::to_string(err)); });
  }
  for (const auto& l : run.learners) self->send_exit(l, caf::exit_reason::user_shutdown);
  return finals;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("staleness_bound: an update waits until every peer has acknowledged n - K") {
  model::staleness_bound bound(2, 2);
  REQUIRE(bound.may_apply());
  REQUIRE(bound.on_own_applied() == 1);
  REQUIRE(bound.on_own_applied() == 2);
  REQUIRE_FALSE(bound.may_apply());  // update 3 would leave both peers 3 behind
  bound.on_ack(0, 1);
  REQUIRE_FALSE(bound.may_apply());  // peer 1 is still at 0
  bound.on_ack(1, 2);
  REQUIRE(bound.may_apply());
  REQUIRE_FALSE(bound.all_acked());
  bound.on_ack(0, 2);
  REQUIRE(bound.all_acked());
  model::staleness_bound alone(0, 1);
  for (int i = 0; i < 10; ++i) {
    REQUIRE(alone.may_apply());
    alone.on_own_applied();
  }
  REQUIRE_THROWS_AS(model::staleness_bound(1, 0), std::invalid_argument);
}

TEST_CASE("replicas: with SGD and known gradients every update lands once on every replica (30 rounds)") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const int per_replica = 60;
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    const int n = 2 + round % 2;  // 2 or 3 replicas
    const std::uint64_t max_lag = 1 + round % 4;
    auto run = start_replicas(sys, std::vector<int>(n, 0), max_lag);
    // Rollouts to all replicas at once, as agents send them (from an actor of
    // this process: learners refuse anonymous messages).
    caf::scoped_actor sender{sys};
    double total = 0;
    for (int k = 0; k < per_replica; ++k)
      for (int r = 0; r < n; ++r) {
        sender->send(run.learners[r], rollout_with_gradient(r, k, gradient(r, k)));
        total += gradient(r, k);
      }
    const auto finals = drain_all(sys, run);
    REQUIRE(finals.size() == size_t(n));
    const std::vector<float> first = model::flat_parameters(*run.models[0]);
    for (int r = 0; r < n; ++r) {
      CAPTURE(r);
      REQUIRE(finals[r].updates == per_replica);
      REQUIRE(finals[r].peer_updates == per_replica * (n - 1));
      REQUIRE(finals[r].version == std::uint64_t(per_replica * n));
      REQUIRE(model::current_version(*run.models[r]) == std::uint64_t(per_replica * n));
      REQUIRE(finals[r].max_replica_lag <= max_lag);
      // Initial (zero) minus every step of every replica, exactly once each.
      const std::vector<float> params = model::flat_parameters(*run.models[r]);
      REQUIRE(params == first);
      for (float p : params) REQUIRE(p == float(-total));
      // Its own rollouts were trained in the order they were sent.
      const auto order = run.trainers[r]->trained();
      REQUIRE(order.size() == size_t(per_replica));
      for (int k = 0; k < per_replica; ++k) REQUIRE(order[k] == std::uint64_t(k));
      for (int o = 0; o < n; ++o) REQUIRE(run.clock->count(r, o) == std::uint64_t(per_replica));
    }
  }
}

TEST_CASE("replicas under load: no replica ever falls more than max_lag behind (40 rounds)") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  int rounds_at_bound = 0;
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    const std::uint64_t max_lag = 1 + round % 5;
    // Replica 0 trains fast and gets the most rollouts; replica 1 is slow to
    // apply anything, so without the bound replica 0 would run far ahead.
    const std::vector<int> slow_us = round % 2 ? std::vector<int>{0, 200}
                                               : std::vector<int>{0, 200, 50};
    const int n = static_cast<int>(slow_us.size());
    auto run = start_replicas(sys, slow_us, max_lag);
    // An observer reads the clock on its own thread: an origin's own count
    // first, then what each other replica has applied of it. Counts only
    // grow, so what it sees is never more than the true lag at its second read.
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> observed{0};
    std::thread observer([&] {
      while (!done.load()) {
        for (int o = 0; o < n; ++o) {
          const std::uint64_t own = run.clock->count(o, o);
          for (int r = 0; r < n; ++r) {
            const std::uint64_t seen = run.clock->count(r, o);
            if (own > seen && own - seen > observed.load()) observed.store(own - seen);
          }
        }
      }
    });
    const std::vector<int> rollouts = n == 2 ? std::vector<int>{150, 10} : std::vector<int>{150, 10, 20};
    int total = 0;
    for (int r = 0; r < n; ++r) total += rollouts[r];
    caf::scoped_actor sender{sys};
    for (int k = 0; k < 150; ++k)
      for (int r = 0; r < n; ++r)
        if (k < rollouts[r]) sender->send(run.learners[r], rollout_with_gradient(r, k, 1.0f / 64));
    const auto finals = drain_all(sys, run);
    done.store(true);
    observer.join();
    std::uint64_t reported = 0;
    for (int r = 0; r < n; ++r) {
      CAPTURE(r);
      REQUIRE(finals[r].updates == rollouts[r]);
      REQUIRE(finals[r].version == std::uint64_t(total));
      REQUIRE(finals[r].max_replica_lag <= max_lag);
      reported = std::max(reported, finals[r].max_replica_lag);
    }
    REQUIRE(observed.load() <= max_lag);
    const std::vector<float> first = model::flat_parameters(*run.models[0]);
    for (int r = 1; r < n; ++r) REQUIRE(model::flat_parameters(*run.models[r]) == first);
    if (reported == max_lag) ++rounds_at_bound;
  }
  // The load was real: replica 0 was held at the bound, not merely below it.
  REQUIRE(rounds_at_bound >= 20);
}
}
