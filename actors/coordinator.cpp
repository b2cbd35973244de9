#include "actors/coordinator.hpp"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "actors/agent_actor.hpp"
#include "actors/learner_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/model_owner.hpp"
#include "envs/registry.hpp"

namespace troupe::actors {

namespace {

constexpr auto shutdown_timeout = std::chrono::seconds(30);

model::net_spec net_spec_for(const run_config& config) {
  const auto env = envs::make_env(config.env);
  const auto& spec = env->spec();
  model::net_spec net;
  net.kind = config.model.kind;
  net.obs_shape = spec.observation.shape;
  net.obs_size = spec.observation.flat_size();
  net.continuous = spec.action.type == envs::space::kind::box;
  net.action_size = net.continuous ? spec.action.flat_size() : spec.action.n;
  net.hidden = config.model.hidden;
  net.shared_trunk = config.model.shared_trunk;
  net.log_std_init = config.model.log_std_init;
  if (net.kind == "cnn" && net.obs_shape.size() != 3)
    throw std::invalid_argument("model.kind: cnn needs image-like (H x W x C) observations, but " +
                                config.env.id + " has " + spec.observation.describe());
  return net;
}

void throw_on(const caf::error& err, const char* what) {
  throw std::runtime_error(std::string("shutdown: ") + what + ": " + caf::to_string(err));
}

}  // namespace

run_outcome coordinate(caf::actor_system& sys, const run_config& config,
                       const std::string& run_dir, const std::atomic<bool>& interrupted) {
  auto model = model::make_shared_model(net_spec_for(config), config.run.seed);
  model::warm_up(*model, config.batching.max_batch);

  run_outcome outcome;
  outcome.parameter_bytes = model::parameter_bytes(*model);
  caf::scoped_actor self{sys};
  const auto start = std::chrono::steady_clock::now();

  auto owner = spawn_model_owner(sys, model, {config.batching.max_batch, config.run.seed});
  metrics_config mcfg{config.run.stop, config.log,
                      run_dir.empty() ? std::string() : run_dir + "/metrics.csv", start};
  auto metrics = spawn_metrics(sys, mcfg, owner, caf::actor_cast<caf::actor>(self));
  auto learner = spawn_learner(sys, model, config.algo, metrics);
  std::vector<agent_actor> agents;
  for (int i = 0; i < config.agents.count; ++i) {
    agent_config acfg;
    acfg.id = static_cast<std::uint32_t>(i);
    acfg.env = config.env;
    acfg.envs = config.env.envs_per_agent;
    acfg.n_steps = config.algo.n_steps;
    acfg.max_rollouts_in_flight = config.algo.max_rollouts_in_flight;
    acfg.seed = config.run.seed * 1000003u + static_cast<std::uint64_t>(i);
    agents.push_back(spawn_agent(sys, acfg, owner, learner, metrics));
  }
  for (auto& a : agents) self->send(a, start_atom_v);

  // Wait for the first stop condition.
  const double wall_limit = config.run.stop.wall_seconds;
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  while (outcome.stop_reason.empty()) {
    self->receive([&](stop_request& r) { outcome.stop_reason = r.reason; },
                  caf::after(std::chrono::milliseconds(20)) >> [] {});
    if (outcome.stop_reason.empty() && interrupted.load()) outcome.stop_reason = "interrupted";
    if (outcome.stop_reason.empty() && wall_limit > 0 && elapsed() >= wall_limit)
      outcome.stop_reason = "wall_seconds";
  }
  outcome.wall_seconds = elapsed();

  // Shut down in causal order: agents first (each reports what it collected
  // and stops sending), then the learner trains what is already queued, then
  // the metrics actor has seen every report.
  for (auto& a : agents)
    self->request(a, shutdown_timeout, stop_atom_v)
        .receive(
            [&](const agent_final& f) {
              outcome.samples_collected += f.samples_collected;
              outcome.samples_dropped += f.samples_dropped;
            },
            [&](caf::error& err) { throw_on(err, "agent did not stop"); });
  self->request(learner, shutdown_timeout, drain_atom_v)
      .receive([&](const learner_final& f) { outcome.learner = f; },
               [&](caf::error& err) { throw_on(err, "learner did not drain"); });
  outcome.samples_dropped += outcome.learner.samples_dropped;
  self->request(owner, shutdown_timeout, stats_atom_v)
      .receive([&](const batch_stats& b) { outcome.batching = b; },
               [&](caf::error& err) { throw_on(err, "model-owner did not answer"); });
  self->request(metrics, shutdown_timeout, totals_atom_v)
      .receive([&](const metrics_totals& t) { outcome.totals = t; },
               [&](caf::error& err) { throw_on(err, "metrics did not answer"); });

  for (auto& a : agents) self->send_exit(a, caf::exit_reason::user_shutdown);
  self->send_exit(learner, caf::exit_reason::user_shutdown);
  self->send_exit(owner, caf::exit_reason::user_shutdown);
  self->send_exit(metrics, caf::exit_reason::user_shutdown);
  return outcome;
}

}  // namespace troupe::actors
