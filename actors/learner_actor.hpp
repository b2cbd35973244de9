#pragma once
// The learner: trains each rollout as it arrives, one update at a time, and
// reports every update to the metrics actor.
#include <memory>

#include "actors/messages.hpp"
#include "actors/metrics_actor.hpp"
#include "agents/algo_config.hpp"
#include "model/shared_model.hpp"

namespace troupe::actors {

// checkpoint_atom: save the model and optimiser to the path, with the given
// counters; answers the parameter version saved.
using learner_actor = caf::typed_actor<
    caf::replies_to<agents::rollout>::with<train_ack>,
    caf::replies_to<drain_atom>::with<learner_final>,
    caf::replies_to<checkpoint_atom, std::string, model::checkpoint_meta>::with<std::uint64_t>>;

// Spawned detached. `metrics` may be an invalid handle (no reports). The
// caller restores a checkpoint into `learner` before spawning, if resuming.
learner_actor spawn_learner(caf::actor_system& sys, std::shared_ptr<agents::a3c_learner> learner,
                            metrics_actor metrics);

}  // namespace troupe::actors
