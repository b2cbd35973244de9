#include "actors/run_builder.hpp"

#include <ATen/Context.h>

#include <iostream>
#include <stdexcept>

#include "actors/net/front_door.hpp"
#include "run/component_configs.hpp"
#include "run/config_loader.hpp"
#include "run/run_directory.hpp"
#include "algo/learner.hpp"
#include "envs/registry.hpp"
#include "model/replica_clock.hpp"

namespace troupe::actors {

namespace {

// Spawns the gateway and publishes it (over TLS when configured).
cluster_gateway_actor serve_cluster(caf::actor_system& sys, const run_request& request,
                                    run_parts& run) {
  const run::run_config& config = request.config;
  gateway_config g;
  g.token = request.cluster.token;
  g.config_yaml = request.cluster.worker_config_yaml;
  g.seed = run.streams.workers();
  g.shapes.envs_per_agent = config.env.envs_per_agent;
  g.shapes.obs_size = run.env.observation.flat_size();
  g.shapes.action_width = run.env.action.flat_size();
  g.shapes.state_size = config.model.recurrent.state_size();
  g.shapes.n_steps = config.algo.n_steps;
  g.shapes.mask_size = run.env.has_action_mask ? run.env.action.choice_count() : 0;
  g.shapes.mask_heads = run.env.action.categories();
  g.frame_hub = request.frame_hub;
  g.first_view_slot = config.agents.count;  // after the learner's own agents
  auto gateway = spawn_gateway(sys, g, run.owners, run.learners, run.metrics);
  const auto& c = request.cluster;
  auto door = publish_behind_door(sys, gateway, c.host, c.port, c.tls, config.cluster.limits,
                                  "cluster port");
  if (!door) {
    caf::scoped_actor self{sys};  // the gateway takes exits from this process only
    self->send_exit(gateway, caf::exit_reason::user_shutdown);
    throw std::runtime_error("cannot listen on " + c.host + ":" + std::to_string(c.port) + ": " +
                             sys.render(door.error()));
  }
  std::cout << "troupe: listening for workers on " << c.host << ":" << door->port
            << (c.tls.enabled() ? " (TLS)" : "") << std::endl;
  run.cluster_door = door->broker;
  return gateway;
}

}  // namespace

namespace {
// Self-play's snapshots, counted in the learner's updates. A snapshot that
// cannot be written (a full disk) is said once and skipped: training goes on.
update_hook snapshot_hook(const std::shared_ptr<selfplay_pool>& pool) {
  if (!pool) return {};
  return [pool, warned = false](std::int64_t updates) mutable {
    try {
      pool->on_updates(updates);
    } catch (const std::exception& e) {
      if (!warned) std::cerr << "troupe: warning: self-play snapshot skipped: " << e.what() << "\n";
      warned = true;
    }
  };
}
}  // namespace

run_parts build_run(caf::actor_system& sys, const run_request& request, run_control coordinator,
                    std::chrono::steady_clock::time_point start) {
  const run::run_config& config = request.config;
  run_parts run;
  run.env = request.env.id.empty() ? envs::spec_of(config.env) : request.env;
  // One parameter replica per device, all starting from replica 0's
  // parameters (and, resuming, all from the same checkpoint).
  const model::net_spec spec = run::net_spec_for(config, run.env);
  const size_t replicas = config.devices.size();
  const auto bad_checkpoint = [](const model::checkpoint_error& e) {
    return run::config_error(e.what());  // bad input: another architecture, say
  };
  if (!request.resume_from.empty()) {
    try {
      run.resumed = model::read_checkpoint_meta(request.resume_from);
    } catch (const model::checkpoint_error& e) {
      throw bad_checkpoint(e);
    }
  }
  run.segment = request.resume_from.empty() ? 0 : run.resumed.segment + 1;
  const bool deterministic = config.run.deterministic;
  // LibTorch's operations that have a nondeterministic kernel raise instead.
  if (deterministic) at::globalContext().setDeterministicAlgorithms(true, false);
  run.streams = agents::run_streams(config.run.seed, run.segment);
  for (size_t d = 0; d < replicas; ++d) {
    run.models.push_back(model::make_shared_model(spec, config.run.seed, config.devices[d]));
    if (d > 0) model::copy_parameters(*run.models[0], *run.models[d]);
    run.trainers.push_back(std::make_shared<algo::learner>(
        run.models[d], run::learner_config_for(config, run.env, run.streams.learner(d))));
    if (!request.resume_from.empty()) {
      try {
        run.resumed = run.trainers[d]->restore(request.resume_from);
      } catch (const model::checkpoint_error& e) {
        throw bad_checkpoint(e);
      }
    }
  }
  for (auto& m : run.models) model::warm_up(*m, config.batching.max_batch);

  for (size_t d = 0; d < replicas; ++d) {
    run.lanes.push_back(config.batching.lane ? std::make_shared<predict_lane>() : nullptr);
    run.owners.push_back(spawn_model_owner(sys, run.models[d], config.batching,
                                           run.streams.owner(d), run.lanes.back(), deterministic));
  }
  if (config.selfplay.enabled) {
    if (!request.cluster.host.empty())
      throw std::invalid_argument("selfplay.enabled: not with cluster workers yet (their agents reach the learning policy's owner alone): train on one node");
    selfplay_setup setup{config.selfplay, config.batching, run.streams.snapshots(), "", request.config_yaml};
    if (!request.run_dir.empty()) setup.dir = run::run_directory{request.run_dir}.selfplay_dir();
    run.selfplay = std::make_shared<selfplay_pool>(sys, run.models[0], run.owners[0], run.lanes[0], setup);
    if (!request.resume_from.empty()) run.selfplay->restore();
  }
  metrics_config mcfg{config.run.stop, config.log,
                      request.run_dir.empty() ? std::string()
                                              : run::run_directory{request.run_dir}.metrics_file(),
                      start, run.resumed};
  if (config.log.tensorboard && !request.run_dir.empty())
    mcfg.tensorboard_dir = run::run_directory{request.run_dir}.tensorboard_dir();
  const bool keeps_best = config.checkpoint.best.episodes > 0 && !request.run_dir.empty();
  if (config.run.stop.confirm_episodes > 0 || keeps_best) {
    // Replica 0's parameters are judged (and saved by checkpoints).
    evaluator_config ecfg{config.env, config.run.stop.mean_return, "", run.segment,
                          request.config_yaml};
    if (keeps_best) ecfg.best_path = run::run_directory{request.run_dir}.checkpoints().best();
    run.best_gate = ecfg.best_gate;
    run.evaluator = spawn_evaluator(sys, run.models[0], ecfg, {run.models.begin() + 1, run.models.end()});
    mcfg.evaluator = run.evaluator;
    mcfg.confirm_seed = run.streams.confirmation();
  }
  mcfg.best = config.checkpoint.best;
  if (deterministic) mcfg.deterministic_agents = config.agents.count;
  if (run.selfplay) mcfg.league = run.selfplay->shared_league();
  run.metrics = spawn_metrics(sys, mcfg, run.owners[0], std::move(coordinator));
  auto clock = replicas > 1 ? std::make_shared<model::replica_clock>(int(replicas)) : nullptr;
  for (size_t d = 0; d < replicas; ++d)
    run.learners.push_back(spawn_learner(
        sys, run.trainers[d], run.metrics,
        replica_setup{std::uint32_t(d), std::uint64_t(config.replicas.max_lag), clock},
        rollout_admission{deterministic ? 0 : algo::rollout_budget(config.algo),  // rounds bound the lag
                          config.algo.max_rollouts_in_flight,
                          std::uint64_t(algo::max_policy_lag(config.algo)),
                          deterministic ? config.agents.count : 0},
        d == 0 ? snapshot_hook(run.selfplay) : update_hook{}));
  if (replicas > 1) introduce_replicas(sys, run.learners);
  if (!request.cluster.host.empty()) run.gateway = serve_cluster(sys, request, run);
  return run;
}

void run_parts::exit_all(caf::actor_system& sys) const {
  // From an actor of this process: the gateway drops anonymous exits (a
  // peer can send those; see actors/net/network_facing.hpp).
  caf::scoped_actor self{sys};
  const auto quit = caf::exit_reason::user_shutdown;
  for (const auto& l : learners) self->send_exit(l, quit);
  for (const auto& o : owners) self->send_exit(o, quit);
  if (selfplay) selfplay->stop();
  if (metrics) self->send_exit(metrics, quit);
  if (gateway) self->send_exit(gateway, quit);
  // The door closes its connections itself, a moment after it is told.
  if (cluster_door) self->send(cluster_door, stop_atom_v);
  if (evaluator) self->send_exit(evaluator, quit);
}

}  // namespace troupe::actors
