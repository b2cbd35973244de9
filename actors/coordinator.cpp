#include "actors/coordinator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <stdexcept>
#include <vector>

#include <caf/io/all.hpp>
#include <caf/openssl/all.hpp>

#include "actors/agent_actor.hpp"
#include "actors/cluster_gateway.hpp"
#include "actors/evaluator.hpp"
#include "actors/learner_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/model_owner.hpp"
#include "algo/a3c_learner.hpp"
#include "envs/registry.hpp"
#include "model/replica_clock.hpp"

namespace troupe::actors {

namespace {

constexpr auto shutdown_timeout = std::chrono::seconds(30);

}  // namespace

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

namespace {

void throw_on(const caf::error& err, const char* what) {
  throw std::runtime_error(std::string("shutdown: ") + what + ": " + caf::to_string(err));
}


namespace fs = std::filesystem;

std::string checkpoint_dir(const std::string& run_dir) { return run_dir + "/checkpoints"; }

// Checkpoint files sort by name in the order they were written.
std::vector<fs::path> checkpoints_in(const std::string& run_dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(checkpoint_dir(run_dir), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("ckpt-", 0) == 0 && entry.path().extension() == ".pt")
      found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// A seed for each random stream of each segment of a run.
std::uint64_t stream_seed(std::uint64_t run_seed, std::uint64_t stream, std::uint64_t segment) {
  std::seed_seq seq{run_seed, stream, segment};
  std::uint64_t out[1];
  seq.generate(reinterpret_cast<std::uint32_t*>(out), reinterpret_cast<std::uint32_t*>(out) + 2);
  return out[0];
}

}  // namespace

namespace {

// Spawns the gateway and publishes it (over TLS when configured).
cluster_gateway_actor serve_cluster(caf::actor_system& sys, const run_request& request,
                                    const std::vector<model_owner_actor>& owners,
                                    const std::vector<learner_actor>& learners,
                                    const metrics_actor& metrics) {
  const run_config& config = request.config;
  const auto env = envs::make_env(config.env);
  gateway_config g;
  g.token = request.cluster.token;
  g.config_yaml = request.cluster.worker_config_yaml;
  g.seed = stream_seed(config.run.seed, 1u << 21, 0);
  g.envs_per_agent = config.env.envs_per_agent;
  g.obs_size = static_cast<int>(env->spec().observation.flat_size());
  g.action_width = static_cast<int>(env->spec().action.flat_size());
  g.n_steps = config.algo.n_steps;
  g.frame_hub = request.frame_hub;
  g.first_view_slot = config.agents.count;  // after the learner's own agents
  auto gateway = spawn_gateway(sys, g, owners, learners, metrics);
  const auto& c = request.cluster;
  auto port = c.tls.enabled()
                  ? caf::openssl::publish(gateway, c.port, c.host.c_str(), true)
                  : sys.middleman().publish(gateway, c.port, c.host.c_str(), true);
  if (!port) {
    caf::anon_send_exit(gateway, caf::exit_reason::user_shutdown);
    throw std::runtime_error("cannot listen on " + c.host + ":" + std::to_string(c.port) + ": " +
                             sys.render(port.error()));
  }
  std::cout << "troupe: listening for workers on " << c.host << ":" << *port
            << (c.tls.enabled() ? " (TLS)" : "") << std::endl;
  return gateway;
}

}  // namespace

std::string newest_checkpoint(const std::string& run_dir) {
  const auto all = checkpoints_in(run_dir);
  return all.empty() ? std::string() : all.back().string();
}

namespace {

// The learners' counters added up (the lag: the largest).
learner_final sum_of(const std::vector<learner_final>& all) {
  learner_final total;
  for (const auto& f : all) {
    total.samples_trained += f.samples_trained;
    total.samples_dropped += f.samples_dropped;
    total.updates += f.updates;
    total.updates_skipped += f.updates_skipped;
    total.updates_refused += f.updates_refused;
    total.train_seconds += f.train_seconds;
    total.peer_updates += f.peer_updates;
    total.version = std::max(total.version, f.version);
    total.max_replica_lag = std::max(total.max_replica_lag, f.max_replica_lag);
  }
  return total;
}

}  // namespace

run_outcome coordinate(caf::actor_system& sys, const run_request& request,
                       const std::atomic<bool>& interrupted) {
  const run_config& config = request.config;
  // One parameter replica per device, all starting from replica 0's
  // parameters (and, resuming, all from the same checkpoint).
  const model::net_spec spec = net_spec_for(config);
  const size_t replicas = config.devices.size();
  std::vector<std::shared_ptr<model::shared_model>> models;
  std::vector<std::shared_ptr<algo::a3c_learner>> trainers;
  model::checkpoint_meta resumed;
  for (size_t d = 0; d < replicas; ++d) {
    models.push_back(model::make_shared_model(spec, config.run.seed, config.devices[d]));
    if (d > 0) model::copy_parameters(*models[0], *models[d]);
    trainers.push_back(std::make_shared<algo::a3c_learner>(models[d], config.algo));
    if (!request.resume_from.empty()) resumed = trainers[d]->restore(request.resume_from);
  }
  const std::uint64_t segment = request.resume_from.empty() ? 0 : resumed.segment + 1;
  for (auto& m : models) model::warm_up(*m, config.batching.max_batch);
  auto& model = models[0];  // the replica that checkpoints save and confirmations judge

  run_outcome outcome;
  outcome.parameter_bytes = model::parameter_bytes(*model);
  outcome.devices = config.devices;
  outcome.replica_max_lag_bound = replicas > 1 ? std::uint64_t(config.replicas.max_lag) : 0;
  caf::scoped_actor self{sys};
  const auto start = std::chrono::steady_clock::now();

  std::vector<model_owner_actor> owners;
  for (size_t d = 0; d < replicas; ++d) {
    // Replica 0 keeps the sampling stream a one-device run has.
    const std::uint64_t stream = d == 0 ? 0 : (std::uint64_t{1} << 22) + d;
    owners.push_back(spawn_model_owner(sys, models[d],
                                       {config.batching.max_batch,
                                        stream_seed(config.run.seed, stream, segment),
                                        config.batching.max_wait_us}));
  }
  auto& owner = owners[0];
  const bool on_disk = !request.run_dir.empty();
  metrics_config mcfg{config.run.stop, config.log,
                      on_disk ? request.run_dir + "/metrics.csv" : std::string(), start, resumed};
  evaluator_actor evaluator;
  if (config.run.stop.confirm_episodes > 0) {
    evaluator = spawn_evaluator(sys, model, config.env, config.run.stop.mean_return,
                                {models.begin() + 1, models.end()});
    mcfg.evaluator = evaluator;
    mcfg.confirm_seed = stream_seed(config.run.seed, 1u << 20, segment);
  }
  auto metrics = spawn_metrics(sys, mcfg, owner, caf::actor_cast<caf::actor>(self));
  if (request.frame_hub)
    self->send(request.frame_hub, metrics_atom_v, caf::actor_cast<caf::actor>(metrics));
  std::vector<learner_actor> learners;
  auto clock = replicas > 1 ? std::make_shared<model::replica_clock>(int(replicas)) : nullptr;
  for (size_t d = 0; d < replicas; ++d)
    learners.push_back(spawn_learner(
        sys, trainers[d], metrics,
        replica_setup{std::uint32_t(d), std::uint64_t(config.replicas.max_lag), clock}));
  if (replicas > 1) introduce_replicas(learners);
  auto& learner = learners[0];  // saves the checkpoints
  cluster_gateway_actor gateway;
  if (!request.cluster.host.empty())
    gateway = serve_cluster(sys, request, owners, learners, metrics);
  // Agents are supervised: one that fails (its environment throws, say) is
  // replaced by a fresh one with fresh environments, up to a budget.
  std::vector<agent_actor> agents(config.agents.count);
  auto start_agent = [&](int i, std::uint64_t incarnation) {
    const agent_config acfg = agent_config_for(
        config, static_cast<std::uint32_t>(i),
        stream_seed(config.run.seed, 1 + static_cast<std::uint64_t>(i), segment + (incarnation << 32)));
    // Agents are spread round-robin over the replicas.
    agents[i] = spawn_agent(sys, acfg, owners[i % replicas], learners[i % replicas], metrics);
    self->monitor(agents[i]);
    if (request.frame_hub)
      self->send(request.frame_hub, agent_atom_v, static_cast<std::int32_t>(i),
                 caf::actor_cast<caf::actor>(agents[i]));
    self->send(agents[i], start_atom_v);
  };
  for (int i = 0; i < config.agents.count; ++i) start_agent(i, 0);
  auto on_down = [&](const caf::down_msg& down) {
    for (int i = 0; i < config.agents.count; ++i) {
      if (agents[i].address() != down.source) continue;
      outcome.last_failure = caf::to_string(down.reason);
      if (++outcome.agent_restarts > config.agents.max_restarts) {
        outcome.stop_reason = "agent_failures";
        agents[i] = nullptr;
      } else {
        std::cerr << "troupe: agent " << i << " failed (" << outcome.last_failure
                  << "); restarting it\n";
        start_agent(i, outcome.agent_restarts);
      }
    }
  };

  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Saves a checkpoint with the counters as the metrics actor has them now.
  auto checkpoint = [&] {
    if (!on_disk) return;
    metrics_totals totals;
    self->request(metrics, shutdown_timeout, totals_atom_v)
        .receive([&](const metrics_totals& t) { totals = t; },
                 [&](caf::error& err) { throw_on(err, "metrics did not answer"); });
    model::checkpoint_meta meta;
    meta.env_steps = totals.env_steps;
    meta.episodes = totals.episodes;
    meta.updates = totals.updates;
    meta.samples_trained = totals.samples_trained;
    meta.wall_seconds = resumed.wall_seconds + elapsed();
    meta.segment = segment;
    meta.config_yaml = request.config_yaml;
    fs::create_directories(checkpoint_dir(request.run_dir));
    char name[64];
    std::snprintf(name, sizeof name, "/ckpt-%014lld.pt", static_cast<long long>(totals.env_steps));
    const std::string path = checkpoint_dir(request.run_dir) + name;
    self->request(learner, shutdown_timeout, checkpoint_atom_v, path, meta)
        .receive([&](std::uint64_t) { outcome.last_checkpoint = path; },
                 [&](caf::error& err) { throw_on(err, "checkpoint failed"); });
    const auto all = checkpoints_in(request.run_dir);
    for (size_t i = 0; i + config.checkpoint.keep < all.size(); ++i) fs::remove(all[i]);
  };

  // Wait for the first stop condition, checkpointing on the way.
  const double wall_limit = config.run.stop.wall_seconds;
  double last_checkpoint = 0;
  while (outcome.stop_reason.empty()) {
    self->receive([&](stop_request& r) { outcome.stop_reason = r.reason; },
                  [&](caf::down_msg& down) { on_down(down); },
                  caf::after(std::chrono::milliseconds(20)) >> [] {});
    if (outcome.stop_reason.empty() && interrupted.load()) outcome.stop_reason = "interrupted";
    if (outcome.stop_reason.empty() && wall_limit > 0 && elapsed() >= wall_limit)
      outcome.stop_reason = "wall_seconds";
    const double every = config.checkpoint.every_seconds;
    if (outcome.stop_reason.empty() && every > 0 && elapsed() - last_checkpoint >= every) {
      checkpoint();
      last_checkpoint = elapsed();
    }
  }
  outcome.wall_seconds = elapsed();

  // Shut down in causal order: agents first (each reports what it collected
  // and stops sending), then the learner trains what is already queued, then
  // the metrics actor has seen every report.
  if (gateway)  // workers first: nothing more is collected from them
    self->request(gateway, shutdown_timeout, stop_atom_v)
        .receive([&](const cluster_final& f) { outcome.cluster = f; },
                 [&](caf::error& err) { throw_on(err, "cluster gateway did not stop"); });
  for (auto& a : agents) {
    if (!a) continue;  // failed beyond the restart budget
    self->demonitor(a.address());
    self->request(a, shutdown_timeout, stop_atom_v)
        .receive([&](const agent_final& f) { outcome.samples_dropped += f.samples_dropped; },
                 [&](caf::error& err) {
                   // It failed just now: its unsent steps were never reported.
                   outcome.last_failure = caf::to_string(err);
                 });
  }
  // A learner answers once every peer has applied every update of its own,
  // so when all have answered, every replica holds every update; a second
  // round (answered at once) collects counters that include all of them.
  for (size_t pass = 0; pass < (replicas > 1 ? 2 : 1); ++pass) {
    outcome.replicas.clear();
    for (auto& l : learners)
      self->request(l, shutdown_timeout, drain_atom_v)
          .receive([&](const learner_final& f) { outcome.replicas.push_back(f); },
                   [&](caf::error& err) { throw_on(err, "learner did not drain"); });
  }
  outcome.learner = sum_of(outcome.replicas);
  outcome.samples_dropped += outcome.learner.samples_dropped;
  for (auto& o : owners)
    self->request(o, shutdown_timeout, stats_atom_v)
        .receive([&](const batch_stats& b) { outcome.batching.merge(b); },
                 [&](caf::error& err) { throw_on(err, "model-owner did not answer"); });
  checkpoint();  // the final one
  self->request(metrics, shutdown_timeout, totals_atom_v)
      .receive([&](const metrics_totals& t) { outcome.totals = t; },
               [&](caf::error& err) { throw_on(err, "metrics did not answer"); });
  // Every step an agent took was reported to the metrics actor with the
  // rollout that carried it (or at stop, as dropped), so the reports count
  // what was collected, also by agents that failed and were replaced.
  outcome.samples_collected = outcome.totals.env_steps - resumed.env_steps;

  for (auto& a : agents)
    if (a) self->send_exit(a, caf::exit_reason::user_shutdown);
  for (auto& l : learners) self->send_exit(l, caf::exit_reason::user_shutdown);
  for (auto& o : owners) self->send_exit(o, caf::exit_reason::user_shutdown);
  self->send_exit(metrics, caf::exit_reason::user_shutdown);
  if (gateway) self->send_exit(gateway, caf::exit_reason::user_shutdown);
  if (evaluator) self->send_exit(evaluator, caf::exit_reason::user_shutdown);
  return outcome;
}

}  // namespace troupe::actors
