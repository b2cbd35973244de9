#pragma once
// The model-owner: one per device. Batches concurrent predict requests into
// one forward pass and answers each with actions sampled from the policy.
#include <cstdint>
#include <memory>

#include <caf/all.hpp>

#include "actors/messages/predict.hpp"
#include "actors/predict_lane.hpp"
#include "run/run_config.hpp"
#include "model/shared_model.hpp"

namespace troupe::actors {

using model_owner_actor =
    caf::typed_actor<caf::replies_to<predict_request>::with<predict_reply>,
                     caf::replies_to<stats_atom>::with<batch_stats>>;

// Spawned detached (its own thread). The model must be warmed up first.
// Flushes a batch when it holds batching.max_batch observations (a larger
// request runs alone), or when no further request is waiting (after up to
// batching.max_wait_us, when that is not 0). `seed` seeds action sampling.
//
// Requests come as predict_request messages (from the cluster gateway, the
// evaluator, tests) or, from agents of this process, through `lane` when
// one is given (actors/predict_lane.hpp): both kinds share batches. When
// the owner stops, every request waiting in the lane fails.
//
// `deterministic` (run.deterministic): every request is a forward pass of
// its own, and agent i's actions are drawn from a stream of its own seeded
// from `seed` and i, so what an agent is answered does not depend on which
// requests arrived beside or before its own.
model_owner_actor spawn_model_owner(caf::actor_system& sys,
                                    std::shared_ptr<model::shared_model> model,
                                    const run::batching_config& batching, std::uint64_t seed,
                                    std::shared_ptr<predict_lane> lane = nullptr,
                                    bool deterministic = false);

}  // namespace troupe::actors
