#pragma once
// The evaluator: plays whole episodes with the current parameters, on its
// own thread, while updates wait. A mean return over the last episodes of
// training mixes many older parameter versions (an episode of CartPole spans
// hundreds of updates); the evaluator says what the policy scores now, so a
// run stops as solved only when its final policy is.
#include <cstdint>
#include <memory>
#include <vector>

#include "actors/messages.hpp"
#include "envs/env_config.hpp"
#include "model/shared_model.hpp"

namespace troupe::actors {

// (evaluate_atom, episodes, seed): sampled actions, as in training. A mean
// return of at least `target` passes, and freezes the parameters for good:
// the run is over, and its final checkpoint holds what passed. With several
// replicas, `model` is replica 0's (the one checkpoints save) and a pass
// freezes `other_replicas` too.
using evaluator_actor = caf::typed_actor<
    caf::replies_to<evaluate_atom, std::int32_t, std::uint64_t>::with<evaluation_report>>;

evaluator_actor spawn_evaluator(
    caf::actor_system& sys, std::shared_ptr<model::shared_model> model,
    const envs::env_config& env, double target,
    std::vector<std::shared_ptr<model::shared_model>> other_replicas = {});

}  // namespace troupe::actors
