#pragma once
// The learner: gathers the rollouts that arrive, from any agents and in
// arrival order, into batches of the trainer's size (algo.batch_rollouts;
// A3C's default is 1), trains each full batch (one update for A3C, an
// update per minibatch for PPO) and reports what it did to the metrics
// actor. A rollout is acknowledged once its batch has been trained: an agent
// with max_rollouts_in_flight unacknowledged rollouts waits. Two bounds keep
// the policy lag from growing with the number of agents (rollout_admission
// below): acknowledgements are held back while the rollouts in flight, all
// agents together, are at the budget (algo/collection_budget.hpp), and a
// rollout too old when its turn comes is dropped and counted instead of
// trained. When the run drains, a batch that cannot fill any more is
// dropped and counted, like an agent's unfinished rollout, and every held
// acknowledgement goes.
//
// With several devices there is one learner per parameter replica (each
// beside its device's model-owner). A learner sends every batch of its own
// (the change it made to the parameters) to every other learner, which adds
// it to its replica as one atomic update and answers. The consistency this
// keeps, bounded staleness with K = replicas.max_lag:
//   - every replica applies every update, its own and each peer's, exactly
//     once; each peer's updates in the order that peer made them;
//   - no replica is ever more than K updates of another replica's own behind
//     it: a learner applies its own update n only after every peer has
//     answered for its update n - K; until then its rollouts wait, queued
//     (peer updates keep being applied meanwhile, so waiting never deadlocks);
//   - when every learner has drained, every replica holds the same updates:
//     the same parameters, up to the rounding of adding them in another order.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <caf/all.hpp>

#include "actors/messages/learning.hpp"
#include "actors/messages/pbt.hpp"
#include "actors/metrics_actor.hpp"
#include "algo/trainer.hpp"
#include "model/replica_clock.hpp"

namespace troupe::algo {
class learner;  // algo/learner.hpp
}

namespace troupe::actors {

// What one replica accepts from the others.
using replica_link = caf::typed_actor<caf::replies_to<replica_update>::with<std::uint64_t>>;

// checkpoint_atom: save the model and optimiser to the path, with the given
// counters; answers the parameter version saved. pbt_atom: a population's
// decision for this member (a pbt_step: adopt the learned state it carries,
// then the new hyperparameters; answers the version after it).
// snapshot_atom: what this learner has learned, as a plain value taken
// between two of its batches (algo::learner::export_state), for a pbt_step
// to another member. drain_atom: answered once
// every rollout already sent has been trained (or dropped) and every peer has
// applied every update of this replica's. peers_atom: every replica's
// learner, in replica order (this one included), sent once before any rollout.
// Every message must come from an actor of this process, and a replica
// update from a peer replica's learner: anything else is refused and counted
// (learner_final's foreign_refused and foreign_replica_updates).
using learner_actor = replica_link::extend<
    caf::replies_to<algo::rollout>::with<train_ack>,
    caf::replies_to<drain_atom>::with<learner_final>,
    caf::replies_to<checkpoint_atom, std::string, model::checkpoint_meta>::with<std::uint64_t>,
    caf::reacts_to<peers_atom, std::vector<caf::strong_actor_ptr>>,
    caf::replies_to<pbt_atom, pbt_step>::with<std::uint64_t>,
    caf::replies_to<snapshot_atom>::with<algo::learned_state>>;

// This learner's place among the replicas. The defaults: a lone replica.
struct replica_setup {
  std::uint32_t index = 0;
  std::uint64_t max_lag = 1;  // K: see above
  // Shared by all replicas, for measuring how far behind each one really is
  // (never for deciding); null for a lone replica.
  std::shared_ptr<model::replica_clock> clock;
};

// What bounds the policy lag of the rollouts this learner trains, whatever
// the number of agents (algo/collection_budget.hpp says how). The defaults:
// no bound.
struct rollout_admission {
  int max_in_flight = 0;        // algo.rollout_budget (0: any number)
  int per_agent_in_flight = 2;  // algo.max_rollouts_in_flight
  // algo.max_policy_lag: a rollout whose oldest step is more versions than
  // this behind the parameters when its turn comes is dropped, not trained
  // (counted in samples_dropped and samples_stale). 0: never.
  std::uint64_t max_policy_lag = 0;
  // run.deterministic: the agents (agents.count) whose rollouts make a round.
  // A round (every agent's rollout r) trains once all of it has come and the
  // metrics actor has counted its reports (round_atom), in agent order, and
  // its acknowledgements go together after it: no agent acts while a round
  // trains, so what each prediction and update sees is fixed by the config
  // and seed. Those left over for a later batch are acknowledged untrained
  // with their round. 0: rollouts train in arrival order.
  int deterministic_agents = 0;
};

// Spawned detached. `metrics` may be an invalid handle (no reports). The
// caller restores a checkpoint into `learner` before spawning, if resuming.
// Called on the learner's thread after each batch whose updates reached the
// parameters, with how many they were (self-play's snapshots count them).
using update_hook = std::function<void(std::int64_t updates)>;
//
// A learner whose trainer is an algo::learner answers snapshot requests and
// takes pbt_steps, each on its own thread between batches: no learner is
// reached from another's thread, only its state, copied, by message.
learner_actor spawn_learner(caf::actor_system& sys, std::shared_ptr<algo::trainer> learner,
                            metrics_actor metrics, const replica_setup& replica = {},
                            const rollout_admission& admission = {}, update_hook after_updates = {});

// Tells each learner who its peers are (all of `learners`, in replica order).
void introduce_replicas(caf::actor_system& sys, const std::vector<learner_actor>& learners);

}  // namespace troupe::actors
