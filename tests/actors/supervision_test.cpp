// Supervision: an environment that throws or returns non-finite rewards
// costs the run nothing but the failing agent's unsent steps.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <limits>

#include "actors/coordinator.hpp"
#include "actors/actor_system_setup.hpp"
#include "catalog/registry.hpp"
#include "envs/classic/cartpole.hpp"

using namespace troupe;

namespace {

std::atomic<long> steps_taken{0};

// CartPole that throws on some steps and returns NaN rewards on others.
class faulty_cartpole : public envs::env {
 public:
  faulty_cartpole(long throw_every, long nan_every) : throw_every_(throw_every), nan_every_(nan_every) {}
  const envs::env_spec& spec() const override { return inner_.spec(); }
  void reset(std::uint64_t seed, float* obs) override { inner_.reset(seed, obs); }
  envs::step_result step(const float* action, float* obs) override {
    const long n = ++steps_taken;
    if (throw_every_ && n % throw_every_ == 0) throw std::runtime_error("injected env failure");
    envs::step_result r = inner_.step(action, obs);
    if (nan_every_ && n % nan_every_ == 0) r.reward = std::numeric_limits<double>::quiet_NaN();
    return r;
  }

 private:
  envs::cartpole inner_;
  long throw_every_, nan_every_;
};

run::run_config faulty_config(const std::string& env_id) {
  run::run_config c;
  c.run.stop.env_steps = 100000;
  c.run.stop.mean_return = 1e9;  // out of reach: stop on steps
  c.run.stop.wall_seconds = 60;
  c.env.id = env_id;
  c.env.envs_per_agent = 8;
  c.agents.count = 2;
  c.log.progress = false;
  c.checkpoint.every_seconds = 0;
  return c;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("failing environments and non-finite rewards: the run survives and counts them") {
  catalog::register_env({"Test/FaultyCartPole-v0", [](const envs::env_config&) {
                        return std::unique_ptr<envs::env>(new faulty_cartpole(30000, 7001));
                      }});
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  // With an LSTM, a restarted agent must come back with states of the right
  // size (the owner refuses others, and an agent refused every time would
  // end the run on agent_failures).
  for (const std::string core : {"none", "lstm"}) {
    CAPTURE(core);
    actors::run_request request;
    request.config = faulty_config("Test/FaultyCartPole-v0");
    request.config.agents.max_restarts = 100;
    request.config.model.recurrent = {core, 16};
    std::atomic<bool> interrupted{false};
    const auto outcome = actors::coordinate(sys, request, interrupted);
    CHECK(outcome.stop == run::stop_reason::env_steps);
    CHECK(outcome.agent_restarts >= 2);  // ~100k steps, one throw per 30k
    CHECK(outcome.last_failure.find("injected env failure") != std::string::npos);
    CHECK(outcome.learner.updates_skipped >= 1);  // NaN rewards never reached the parameters
    CHECK(outcome.learner.updates > 0);
    CHECK(outcome.samples_collected ==
          outcome.learner.samples_trained + outcome.samples_dropped);
  }
}

TEST_CASE("agents that keep failing stop the run with a clear reason") {
  catalog::register_env({"Test/BrokenCartPole-v0", [](const envs::env_config&) {
                        return std::unique_ptr<envs::env>(new faulty_cartpole(3, 0));
                      }});
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  actors::run_request request;
  request.config = faulty_config("Test/BrokenCartPole-v0");
  request.config.agents.max_restarts = 5;
  std::atomic<bool> interrupted{false};
  const auto outcome = actors::coordinate(sys, request, interrupted);
  CHECK(outcome.stop == run::stop_reason::agent_failures);
  CHECK(outcome.agent_restarts == 6);
}
}
