// run.stop.confirm_episodes: the metrics actor stops a run as solved only
// when the evaluator's verdict passes, and after a failed verdict waits for a
// whole new window of episodes. A scripted evaluator isolates that logic; a
// real run checks the whole path.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "actors/coordinator.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/metrics_actor.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

struct script {
  std::atomic<int> calls{0};
  std::atomic<int> best_calls{0};
  std::atomic<std::int64_t> best_env_steps{-1};  // the counters the last best request carried
};

// Fails its first verdict, passes every later one; a best evaluation
// scores 1, 2, 3, ... and is kept each time.
evaluator_actor::behavior_type scripted_evaluator(evaluator_actor::pointer, script* s) {
  return {
      [=](evaluate_atom, std::int32_t episodes, std::uint64_t, const model::checkpoint_meta&) {
        const int call = ++s->calls;
        return evaluation_report{std::uint64_t(call), episodes, call == 1 ? 10.0 : 300.0,
                                 call > 1, false};
      },
      [=](best_atom, std::int32_t episodes, std::uint64_t, const model::checkpoint_meta& meta) {
        const int call = ++s->best_calls;
        s->best_env_steps = meta.env_steps;
        return evaluation_report{std::uint64_t(call), episodes, double(call), false, true};
      },
  };
}

episode_report episodes_of(float ret, int count) {
  episode_report r;
  r.env_steps = 10 * count;
  r.returns.assign(count, ret);
  r.lengths.assign(count, 10);
  return r;
}

// A metrics actor's config that prints nothing and writes no row of its own.
metrics_config quiet_metrics(double target, int window) {
  metrics_config mc;
  mc.stop.mean_return = target;
  mc.stop.window = window;
  mc.log.progress = false;
  mc.log.progress_seconds = 3600;
  mc.start = std::chrono::steady_clock::now();
  return mc;
}

metrics_totals totals_of(caf::scoped_actor& self, const metrics_actor& m) {
  metrics_totals t;
  self->request(m, std::chrono::seconds(10), totals_atom_v)
      .receive([&](const metrics_totals& x) { t = x; }, [&](caf::error&) { FAIL("no totals"); });
  return t;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("confirmation: a failed verdict keeps training; the next window's passing one stops") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  script s;
  metrics_config mc = quiet_metrics(100, 4);
  mc.stop.confirm_episodes = 7;
  mc.best.episodes = 0;  // no best evaluations: this test counts verdicts
  mc.evaluator = sys.spawn(scripted_evaluator, &s);
  auto metrics = spawn_metrics(sys, mc, model_owner_actor{}, caf::actor_cast<run_control>(self));

  self->send(metrics, episodes_of(50, 4));  // window full, below target: no verdict asked
  CHECK(totals_of(self, metrics).confirmations == 0);
  self->send(metrics, episodes_of(200, 4));  // window mean 200: verdict 1 (fails)
  while (totals_of(self, metrics).confirmed_return != 10.0) std::this_thread::yield();
  CHECK(s.calls == 1);
  self->send(metrics, episodes_of(400, 3));  // not yet a new window
  CHECK(totals_of(self, metrics).confirmations == 1);
  bool stopped = false;
  self->receive([&](stop_request&) { stopped = true; },
                caf::after(std::chrono::milliseconds(100)) >> [] {});
  CHECK_FALSE(stopped);
  self->send(metrics, episodes_of(400, 1));  // a new window, mean 400: verdict 2 (passes)
  run::stop_reason reason = run::stop_reason::none;
  self->receive([&](stop_request& r) { reason = r.reason; },
                caf::after(std::chrono::seconds(10)) >> [] {});
  CHECK(reason == run::stop_reason::solved);
  const auto t = totals_of(self, metrics);
  CHECK(t.solved);
  CHECK(t.confirmations == 2);
  CHECK(t.confirmed_return == 300.0);
  CHECK(t.confirmed_version == 2);
  CHECK(t.mean_return_at_target == 400.0);  // the passing verdict's window, not the failed one's (200)
  // Episodes that end after the target (while an evaluator plays, in a real
  // run) move the window at the stop, not where the target was reached.
  self->send(metrics, episodes_of(20, 4));
  while (totals_of(self, metrics).final_mean_return != 20.0) std::this_thread::yield();
  CHECK(totals_of(self, metrics).mean_return_at_target == 400.0);
  self->send_exit(metrics, caf::exit_reason::user_shutdown);
  self->send_exit(mc.evaluator, caf::exit_reason::user_shutdown);
}

TEST_CASE("best evaluations: one per new window of episodes, with the counters of the moment") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  script s;
  metrics_config mc = quiet_metrics(1e9, 4);  // the target is never reached: no confirmation
  mc.stop.confirm_episodes = 7;
  mc.best.episodes = 9;
  mc.best.time_share = 1.0;
  mc.evaluator = sys.spawn(scripted_evaluator, &s);
  auto metrics = spawn_metrics(sys, mc, model_owner_actor{}, caf::actor_cast<run_control>(self));
  self->send(metrics, episodes_of(50, 3));  // the window is not full yet
  CHECK(totals_of(self, metrics).best_evaluations == 0);
  self->send(metrics, episodes_of(50, 1));  // full: the first best evaluation
  CHECK(totals_of(self, metrics).best_evaluations == 1);
  while (s.best_calls < 1) std::this_thread::yield();
  CHECK(s.best_env_steps == 40);  // the counters at the moment it was asked
  // Episodes one at a time: the second comes once a new window (4 more
  // episodes) has ended since the first was asked, not before.
  int sent = 4;
  while (totals_of(self, metrics).best_evaluations < 2 && sent < 40) {
    self->send(metrics, episodes_of(50, 1));
    ++sent;
  }
  REQUIRE(totals_of(self, metrics).best_evaluations == 2);
  CHECK(sent >= 8);
  while (s.best_calls < 2) std::this_thread::yield();
  CHECK(s.best_env_steps == 10 * sent);
  CHECK(s.calls == 0);  // the target was never reached
  self->send_exit(metrics, caf::exit_reason::user_shutdown);
  self->send_exit(mc.evaluator, caf::exit_reason::user_shutdown);
}

TEST_CASE("best evaluations stay within their share of the time") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  script s;
  metrics_config mc = quiet_metrics(1e9, 1);
  mc.best.episodes = 5;
  mc.best.time_share = 0.01;  // 1 % of the time
  // Each best evaluation takes 20 ms.
  mc.evaluator = sys.spawn([&s](evaluator_actor::pointer) -> evaluator_actor::behavior_type {
    return {
        [](evaluate_atom, std::int32_t, std::uint64_t, const model::checkpoint_meta&) {
          return evaluation_report{};
        },
        [&s](best_atom, std::int32_t episodes, std::uint64_t, const model::checkpoint_meta&) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          ++s.best_calls;
          return evaluation_report{1, episodes, 1.0, false, true};
        },
    };
  });
  auto metrics = spawn_metrics(sys, mc, model_owner_actor{}, caf::actor_cast<run_control>(self));
  // An episode every millisecond for 0.5 s: at 1 %, 5 ms of evaluations
  // are allowed, so once the first (20 ms) has run none may start until
  // 2 s have passed.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (std::chrono::steady_clock::now() < until) {
    self->send(metrics, episodes_of(1, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(totals_of(self, metrics).best_evaluations == 1);
  self->send_exit(metrics, caf::exit_reason::user_shutdown);
  self->send_exit(mc.evaluator, caf::exit_reason::user_shutdown);
}

TEST_CASE("confirmation on a real run: solved only with a passing verdict, nothing trained after") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    run_request request;
    run::run_config& c = request.config;
    c.run.seed = round + 1;
    c.run.stop.mean_return = 60;  // reached within seconds
    c.run.stop.window = 20;
    c.run.stop.confirm_episodes = 20;
    c.run.stop.wall_seconds = 60;
    c.env.id = "CartPole-v1";
    c.env.envs_per_agent = 16;
    c.agents.count = 2;
    c.algo.lr = 0.002;
    c.log.progress = false;
    c.checkpoint.every_seconds = 0;
    std::atomic<bool> interrupted{false};
    const auto o = coordinate(sys, request, interrupted);
    REQUIRE(o.stop == run::stop_reason::solved);
    CHECK(o.totals.solved);
    CHECK(o.totals.confirmations >= 1);
    CHECK(o.totals.confirmed_return >= 60.0);
    // Rollouts that arrived after the verdict were refused, not trained:
    // the run ends with the version that passed.
    CHECK(o.learner.updates == std::int64_t(o.totals.confirmed_version));
    CHECK(o.samples_collected == o.learner.samples_trained + o.samples_dropped);
  }
}
}
