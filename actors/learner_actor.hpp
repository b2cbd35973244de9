#pragma once
// The learner: trains each rollout as it arrives, one update at a time, and
// reports every update to the metrics actor.
#include <memory>

#include "actors/messages.hpp"
#include "actors/metrics_actor.hpp"
#include "agents/algo_config.hpp"
#include "model/shared_model.hpp"

namespace troupe::actors {

using learner_actor =
    caf::typed_actor<caf::replies_to<agents::rollout>::with<train_ack>,
                     caf::replies_to<drain_atom>::with<learner_final>>;

// Spawned detached. `metrics` may be an invalid handle (no reports).
learner_actor spawn_learner(caf::actor_system& sys, std::shared_ptr<model::shared_model> model,
                            const agents::algo_config& config, metrics_actor metrics);

}  // namespace troupe::actors
