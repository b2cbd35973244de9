#include "actors/run_builder.hpp"

#include <ATen/Context.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "actors/matchups.hpp"
#include "actors/net/front_door.hpp"
#include "agents/league/population.hpp"
#include "algo/hyperparameters.hpp"
#include "algo/learner.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "model/replica_clock.hpp"
#include "run/component_configs.hpp"
#include "run/config_loader.hpp"
#include "run/run_directory.hpp"

namespace troupe::actors {

namespace {

// What a worker's agents of policy `index` are made from and checked
// against, and what plays their games' other seat here.
gateway_policy gateway_policy_of(const run::run_config& config, const run_parts& run, size_t index) {
  const policy_parts& policy = run.policies[index];
  const run::run_config& own = policy.plan.config;
  gateway_policy g;
  g.owners = policy.owners;
  g.learners = policy.learners;
  g.metrics = policy.metrics;
  run::run_config for_workers = own;
  for_workers.cluster = {};  // the token and key paths stay on the learner
  g.config_yaml = run::to_yaml(for_workers);
  // An agent's rows: its games times the agents it plays in each.
  const auto shapes_of = [&](const envs::env_spec& spec, const envs::env_config& side) {
    run_shapes s;
    s.rows_per_agent = own.env.envs_per_agent * catalog::rows_per_env(side);
    s.obs_size = spec.observation.flat_size();
    s.action_width = spec.action.flat_size();
    s.state_size = own.model.recurrent.state_size();
    s.n_steps = own.algo.n_steps;
    s.mask_size = spec.has_action_mask ? spec.action.choice_count() : 0;
    s.mask_heads = spec.action.categories();
    return s;
  };
  g.shapes = shapes_of(policy.plan.env, own.env);
  if (opponent_source source = opponents_of(config, run, index)) {
    // Its games, each asking moves for the agents outside its side.
    g.opponent_shapes = shapes_of(policy.plan.other_env, own.env);
    g.opponent_shapes.rows_per_agent = own.env.envs_per_agent;
    g.opponent_shapes.game_agents = policy.plan.game_agents;
    g.opponent_shapes.movers_per_game = std::max(1, policy.plan.game_agents - catalog::rows_per_env(own.env));
    g.opponents = [source, games = own.env.envs_per_agent, env = own.env,
                   spec = policy.plan.other_env](caf::actor_system& sys) { return source(sys, games, env, spec); };
  }
  return g;
}

// Spawns the gateway and publishes it (over TLS when configured). Workers'
// agents are dealt to the policies in turn.
cluster_gateway_actor serve_cluster(caf::actor_system& sys, const run_request& request,
                                    run_parts& run) {
  const run::run_config& config = request.config;
  gateway_config g;
  g.token = request.cluster.token;
  g.seed = run.policies.front().streams.workers();
  g.frame_hub = request.frame_hub;
  // After the learner's own agents.
  for (const auto& policy : run.policies) g.first_view_slot += policy.plan.config.agents.count;
  std::vector<gateway_policy> served;
  for (size_t p = 0; p < run.policies.size(); ++p) served.push_back(gateway_policy_of(config, run, p));
  auto gateway = spawn_gateway(sys, g, std::move(served));
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

// Self-play's snapshots of a learner's parameters, counted in its updates,
// for every pool that holds them (its own policy's, or with policies: the
// other policy's league). A snapshot that cannot be written (a full disk)
// is said once and skipped: training goes on.
update_hook snapshot_hook(std::vector<std::shared_ptr<selfplay_pool>> pools) {
  if (pools.empty()) return {};
  return [pools = std::move(pools), warned = false](std::int64_t updates) mutable {
    for (const auto& pool : pools) try {
        pool->on_updates(updates);
      } catch (const std::exception& e) {
        if (!warned) std::cerr << "troupe: warning: self-play snapshot skipped: " << e.what() << "\n";
        warned = true;
      }
  };
}

// What every policy of a run shares.
struct shared_setup {
  const run_request& request;
  std::chrono::steady_clock::time_point start;
  run_control coordinator;
  // Several policies: their env steps together (run.stop.env_steps counts these).
  std::shared_ptr<std::atomic<std::int64_t>> run_env_steps;
};

// Policy `index`'s parameters: one replica per device and its learner,
// from its checkpoint when it resumes. Every policy's are made before any
// actor starts, so that an evaluator can be given the other policy's.
policy_parts make_parameters(policy_request plan, size_t index) {
  policy_parts policy;
  policy.plan = std::move(plan);
  const policy_request& p = policy.plan;
  const run::run_config& config = p.config;
  // One parameter replica per device, all starting from replica 0's
  // parameters (and, resuming, all from the same checkpoint).
  const model::net_spec spec = run::net_spec_for(config, p.env);
  const size_t replicas = config.devices.size();
  const auto bad_checkpoint = [](const model::checkpoint_error& e) {
    return run::config_error(e.what());  // bad input: another architecture, say
  };
  if (!p.resume_from.empty()) {
    try {
      policy.resumed = model::read_checkpoint_meta(p.resume_from);
    } catch (const model::checkpoint_error& e) {
      throw bad_checkpoint(e);
    }
  }
  policy.segment = p.resume_from.empty() ? 0 : policy.resumed.segment + 1;
  const std::uint64_t seed = agents::run_streams::policy_seed(config.run.seed, index);
  policy.streams = agents::run_streams(seed, policy.segment);
  for (size_t d = 0; d < replicas; ++d) {
    policy.models.push_back(model::make_shared_model(spec, seed, config.devices[d]));
    if (d > 0) model::copy_parameters(*policy.models[0], *policy.models[d]);
    policy.trainers.push_back(std::make_shared<algo::learner>(
        policy.models[d], run::learner_config_for(config, p.env, policy.streams.learner(d))));
    if (!p.resume_from.empty()) {
      try {
        policy.resumed = policy.trainers[d]->restore(p.resume_from);
      } catch (const model::checkpoint_error& e) {
        throw bad_checkpoint(e);
      }
    }
  }
  for (auto& m : policy.models) model::warm_up(*m, config.batching.max_batch);
  return policy;
}

// A policy's model-owners, one per replica. Every policy's are started
// before any pool, which serves the policy its snapshots are of.
void start_owners(caf::actor_system& sys, policy_parts& policy) {
  const run::run_config& config = policy.plan.config;
  for (size_t d = 0; d < config.devices.size(); ++d) {
    policy.lanes.push_back(config.batching.lane ? std::make_shared<predict_lane>() : nullptr);
    policy.owners.push_back(spawn_model_owner(sys, policy.models[d], config.batching, policy.streams.owner(d),
                                              policy.lanes.back(), config.run.deterministic));
  }
}

// With selfplay.enabled, policy `owner`'s league (in its folder, its Elo
// and draws) of the snapshots of policy `source`: itself, or with
// policies: the other policy, whose learner takes them.
void start_league(caf::actor_system& sys, policy_parts& owner, const policy_parts& source) {
  const policy_request& p = owner.plan;
  selfplay_setup setup{p.config.selfplay, p.config.batching, owner.streams.snapshots(), "",
                       source.plan.config_yaml, rating_seats(p.config.env.versus, p.game_agents)};
  if (!p.run_dir.empty()) setup.dir = run::run_directory{p.run_dir}.selfplay_dir();
  owner.selfplay =
      std::make_shared<selfplay_pool>(sys, source.models[0], source.owners[0], source.lanes[0], std::move(setup));
  if (!p.resume_from.empty()) owner.selfplay->restore();
}

// A policy's evaluator, metrics and learners, started (its owners and
// league are). `rivals`: the policies that play the other side of its
// games (policies:), which its evaluator plays against too; none:
// env.opponent plays them there. `snapshots`: the pools its learner's
// parameters are frozen into.
void start_policy(caf::actor_system& sys, const shared_setup& shared, policy_parts& policy,
                  std::vector<rival_policy> rivals, std::vector<std::shared_ptr<selfplay_pool>> snapshots) {
  const policy_request& p = policy.plan;
  const run::run_config& config = p.config;
  const size_t replicas = config.devices.size();
  const bool deterministic = config.run.deterministic;
  const run::run_directory dir{p.run_dir};
  metrics_config mcfg{config.run.stop, config.log, p.run_dir.empty() ? std::string() : dir.metrics_file(),
                      shared.start, policy.resumed};
  // One TensorBoard folder for the run, a subfolder per named policy.
  if (config.log.tensorboard && !p.run_dir.empty())
    mcfg.tensorboard_dir = p.name.empty() ? dir.tensorboard_dir()
                                          : run::run_directory{shared.request.run_dir}.tensorboard_dir() + "/" + p.name;
  const bool keeps_best = config.checkpoint.best.episodes > 0 && !p.run_dir.empty();
  if (config.run.stop.confirm_episodes > 0 || keeps_best) {
    // Replica 0's parameters are judged (and saved by checkpoints).
    evaluator_config ecfg{config.env, config.run.stop.mean_return, "", policy.segment, p.config_yaml};
    ecfg.rivals = std::move(rivals);
    if (keeps_best) ecfg.best_path = dir.checkpoints().best();
    policy.best_gate = ecfg.best_gate;
    policy.evaluator = spawn_evaluator(sys, policy.models[0], ecfg, {policy.models.begin() + 1, policy.models.end()});
    mcfg.evaluator = policy.evaluator;
    mcfg.confirm_seed = policy.streams.confirmation();
  }
  mcfg.best = config.checkpoint.best;
  if (deterministic) mcfg.deterministic_agents = config.agents.count;
  if (policy.selfplay) mcfg.league = policy.selfplay->shared_league();
  if (!p.name.empty()) mcfg.label = p.name + " ";
  mcfg.run_env_steps = shared.run_env_steps;
  policy.metrics = spawn_metrics(sys, mcfg, policy.owners[0], shared.coordinator);
  auto clock = replicas > 1 ? std::make_shared<model::replica_clock>(int(replicas)) : nullptr;
  for (size_t d = 0; d < replicas; ++d)
    policy.learners.push_back(spawn_learner(
        sys, policy.trainers[d], policy.metrics,
        replica_setup{std::uint32_t(d), std::uint64_t(config.replicas.max_lag), clock},
        rollout_admission{deterministic ? 0 : algo::rollout_budget(config.algo),  // rounds bound the lag
                          config.algo.max_rollouts_in_flight,
                          std::uint64_t(algo::max_policy_lag(config.algo)),
                          deterministic ? config.agents.count : 0},
        d == 0 ? snapshot_hook(snapshots) : update_hook{}));
  if (replicas > 1) introduce_replicas(sys, policy.learners);
}

}  // namespace

namespace {
// The agents of the game the run's policies play against a league or each
// other (made once, to ask); none for an environment, or one side of a game
// against env.opponent.
catalog::game_agents agents_played(const run_request& request) {
  const run::run_config& config = request.config;
  if (!(config.selfplay.enabled || !config.policies.empty()) || !catalog::is_game(config.env.id)) return {};
  try {
    return catalog::game_agents_of(config.env);
  } catch (const envs::env_key_error& e) {
    throw run::config_error((request.run_dir.empty() ? std::string("the run") : request.run_dir) + ": key '" + e.key +
                            "': " + e.what());
  }
}

// Policy p's spaces and, in a game of `agents`, the other side's: those of
// the seat or team plan_policies gave it (env.seat, env.team), which may
// differ.
void seat_spaces(const run_request& request, const catalog::game_agents& agents, policy_request& p) {
  const run::run_config& config = request.config;
  try {
    if (agents.names.size() < 2) {
      const bool as_read = !request.env.id.empty() && p.config.env.versus.seat == config.env.versus.seat;
      p.env = as_read ? request.env : catalog::spec_of(p.config.env);
      return;
    }
    std::vector<const envs::env_spec*> specs;
    for (const auto& s : agents.specs) specs.push_back(&s);
    const games::side_specs sides = games::specs_of_side(specs, agents.names, games::parse_seat(p.config.env.versus.seat),
                                                       catalog::team_agents(p.config.env, agents.names));
    p.env = *sides.own;
    p.other_env = *sides.other;
    p.game_agents = int(agents.names.size());
  } catch (const envs::env_key_error& e) {
    throw run::config_error((request.run_dir.empty() ? std::string("the run") : request.run_dir) + ": key '" + e.key +
                            "': " + e.what() + (p.name.empty() ? "" : " (policy '" + p.name + "')"));
  }
}
}  // namespace

std::vector<policy_request> plan_requests(const run_request& request, bool resuming) {
  const run::run_config& config = request.config;
  std::vector<policy_request> out;
  const std::optional<agents::population> members =
      config.pbt.enabled() ? std::optional<agents::population>(std::in_place, config.pbt, config.run.seed) : std::nullopt;
  const catalog::game_agents played = agents_played(request);
  for (run::policy_plan& plan : run::plan_policies(config, request.run_dir.empty() ? "the run" : request.run_dir)) {
    policy_request p;
    p.name = plan.name;
    p.config = std::move(plan.config);
    if (members)  // the population's first draw
      for (const auto& [key, value] : members->initial(int(out.size())))
        *algo::hyperparameter(p.config.algo, key) = value;
    p.config_yaml = p.name.empty() ? request.config_yaml : run::to_yaml(p.config);
    p.agents = plan.agents;
    seat_spaces(request, played, p);
    p.run_dir = request.run_dir.empty() || plan.folder.empty() ? request.run_dir : request.run_dir + "/" + plan.folder;
    if (resuming && plan.folder.empty()) {
      p.resume_from = request.resume_from;
    } else if (resuming) {  // a policy or member killed before its first checkpoint starts afresh
      const run::run_directory own{p.run_dir};
      if (!own.checkpoints().newest().empty()) p.resume_from = own.resume_point();
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<policy_request> policy_requests(const run_request& request) {
  if (!request.policies.empty()) return request.policies;
  return plan_requests(request, !request.resume_from.empty());
}

run_parts build_run(caf::actor_system& sys, const run_request& request, run_control coordinator,
                    std::chrono::steady_clock::time_point start) {
  const run::run_config& config = request.config;
  run_parts run;
  // LibTorch's operations that have a nondeterministic kernel raise instead.
  if (config.run.deterministic) at::globalContext().setDeterministicAlgorithms(true, false);
  std::vector<policy_request> plans = policy_requests(request);
  run.env = plans.front().env;
  shared_setup shared{request, start, std::move(coordinator), nullptr};
  if (plans.size() > 1) {
    std::int64_t before = 0;  // what the policies' earlier segments stepped
    for (const auto& p : plans)
      if (!p.resume_from.empty()) try {
          before += model::read_checkpoint_meta(p.resume_from).env_steps;
        } catch (const model::checkpoint_error& e) {
          throw run::config_error(e.what());
        }
    shared.run_env_steps = std::make_shared<std::atomic<std::int64_t>>(before);
  }
  for (size_t i = 0; i < plans.size(); ++i) run.policies.push_back(make_parameters(std::move(plans[i]), i));
  for (auto& policy : run.policies) start_owners(sys, policy);
  std::vector<std::vector<std::shared_ptr<selfplay_pool>>> snapshots(run.policies.size());
  for (size_t i = 0; i < run.policies.size(); ++i)
    if (run.policies[i].plan.config.selfplay.enabled) {
      const size_t source = league_source(config, run, i);
      start_league(sys, run.policies[i], run.policies[source]);
      snapshots[source].push_back(run.policies[i].selfplay);
    }
  for (size_t i = 0; i < run.policies.size(); ++i) {
    // Several policies play each other: each one's evaluator plays the
    // others' latest parameters (and its own, for its agents outside its
    // seat), as its agents do (opponents_of) when they do not play a league.
    std::vector<rival_policy> rivals;
    for (size_t q : rivals_of(config, run, i)) rivals.push_back({run.policies[q].models[0], run.policies[q].plan.agents});
    start_policy(sys, shared, run.policies[i], std::move(rivals), std::move(snapshots[i]));
  }
  if (!request.cluster.host.empty()) run.gateway = serve_cluster(sys, request, run);
  return run;
}

void run_parts::exit_all(caf::actor_system& sys) const {
  // From an actor of this process: the gateway drops anonymous exits (a
  // peer can send those; see actors/net/network_facing.hpp).
  caf::scoped_actor self{sys};
  const auto quit = caf::exit_reason::user_shutdown;
  for (const auto& policy : policies) {
    for (const auto& l : policy.learners) self->send_exit(l, quit);
    for (const auto& o : policy.owners) self->send_exit(o, quit);
    if (policy.selfplay) policy.selfplay->stop();
    if (policy.metrics) self->send_exit(policy.metrics, quit);
    if (policy.evaluator) self->send_exit(policy.evaluator, quit);
  }
  if (gateway) self->send_exit(gateway, quit);
  // The door closes its connections itself, a moment after it is told.
  if (cluster_door) self->send(cluster_door, stop_atom_v);
}

}  // namespace troupe::actors
