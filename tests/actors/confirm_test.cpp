// run.stop.confirm_episodes: the metrics actor stops a run as solved only
// when the evaluator's verdict passes, and after a failed verdict waits for a
// whole new window of episodes. A scripted evaluator isolates that logic; a
// real run checks the whole path.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "actors/coordinator.hpp"
#include "actors/metrics_actor.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

struct script {
  std::atomic<int> calls{0};
};

// Fails its first verdict, passes every later one.
evaluator_actor::behavior_type scripted_evaluator(evaluator_actor::pointer, script* s) {
  return {
      [=](evaluate_atom, std::int32_t episodes, std::uint64_t) {
        const int call = ++s->calls;
        return evaluation_report{std::uint64_t(call), episodes, call == 1 ? 10.0 : 300.0,
                                 call > 1};
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
  metrics_config mc;
  mc.stop.mean_return = 100;
  mc.stop.window = 4;
  mc.stop.confirm_episodes = 7;
  mc.log.progress = false;
  mc.log.progress_seconds = 3600;
  mc.start = std::chrono::steady_clock::now();
  mc.evaluator = sys.spawn(scripted_evaluator, &s);
  auto metrics = spawn_metrics(sys, mc, model_owner_actor{}, caf::actor_cast<run_control>(self));

  self->send(metrics, episodes_of(50, 4));  // window full, below target: no verdict asked
  CHECK(totals_of(self, metrics).confirmations == 0);
  self->send(metrics, episodes_of(200, 4));  // window mean 200: verdict 1 (fails)
  while (totals_of(self, metrics).confirmed_return != 10.0) std::this_thread::yield();
  CHECK(s.calls == 1);
  self->send(metrics, episodes_of(200, 3));  // not yet a new window
  CHECK(totals_of(self, metrics).confirmations == 1);
  bool stopped = false;
  self->receive([&](stop_request&) { stopped = true; },
                caf::after(std::chrono::milliseconds(100)) >> [] {});
  CHECK_FALSE(stopped);
  self->send(metrics, episodes_of(200, 1));  // a new window: verdict 2 (passes)
  actors::stop_reason reason = actors::stop_reason::none;
  self->receive([&](stop_request& r) { reason = r.reason; },
                caf::after(std::chrono::seconds(10)) >> [] {});
  CHECK(reason == actors::stop_reason::solved);
  const auto t = totals_of(self, metrics);
  CHECK(t.solved);
  CHECK(t.confirmations == 2);
  CHECK(t.confirmed_return == 300.0);
  CHECK(t.confirmed_version == 2);
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
    run_config& c = request.config;
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
    REQUIRE(o.stop == actors::stop_reason::solved);
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
