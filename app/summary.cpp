#include "app/summary.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace troupe::app {

namespace {

// A port's front door: connections accepted, refused (over the limits),
// timed out (no handshake, silent, a message left incomplete) and cut for a
// bad frame (too large, routed, unknown).
nlohmann::json door_json(const actors::door_counts& d) {
  return {{"accepted", d.accepted},
          {"refused", d.refused},
          {"timed_out", d.timed_out},
          {"bad_frames", d.bad_frames}};
}

}  // namespace

std::string summary_json(const actors::run_outcome& o, double target_return) {
  const auto& t = o.totals;
  nlohmann::json j;
  j["solved"] = t.solved;
  j["stop_reason"] = run::name_of(o.stop);
  j["target_mean_return"] = target_return;
  j["wall_seconds"] = o.wall_seconds;
  j["env_steps"] = t.env_steps;
  j["episodes"] = t.episodes;
  j["seconds_to_target"] = t.solved ? nlohmann::json(t.seconds_to_target) : nlohmann::json();
  j["env_steps_to_target"] = t.solved ? nlohmann::json(t.env_steps_to_target) : nlohmann::json();
  j["mean_return_at_target"] = t.solved ? nlohmann::json(t.mean_return_at_target) : nlohmann::json();
  j["final_mean_return"] = t.final_mean_return;
  // run.stop.confirm_episodes: fresh-episode evaluations of the current
  // parameters, and what the last one scored (null when none ran).
  j["confirmations"] = t.confirmations;
  j["confirmed_return"] = t.confirmations ? nlohmann::json(t.confirmed_return) : nlohmann::json();
  // checkpoint.best: the best policy kept (null: none), and the evaluations
  // played for it.
  j["best_evaluations"] = t.best_evaluations;
  j["best"] = o.best_checkpoint.empty()
                  ? nlohmann::json()
                  : nlohmann::json{{"checkpoint", o.best_checkpoint},
                                   {"return_mean", o.best.evaluated_return},
                                   {"evaluated_episodes", o.best.evaluated_episodes},
                                   {"version", o.best.version},
                                   {"env_steps", o.best.env_steps}};
  j["confirmed_version"] = t.confirmations ? nlohmann::json(t.confirmed_version) : nlohmann::json();
  // This segment's steps over this segment's time (a resumed run's env_steps
  // include earlier segments).
  j["fps"] = o.wall_seconds > 0 ? o.samples_collected / o.wall_seconds : 0.0;
  j["mean_predict_batch"] =
      o.batching.forward_passes ? double(o.batching.observations) / o.batching.forward_passes : 0.0;
  j["predict_requests"] = o.batching.requests;
  nlohmann::json histogram = nlohmann::json::object();
  for (size_t b = 0; b < o.batching.size_histogram.size(); ++b) {
    const long hi = 1L << b, lo = b == 0 ? 1 : (hi / 2) + 1;
    if (o.batching.size_histogram[b])
      histogram[lo == hi ? std::to_string(hi) : std::to_string(lo) + "-" + std::to_string(hi)] =
          o.batching.size_histogram[b];
  }
  j["predict_batch_sizes"] = histogram;
  j["forward_passes"] = o.batching.forward_passes;
  j["updates"] = o.learner.updates;
  j["updates_skipped"] = o.learner.updates_skipped;
  j["updates_refused"] = o.learner.updates_refused;
  j["mean_policy_lag"] = t.mean_policy_lag;
  j["max_policy_lag"] = t.max_policy_lag;
  j["samples_collected"] = o.samples_collected;
  j["samples_trained"] = o.learner.samples_trained;
  j["samples_dropped"] = o.samples_dropped;
  j["parameter_bytes"] = o.parameter_bytes;
  // Self-play: the learner's Elo rating, the games it played (against
  // itself, against snapshots) and each snapshot left in the pool.
  if (o.league) {
    nlohmann::json pool = nlohmann::json::array();
    for (const agents::league::snapshot& s : o.league->pool)
      pool.push_back({{"id", s.id},
                      {"version", s.version},
                      {"elo", s.rating},
                      {"games", s.games},
                      {"learner_score", s.games ? s.learner_score / double(s.games) : 0.0}});
    nlohmann::json builtins = nlohmann::json::array();
    for (const agents::league::snapshot& b : o.league->builtins)
      builtins.push_back({{"name", b.builtin},
                          {"elo", b.rating},
                          {"games", b.games},
                          {"learner_score", b.games ? b.learner_score / double(b.games) : 0.0}});
    j["selfplay"] = {{"elo", o.league->learner_rating},
                     {"builtins", builtins},
                     {"games", o.league->games},
                     {"self_games", o.league->self_games},
                     {"snapshots_taken", o.league->next_id - 1},
                     {"pool", pool}};
  } else {
    j["selfplay"] = nullptr;
  }
  // policies: each one's figures (its own summary.json has them all).
  if (!o.policies.empty()) {
    nlohmann::json policies = nlohmann::json::array();
    for (const actors::run_outcome& p : o.policies)
      policies.push_back({{"name", p.policy},
                          {"run_dir", p.run_dir},
                          {"env_steps", p.totals.env_steps},
                          {"episodes", p.totals.episodes},
                          {"final_mean_return", p.totals.final_mean_return},
                          {"solved", p.totals.solved},
                          {"updates", p.learner.updates},
                          {"samples_collected", p.samples_collected},
                          {"samples_trained", p.learner.samples_trained},
                          {"samples_dropped", p.samples_dropped},
                          {"checkpoint", p.last_checkpoint}});
    j["policies"] = policies;
  } else {
    j["policies"] = nullptr;
  }
  if (!o.policy.empty()) j["policy"] = o.policy;
  // pbt: the decisions, and each member's final hyperparameters, mean
  // return, steps and lineage (the copies it took); the best member is what
  // eval, play and export take by default.
  if (o.pbt && o.pbt->members.size() == o.policies.size()) {
    nlohmann::json members = nlohmann::json::array();
    int best = 0;
    for (size_t m = 0; m < o.policies.size(); ++m) {
      const auto& state = o.pbt->members[m];
      const auto& outcome = o.policies[m];
      nlohmann::json lineage = nlohmann::json::array();
      for (const auto& e : state.lineage)
        lineage.push_back({{"decision", e.decision}, {"env_steps", e.env_steps}, {"source", e.source}});
      members.push_back({{"id", m},
                         {"hyperparams", state.values},
                         {"mean_return", outcome.totals.final_mean_return},
                         {"env_steps", outcome.totals.env_steps},
                         {"solved", outcome.totals.solved},
                         {"lineage", lineage}});
      if (outcome.totals.final_mean_return > o.policies[size_t(best)].totals.final_mean_return) best = int(m);
    }
    j["pbt"] = {{"decisions", o.pbt->decisions}, {"exploits", o.pbt->exploits}, {"best_member", best}, {"members", members}};
  } else {
    j["pbt"] = nullptr;
  }
  j["agent_restarts"] = o.agent_restarts;
  // Where the time went: busy seconds of the two model threads, against the
  // wall time (agents step environments and message on the remaining core).
  j["time_breakdown"] = {{"learner_train_seconds", o.learner.train_seconds},
                         {"owner_forward_seconds", o.batching.forward_seconds},
                         {"owner_sample_and_reply_seconds", o.batching.reply_seconds},
                         {"wall_seconds", o.wall_seconds}};
  // The learner's cost: samples trained per second of its busy time (PPO
  // trains each of them algo.ppo.epochs times), and the share of the wall
  // time it was busy: near 1, the learner bounds the run and the agents
  // wait on it; well below, the agents (or the model-owner) do.
  const double busy = o.learner.train_seconds;
  j["learner"] = {{"batches", o.learner.batches},
                  {"busy_seconds", busy},
                  {"busy_share", o.wall_seconds > 0 ? busy / o.wall_seconds : 0.0},
                  {"samples_per_busy_second", busy > 0 ? o.learner.samples_trained / busy : 0.0},
                  {"samples_stale", o.learner.samples_stale},
                  {"acks_held", o.learner.acks_held}};
  if (!o.last_failure.empty()) j["last_agent_failure"] = o.last_failure;
  // One parameter replica per device: each one's final version (equal when
  // every update reached every replica), its own updates, the other
  // replicas' updates it applied, and the most of its own updates another
  // replica was missing when it applied one, never above max_lag_bound.
  j["devices"] = o.devices;
  j["replicas"] = nlohmann::json::array();
  std::uint64_t max_lag = 0;
  for (size_t r = 0; r < o.replicas.size(); ++r) {
    const auto& f = o.replicas[r];
    max_lag = std::max(max_lag, f.max_replica_lag);
    j["replicas"].push_back({{"device", r < o.devices.size() ? o.devices[r] : std::string()},
                             {"version", f.version},
                             {"updates", f.updates},
                             {"peer_updates", f.peer_updates},
                             {"max_lag", f.max_replica_lag}});
  }
  j["replica_max_lag"] = max_lag;
  j["replica_max_lag_bound"] = o.replica_max_lag_bound;
  // Each node's agents, env steps, rate in the last period and mean predict
  // round trip (the learner's own agents are node "learner").
  j["nodes"] = nlohmann::json::array();
  for (const auto& n : t.nodes)
    j["nodes"].push_back({{"node", n.node},
                          {"agents", n.agents},
                          {"env_steps", n.env_steps},
                          {"env_steps_per_s_last", n.env_steps_per_s},
                          {"predict_round_trip_ms", n.predict_round_trip_ms}});
  j["cluster"] = {{"workers_joined", o.cluster.workers_joined},
                  {"workers_refused", o.cluster.workers_refused},
                  {"messages_rejected", o.cluster.messages_rejected},
                  {"dropped_at_door", o.cluster.dropped_at_door},
                  {"predicts_relayed", o.cluster.predicts_relayed},
                  {"rollouts_relayed", o.cluster.rollouts_relayed},
                  {"opponent_moves", o.cluster.opponent_moves},
                  {"connections", door_json(o.cluster_door)}};
  // Messages that reached the actors behind the gateway from outside this
  // process (or replica updates from a non-replica), refused: only a leaked
  // handle could bring one, so these stay 0 (see actors/net/network_facing.hpp).
  j["refused_from_outside"] = {{"model_owner", o.batching.foreign_refused},
                               {"learner", o.learner.foreign_refused},
                               {"replicas", o.learner.foreign_replica_updates},
                               {"metrics", t.foreign_refused}};
  if (o.streamed)
    j["frame_stream"] = {{"viewers_admitted", o.stream.viewers_admitted},
                         {"viewers_refused", o.stream.viewers_refused},
                         {"requests_refused", o.stream.requests_refused},
                         {"dropped_at_door", o.stream.dropped_at_door},
                         {"connections", door_json(o.stream_door)}};
  return j.dump(2) + "\n";
}

}  // namespace troupe::app
