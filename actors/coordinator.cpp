#include "actors/coordinator.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "actors/agent_supervisor.hpp"
#include "actors/errors.hpp"
#include "algo/learner.hpp"
#include "run/run_directory.hpp"

namespace troupe::actors {

namespace {

constexpr auto shutdown_timeout = std::chrono::seconds(30);
// Between messages, how often the clock and the interrupt flag are read.
constexpr auto stop_poll = std::chrono::milliseconds(20);

void throw_on(const caf::error& err, const char* what) {
  throw std::runtime_error(std::string("shutdown: ") + what + ": " + caf::to_string(err));
}

// The learners' counters added up (the lag: the largest).
learner_final sum_of(const std::vector<learner_final>& all) {
  learner_final total;
  for (const auto& f : all) {
    total.samples_trained += f.samples_trained;
    total.samples_dropped += f.samples_dropped;
    total.samples_stale += f.samples_stale;
    total.acks_held += f.acks_held;
    total.updates += f.updates;
    total.updates_skipped += f.updates_skipped;
    total.updates_refused += f.updates_refused;
    total.batches += f.batches;
    total.train_seconds += f.train_seconds;
    total.peer_updates += f.peer_updates;
    total.foreign_refused += f.foreign_refused;
    total.foreign_replica_updates += f.foreign_replica_updates;
    total.version = std::max(total.version, f.version);
    total.max_replica_lag = std::max(total.max_replica_lag, f.max_replica_lag);
  }
  return total;
}

metrics_totals totals_of(caf::scoped_actor& self, const metrics_actor& metrics) {
  metrics_totals totals;
  self->request(metrics, shutdown_timeout, totals_atom_v)
      .receive([&](const metrics_totals& t) { totals = t; },
               [&](caf::error& err) { throw_on(err, "metrics did not answer"); });
  return totals;
}

// This node's agents: agent i is served by replica i mod the replica count.
agent_supervisor supervise_agents(caf::actor_system& sys, caf::scoped_actor& self,
                                  const run_request& request, const run_parts& run) {
  const run::run_config& config = request.config;
  std::vector<agent_config> configs;
  std::vector<agent_supervisor::wiring> wires;
  for (int i = 0; i < config.agents.count; ++i) {
    configs.push_back(agent_config_for(config, std::uint32_t(i), 0));
    const size_t replica = size_t(i) % run.owners.size();
    wires.push_back({run.owners[replica], run.lanes[replica], run.learners[replica], run.metrics, run.selfplay});
  }
  const agents::run_streams streams = run.streams;
  auto seeds = [streams](size_t i, std::uint64_t incarnation) {
    return streams.agent(i, incarnation);
  };
  auto named = [&self, hub = request.frame_hub](size_t i, const agent_actor& agent) {
    if (hub) self->send(hub, agent_atom_v, std::int32_t(i), agent);
  };
  // A deterministic run's replacement agent would begin its rollouts anew and
  // its rounds could never be whole: a failure ends that run.
  const int max_restarts = config.run.deterministic ? 0 : config.agents.max_restarts;
  return agent_supervisor(sys, self, std::move(configs), std::move(wires), max_restarts, seeds,
                          named);
}

// One run (segment) under way: what the phases below share.
struct running {
  caf::actor_system& sys;
  const run_request& request;
  caf::scoped_actor self;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  run_parts run;
  run_outcome outcome;

  running(caf::actor_system& s, const run_request& r) : sys(s), request(r), self(s) {}

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

// Saves a checkpoint (replica 0's learner writes it) with the counters as the
// metrics actor has them now. False when it could not be written (a full
// disk, say): the older checkpoints are still there, untouched.
bool checkpoint(running& r) {
  if (r.request.run_dir.empty()) return true;
  const model::checkpoint_store store =
      run::run_directory{r.request.run_dir}.checkpoints(r.request.config.checkpoint.keep);
  const metrics_totals totals = totals_of(r.self, r.run.metrics);
  model::checkpoint_meta meta;
  meta.env_steps = totals.env_steps;
  meta.episodes = totals.episodes;
  meta.updates = totals.updates;
  meta.samples_trained = totals.samples_trained;
  meta.wall_seconds = r.run.resumed.wall_seconds + r.elapsed();
  meta.segment = r.run.segment;
  meta.config_yaml = r.request.config_yaml;
  bool written = false;
  try {
    const std::string path = store.path_for(totals.env_steps);
    r.self->request(r.run.learners[0], shutdown_timeout, checkpoint_atom_v, path, meta)
        .receive(
            [&](std::uint64_t) {
              r.outcome.last_checkpoint = path;
              written = true;
            },
            [&](caf::error& err) {
              r.outcome.checkpoint_failure = code_of(err) == errc::none ? caf::to_string(err)
                                                                        : detail_of(err);
            });
    if (written) store.prune();
    // The league as of this checkpoint: a resumed run restores it.
    if (written && r.run.selfplay) r.run.selfplay->save();
  } catch (const std::exception& e) {  // the checkpoints directory itself
    r.outcome.checkpoint_failure = e.what();
    written = false;
  }
  return written;
}

// What best.pt holds now, if the run keeps one: closed to the evaluator
// first, so an evaluation that ends later cannot replace what the summary
// names.
void read_best(running& r) {
  if (r.run.best_gate) r.run.best_gate->close();
  if (r.request.run_dir.empty()) return;
  const std::string path = run::run_directory{r.request.run_dir}.checkpoints().best();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  try {
    r.outcome.best = model::read_checkpoint_meta(path);
    r.outcome.best_checkpoint = path;
  } catch (const model::checkpoint_error& e) {
    std::cerr << "troupe: warning: " << e.what() << std::endl;
  }
}

// Waits for the first stop condition, checkpointing on the way. The
// metrics actor's conditions (a solve, the step budget) and the agents'
// failures arrive as messages; the wall-clock ones are read between them,
// and an interrupt too (a signal handler sets a flag: it cannot send a
// message).
run::stop_reason wait_for_stop(running& r, agent_supervisor& agents, const std::atomic<bool>& interrupted) {
  const run::run_config& config = r.request.config;
  const double wall_limit = config.run.stop.wall_seconds;
  const double every = config.checkpoint.every_seconds;
  double last_checkpoint = 0;
  run::stop_reason reason = run::stop_reason::none;
  while (reason == run::stop_reason::none) {
    r.self->receive([&](stop_request& s) { reason = s.reason; },
                    [&](caf::down_msg& down) {
                      if (agents.on_down(down) && agents.over_budget())
                        reason = run::stop_reason::agent_failures;
                    },
                    caf::after(stop_poll) >> [] {});
    if (reason != run::stop_reason::none) break;
    if (interrupted.load()) return run::stop_reason::interrupted;
    if (wall_limit > 0 && r.elapsed() >= wall_limit) return run::stop_reason::wall_seconds;
    if (every > 0 && r.elapsed() - last_checkpoint >= every) {
      if (!checkpoint(r)) return run::stop_reason::checkpoint_failed;
      last_checkpoint = r.elapsed();
    }
  }
  return reason;
}

// Shuts the run down in causal order: the cluster's workers and this
// node's agents first (each reports what it collected and stops sending),
// then the learners train what is already queued, then the metrics actor
// has seen every report; a final checkpoint and the totals last.
void shut_down(running& r, agent_supervisor& agents) {
  run_outcome& outcome = r.outcome;
  const run_parts& run = r.run;
  auto& self = r.self;
  if (run.gateway)  // workers first: nothing more is collected from them
    self->request(run.gateway, shutdown_timeout, stop_atom_v)
        .receive([&](const cluster_final& f) { outcome.cluster = f; },
                 [&](caf::error& err) { throw_on(err, "cluster gateway did not stop"); });

  outcome.samples_dropped += agents.stop_all(shutdown_timeout);
  outcome.agent_restarts = agents.failures();
  outcome.last_failure = agents.last_failure();
  // A learner answers once every peer has applied every update of its own,
  // so when all have answered, every replica holds every update; a second
  // round (answered at once) collects counters that include all of them.
  const size_t replicas = run.models.size();
  for (size_t pass = 0; pass < (replicas > 1 ? 2 : 1); ++pass) {
    outcome.replicas.clear();
    for (auto& l : run.learners)
      self->request(l, shutdown_timeout, drain_atom_v)
          .receive([&](const learner_final& f) { outcome.replicas.push_back(f); },
                   [&](caf::error& err) { throw_on(err, "learner did not drain"); });
  }
  outcome.learner = sum_of(outcome.replicas);
  outcome.samples_dropped += outcome.learner.samples_dropped;
  for (auto& o : run.owners)
    self->request(o, shutdown_timeout, stats_atom_v)
        .receive([&](const batch_stats& b) { outcome.batching.merge(b); },
                 [&](caf::error& err) { throw_on(err, "model-owner did not answer"); });
  // The final one; after a failed one the disk is full (or gone): the
  // newest complete checkpoint is what the run keeps.
  if (outcome.checkpoint_failure.empty()) checkpoint(r);
  outcome.totals = totals_of(self, run.metrics);
  // Every step an agent took was reported to the metrics actor with the
  // rollout that carried it (or at stop, as dropped), so the reports count
  // what was collected, also by agents that failed and were replaced.
  outcome.samples_collected = outcome.totals.env_steps - run.resumed.env_steps;
  if (run.selfplay) outcome.league = run.selfplay->league().saved();
  if (run.cluster_door)  // it lets the workers' last messages (the end of the run) through
    self->request(run.cluster_door, shutdown_timeout, stop_atom_v)
        .receive([&](const door_counts& d) { outcome.cluster_door = d; },
                 [&](caf::error& err) { throw_on(err, "the cluster port's door did not close"); });
  run.exit_all(r.sys);
  read_best(r);
}

}  // namespace

run_outcome coordinate(caf::actor_system& sys, const run_request& request,
                       const std::atomic<bool>& interrupted) {
  running r(sys, request);
  r.run = build_run(sys, request, caf::actor_cast<run_control>(r.self), r.start);
  if (request.frame_hub) r.self->send(request.frame_hub, metrics_atom_v, r.run.metrics);
  const size_t replicas = r.run.models.size();
  r.outcome.parameter_bytes = model::parameter_bytes(*r.run.models[0]);
  r.outcome.devices = request.config.devices;
  r.outcome.replica_max_lag_bound = replicas > 1 ? std::uint64_t(request.config.replicas.max_lag) : 0;
  agent_supervisor agents = supervise_agents(sys, r.self, request, r.run);
  agents.start_all();
  r.outcome.stop = wait_for_stop(r, agents, interrupted);
  r.outcome.wall_seconds = r.elapsed();
  shut_down(r, agents);
  return r.outcome;
}

}  // namespace troupe::actors
