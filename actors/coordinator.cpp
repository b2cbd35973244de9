#include "actors/coordinator.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "actors/agent_supervisor.hpp"
#include "actors/errors.hpp"
#include "actors/league/pbt_driver.hpp"
#include "actors/matchups.hpp"
#include "algo/learner.hpp"
#include "run/config_loader.hpp"
#include "run/run_directory.hpp"

namespace troupe::actors {

namespace {

constexpr auto shutdown_timeout = std::chrono::seconds(30);
// Between messages, how often the clock and the interrupt flag are read,
// and the population's driver reads the members' totals: a member at 100k
// env steps/s passes 2k of them in that time, a tenth of the default
// interval, so its decision comes close to where its interval ends (polled
// four times a second, a population at 400k env steps/s made a third fewer
// decisions than its intervals).
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

// This node's agents, numbered across the policies in turn (each policy's
// agents.count: with policies:, agent i plays for policy i mod their
// number), each served by its policy's replicas in turn. `policy_of[i]` is
// agent i's policy.
agent_supervisor supervise_agents(caf::actor_system& sys, caf::scoped_actor& self,
                                  const run_request& request, const run_parts& run,
                                  std::vector<size_t>& policy_of) {
  const size_t policies = run.policies.size();
  std::vector<agent_config> configs;
  std::vector<agent_supervisor::wiring> wires;
  std::vector<opponent_source> opponents;
  int most = 0;
  for (size_t p = 0; p < policies; ++p) {
    opponents.push_back(opponents_of(request.config, run, p));
    most = std::max(most, run.policies[p].plan.config.agents.count);
  }
  policy_of.clear();
  for (int j = 0; j < most; ++j)
    for (size_t p = 0; p < policies; ++p) {
      const policy_parts& policy = run.policies[p];
      if (j >= policy.plan.config.agents.count) continue;
      configs.push_back(agent_config_for(policy.plan.config, std::uint32_t(configs.size()), 0));
      const size_t replica = size_t(j) % policy.owners.size();
      wires.push_back({policy.owners[replica], policy.lanes[replica], policy.learners[replica], policy.metrics,
                       opponents[p]});
      policy_of.push_back(p);
    }
  std::vector<agents::run_streams> streams;
  for (size_t i = 0; i < policy_of.size(); ++i) streams.push_back(run.policies[policy_of[i]].streams);
  auto seeds = [streams](size_t i, std::uint64_t incarnation) { return streams[i].agent(i, incarnation); };
  auto named = [&self, hub = request.frame_hub](size_t i, const agent_actor& agent) {
    if (hub) self->send(hub, agent_atom_v, std::int32_t(i), agent);
  };
  // A deterministic run's replacement agent would begin its rollouts anew and
  // its rounds could never be whole: a failure ends that run.
  const run::run_config& config = request.config;
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
  run_outcome outcome;                // the run's
  std::vector<run_outcome> policies;  // each policy's, as run.policies
  pbt_driver_actor pbt;               // pbt: the population's decisions (else invalid)
  std::vector<size_t> policy_of;      // agent i's policy

  running(caf::actor_system& s, const run_request& r) : sys(s), request(r), self(s) {}
  ~running() {
    // The driver keeps its own clock: the actor system would wait for it.
    if (pbt) self->send_exit(pbt, caf::exit_reason::user_shutdown);
  }
  running(const running&) = delete;
  running& operator=(const running&) = delete;

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

// Saves a checkpoint of one policy (its replica 0's learner writes it) with
// the counters as its metrics actor has them now. False when it could not be
// written (a full disk, say): the older checkpoints are still there, untouched.
bool checkpoint_policy(running& r, const policy_parts& policy, run_outcome& done) {
  if (policy.plan.run_dir.empty()) return true;
  const model::checkpoint_store store =
      run::run_directory{policy.plan.run_dir}.checkpoints(policy.plan.config.checkpoint.keep);
  const metrics_totals totals = totals_of(r.self, policy.metrics);
  model::checkpoint_meta meta;
  meta.env_steps = totals.env_steps;
  meta.episodes = totals.episodes;
  meta.updates = totals.updates;
  meta.samples_trained = totals.samples_trained;
  meta.wall_seconds = policy.resumed.wall_seconds + r.elapsed();
  meta.segment = policy.segment;
  meta.config_yaml = policy.plan.config_yaml;
  bool written = false;
  try {
    const std::string path = store.path_for(totals.env_steps);
    r.self->request(policy.learners[0], shutdown_timeout, checkpoint_atom_v, path, meta)
        .receive(
            [&](std::uint64_t) {
              done.last_checkpoint = path;
              written = true;
            },
            [&](caf::error& err) {
              r.outcome.checkpoint_failure = code_of(err) == errc::none ? caf::to_string(err)
                                                                        : detail_of(err);
            });
    if (written) store.prune();
    // The league as of this checkpoint: a resumed run restores it.
    if (written && policy.selfplay) policy.selfplay->save();
  } catch (const std::exception& e) {  // the checkpoints directory itself
    r.outcome.checkpoint_failure = e.what();
    written = false;
  }
  return written;
}

// Every policy's checkpoint, and the population's state with them; false
// at the first that could not be written.
bool checkpoint(running& r) {
  for (size_t p = 0; p < r.run.policies.size(); ++p)
    if (!checkpoint_policy(r, r.run.policies[p], r.policies[p])) return false;
  bool saved = true;
  if (r.pbt)
    r.self->request(r.pbt, shutdown_timeout, checkpoint_atom_v)
        .receive([](bool) {},
                 [&](caf::error& err) {
                   r.outcome.checkpoint_failure = detail_of(err);
                   saved = false;
                 });
  return saved;
}

// What best.pt holds now, if the policy keeps one: closed to the evaluator
// first, so an evaluation that ends later cannot replace what the summary
// names.
void read_best(const policy_parts& policy, run_outcome& done) {
  if (policy.best_gate) policy.best_gate->close();
  if (policy.plan.run_dir.empty()) return;
  const std::string path = run::run_directory{policy.plan.run_dir}.checkpoints().best();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  try {
    done.best = model::read_checkpoint_meta(path);
    done.best_checkpoint = path;
  } catch (const model::checkpoint_error& e) {
    std::cerr << "troupe: warning: " << e.what() << std::endl;
  }
}

// Population-based training's driver, started before any agent acts: a
// resumed run's members have their hyperparameters back by then. Throws
// run::config_error naming a damaged pbt.json.
void start_pbt(running& r) {
  const run_request& request = r.request;
  std::vector<pbt_member> members;
  bool resumed = false;
  for (const auto& p : r.run.policies) {
    members.push_back({p.learners[0], p.metrics});
    resumed = resumed || !p.plan.resume_from.empty();
  }
  r.pbt = spawn_pbt_driver(r.sys, agents::population(request.config.pbt, request.config.run.seed), request.run_dir,
                           std::move(members), caf::actor_cast<run_control>(r.self));
  r.self->request(r.pbt, shutdown_timeout, start_atom_v, resumed)
      .receive([](bool) {},
               [&](caf::error& err) {
                 if (code_of(err) == errc::malformed) throw run::config_error(detail_of(err));
                 throw std::runtime_error(detail_of(err));
               });
}

// The driver's last decision carried out, and what it leaves.
pbt_final stop_pbt(running& r) {
  pbt_final out;
  r.self->request(r.pbt, shutdown_timeout, stop_atom_v)
      .receive([&](pbt_final& f) { out = std::move(f); },
               [&](caf::error& err) { out.failure = "pbt: the driver did not stop: " + detail_of(err); });
  if (out.state_json.empty()) throw std::runtime_error(out.failure);
  return out;
}

// Waits for the first stop condition, checkpointing on the way. The
// metrics actors' conditions (a solve, the step budget) and the agents'
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

// One policy's learners drained, its owners' counters and its totals, into
// `done`; `agents_dropped` is what its agents dropped at their stop.
void drain_policy(running& r, const policy_parts& policy, std::int64_t agents_dropped, run_outcome& done) {
  auto& self = r.self;
  done.samples_dropped = agents_dropped;
  // A learner answers once every peer has applied every update of its own,
  // so when all have answered, every replica holds every update; a second
  // round (answered at once) collects counters that include all of them.
  const size_t replicas = policy.models.size();
  for (size_t pass = 0; pass < (replicas > 1 ? 2 : 1); ++pass) {
    done.replicas.clear();
    for (auto& l : policy.learners)
      self->request(l, shutdown_timeout, drain_atom_v)
          .receive([&](const learner_final& f) { done.replicas.push_back(f); },
                   [&](caf::error& err) { throw_on(err, "learner did not drain"); });
  }
  done.learner = sum_of(done.replicas);
  done.samples_dropped += done.learner.samples_dropped;
  for (auto& o : policy.owners)
    self->request(o, shutdown_timeout, stats_atom_v)
        .receive([&](const batch_stats& b) { done.batching.merge(b); },
                 [&](caf::error& err) { throw_on(err, "model-owner did not answer"); });
}

// The policy's totals once everything is trained: every step an agent took
// was reported to the metrics actor with the rollout that carried it (or at
// stop, as dropped), so the reports count what was collected, also by
// agents that failed and were replaced.
void total_policy(running& r, const policy_parts& policy, run_outcome& done) {
  r.self->request(policy.metrics, shutdown_timeout, final_atom_v)
      .receive([&](const metrics_totals& t) { done.totals = t; },
               [&](caf::error& err) { throw_on(err, "metrics did not answer"); });
  done.samples_collected = done.totals.env_steps - policy.resumed.env_steps;
  done.parameter_bytes = model::parameter_bytes(*policy.models[0]);
  done.devices = policy.plan.config.devices;
  done.replica_max_lag_bound = policy.models.size() > 1 ? std::uint64_t(policy.plan.config.replicas.max_lag) : 0;
  done.policy = policy.plan.name;
  done.run_dir = policy.plan.run_dir;
  if (policy.selfplay) done.league = policy.selfplay->league().saved();
}

// The run's outcome from its policies': one policy's is the run's; several
// add their counts up (the first one's mean return and checkpoint stand for
// the run's).
void combine(running& r) {
  const run_outcome& o = r.outcome;
  for (auto& p : r.policies) {  // what only the run knows
    p.stop = o.stop;
    p.wall_seconds = o.wall_seconds;
    p.agent_restarts = o.agent_restarts;
    p.last_failure = o.last_failure;
    p.checkpoint_failure = o.checkpoint_failure;
    p.cluster = o.cluster;
    p.cluster_door = o.cluster_door;
  }
  run_outcome all = r.policies.front();
  if (r.policies.size() == 1 && all.policy.empty()) {
    r.outcome = std::move(all);
    return;
  }
  std::vector<learner_final> learners{all.learner};
  for (size_t i = 1; i < r.policies.size(); ++i) {
    const run_outcome& p = r.policies[i];
    all.totals.env_steps += p.totals.env_steps;
    all.totals.episodes += p.totals.episodes;
    all.totals.updates += p.totals.updates;
    all.totals.samples_trained += p.totals.samples_trained;
    all.totals.solved = all.totals.solved || p.totals.solved;
    all.batching.merge(p.batching);
    all.samples_collected += p.samples_collected;
    all.samples_dropped += p.samples_dropped;
    all.parameter_bytes += p.parameter_bytes;
    learners.push_back(p.learner);
  }
  all.learner = sum_of(learners);
  // A population's mean return is its best member's; solved, as the first
  // policy or member to reach its target was, with every one's steps then.
  const run_outcome* shown = &r.policies.front();
  if (r.request.config.pbt.enabled())
    for (const auto& p : r.policies)
      if (p.totals.final_mean_return > shown->totals.final_mean_return) shown = &p;
  const run_outcome* solved = nullptr;
  for (const auto& p : r.policies)
    if (p.totals.solved && (!solved || p.totals.seconds_to_target < solved->totals.seconds_to_target)) solved = &p;
  if (solved) {
    shown = solved;
    all.totals.seconds_to_target = solved->totals.seconds_to_target;
    all.totals.env_steps_to_target = solved->totals.run_env_steps_to_target;
    all.totals.mean_return_at_target = solved->totals.mean_return_at_target;
    all.totals.confirmations = solved->totals.confirmations;
    all.totals.confirmed_return = solved->totals.confirmed_return;
    all.totals.confirmed_version = solved->totals.confirmed_version;
  }
  all.totals.final_mean_return = shown->totals.final_mean_return;
  all.policy.clear();
  all.run_dir.clear();
  all.policies = r.policies;
  r.outcome = std::move(all);
}

// Shuts the run down in causal order: the cluster's workers and this
// node's agents first (each reports what it collected and stops sending),
// then the learners train what is already queued, then the metrics actors
// have seen every report; a final checkpoint and the totals last.
void shut_down(running& r, agent_supervisor& agents) {
  run_outcome& outcome = r.outcome;
  const run_parts& run = r.run;
  auto& self = r.self;
  if (run.gateway)  // workers first: nothing more is collected from them
    self->request(run.gateway, shutdown_timeout, stop_atom_v)
        .receive([&](const cluster_final& f) { outcome.cluster = f; },
                 [&](caf::error& err) { throw_on(err, "cluster gateway did not stop"); });

  const std::vector<std::int64_t> dropped = agents.stop_all(shutdown_timeout);
  outcome.agent_restarts = agents.failures();
  outcome.last_failure = agents.last_failure();
  const size_t count = run.policies.size();
  for (size_t p = 0; p < count; ++p) {
    std::int64_t mine = 0;
    for (size_t i = 0; i < dropped.size(); ++i)
      if (r.policy_of[i] == p) mine += dropped[i];
    drain_policy(r, run.policies[p], mine, r.policies[p]);
  }
  // The final one; after a failed one the disk is full (or gone): the
  // newest complete checkpoint is what the run keeps.
  if (outcome.checkpoint_failure.empty()) checkpoint(r);
  for (size_t p = 0; p < count; ++p) total_policy(r, run.policies[p], r.policies[p]);
  if (run.cluster_door)  // it lets the workers' last messages (the end of the run) through
    self->request(run.cluster_door, shutdown_timeout, stop_atom_v)
        .receive([&](const door_counts& d) { outcome.cluster_door = d; },
                 [&](caf::error& err) { throw_on(err, "the cluster port's door did not close"); });
  run.exit_all(r.sys);
  for (size_t p = 0; p < count; ++p) read_best(run.policies[p], r.policies[p]);
}

}  // namespace

run_outcome coordinate(caf::actor_system& sys, const run_request& request,
                       const std::atomic<bool>& interrupted) {
  running r(sys, request);
  r.run = build_run(sys, request, caf::actor_cast<run_control>(r.self), r.start);
  r.policies.resize(r.run.policies.size());
  // A viewer's panel follows the first policy's figures.
  if (request.frame_hub) r.self->send(request.frame_hub, metrics_atom_v, r.run.policies.front().metrics);
  if (request.config.pbt.enabled()) start_pbt(r);
  agent_supervisor agents = supervise_agents(sys, r.self, request, r.run, r.policy_of);
  agents.start_all();
  r.outcome.stop = wait_for_stop(r, agents, interrupted);
  r.outcome.wall_seconds = r.elapsed();
  std::optional<pbt_final> population;
  if (r.pbt) population = stop_pbt(r);  // no decision while the learners drain
  shut_down(r, agents);
  combine(r);
  if (population) {
    r.outcome.pbt = agents::population(request.config.pbt, request.config.run.seed)
                        .state_from_json(population->state_json, "the pbt driver's state");
    r.outcome.pbt_failure = population->failure;
  }
  return r.outcome;
}

}  // namespace troupe::actors
