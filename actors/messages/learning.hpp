#pragma once
// The learner's protocol (actors/learner_actor.hpp): rollouts in, their
// acknowledgements and train results out, the updates replicas exchange,
// learned-state snapshots and checkpoints, and the final counts of the
// learner and of each agent (what was collected against what was trained).
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>
#include <caf/type_id.hpp>

#include "actors/byte_vector_field.hpp"
#include "actors/messages/atoms.hpp"
#include "actors/messages/type_id_ranges.hpp"
#include "algo/learned_state.hpp"
#include "algo/rollout.hpp"
#include "algo/trainer.hpp"
#include "model/checkpoint.hpp"

namespace troupe::actors {

// The learner's answer to a rollout: it has been trained (or dropped).
struct train_ack {
  std::uint64_t sequence = 0;
  bool trained = false;
};

// One parameter replica's update, sent to every other replica (see
// actors/learner_actor.hpp): the change it made to every parameter,
// flattened. The answer is the receiver's version after adding it.
struct replica_update {
  std::uint32_t origin = 0;    // the replica whose own update this is
  std::uint64_t sequence = 0;  // its number among the origin's own updates: 1, 2, ...
  std::vector<float> delta;
};

struct agent_final {
  std::uint32_t agent_id = 0;
  std::int64_t samples_collected = 0;
  std::int64_t samples_dropped = 0;  // a partial rollout at stop, or lost sends
  std::uint64_t rollouts_sent = 0;
};

struct learner_final {
  std::int64_t samples_trained = 0;
  std::int64_t samples_dropped = 0;  // rollouts rejected as malformed, stale, or left untrained
  std::int64_t samples_stale = 0;    // of those: older than algo.max_policy_lag
  std::int64_t acks_held = 0;        // acknowledgements held back by the collection budget
  std::int64_t updates = 0;
  std::int64_t updates_skipped = 0;  // non-finite loss or gradient
  std::int64_t updates_refused = 0;  // batches refused: a confirmed solve froze the parameters
  std::int64_t batches = 0;          // batches trained (A3C: rollouts, unless algo.batch_rollouts > 1)
  double train_seconds = 0;          // busy training
  // Several replicas (devices): this replica's parameter version at the
  // end, the other replicas' updates it applied, and the most of its own
  // updates any other replica was missing when it applied one (<= max_lag).
  std::uint64_t version = 0;
  std::int64_t peer_updates = 0;
  std::uint64_t max_replica_lag = 0;
  // Refused for their sender: messages from outside this process, and
  // replica updates from any actor but a peer replica's learner.
  std::int64_t foreign_refused = 0;
  std::int64_t foreign_replica_updates = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, train_ack& x) {
  return f(caf::meta::type_name("train_ack"), x.sequence, x.trained);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_update& x) {
  return f(caf::meta::type_name("replica_update"), x.origin, x.sequence, x.delta);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_final& x) {
  return f(caf::meta::type_name("agent_final"), x.agent_id, x.samples_collected,
           x.samples_dropped, x.rollouts_sent);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, learner_final& x) {
  return f(caf::meta::type_name("learner_final"), x.samples_trained, x.samples_dropped,
           x.samples_stale, x.acks_held, x.updates, x.updates_skipped, x.updates_refused, x.batches, x.train_seconds, x.version,
           x.peer_updates, x.max_replica_lag, x.foreign_refused, x.foreign_replica_updates);
}

}  // namespace troupe::actors

namespace troupe::algo {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rollout& x) {
  actors::byte_vector_field terminated{x.terminated}, truncated{x.truncated},
      masks{x.action_masks};
  return f(caf::meta::type_name("rollout"), x.agent_id, x.sequence, x.n_steps, x.n_envs,
           x.obs_size, x.action_size, x.state_size, x.mask_size, x.observations,
           x.initial_states, x.actions, x.rewards, terminated, truncated, x.behaviour_logp,
           x.behaviour_version, x.truncation_observations, masks);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rollout_id& x) {
  return f(caf::meta::type_name("rollout_id"), x.agent_id, x.sequence);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, train_result& x) {
  return f(caf::meta::type_name("train_result"), x.applied, x.frozen, x.rollouts, x.samples,
           x.updates, x.updates_skipped, x.epochs, x.sample_passes, x.version, x.lag_sum,
           x.lag_max, x.loss, x.policy_loss, x.value_loss, x.entropy, x.approx_kl,
           x.clip_fraction, x.lr);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, optimizer_state& x) {
  return f(caf::meta::type_name("optimizer_state"), x.kind, x.step, x.tensors);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, learned_state& x) {
  return f(caf::meta::type_name("learned_state"), x.parameters, x.optimizer);
}
}  // namespace troupe::algo

namespace troupe::model {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, running_moments& x) {
  return f(caf::meta::type_name("running_moments"), x.mean, x.var, x.count);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, parameter_state& x) {
  return f(caf::meta::type_name("parameter_state"), x.flat, x.buffers, x.obs_moments, x.return_moments, x.version);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, checkpoint_meta& x) {
  return f(caf::meta::type_name("checkpoint_meta"), x.version, x.env_steps, x.episodes,
           x.updates, x.samples_trained, x.wall_seconds, x.segment, x.config_yaml,
           x.evaluated_episodes, x.evaluated_return);
}
}  // namespace troupe::model

CAF_BEGIN_TYPE_ID_BLOCK(troupe_learning, troupe::actors::type_id_ranges::learning)
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::actors::train_ack))
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::actors::replica_update))
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::actors::agent_final))
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::actors::learner_final))
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::algo::rollout))
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::algo::train_result))
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::algo::learned_state))
  CAF_ADD_TYPE_ID(troupe_learning, (troupe::model::checkpoint_meta))
CAF_END_TYPE_ID_BLOCK(troupe_learning)
