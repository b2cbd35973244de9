#pragma once
// The model-owner: one per device. Batches concurrent predict requests into
// one forward pass and answers each with actions sampled from the policy.
#include <cstdint>
#include <memory>

#include "actors/messages.hpp"
#include "model/shared_model.hpp"

namespace troupe::actors {

// batch_timeout_atom is the owner's own timer (with the batch's number): it
// flushes a batch that waited batching.max_wait_us for company.
using model_owner_actor =
    caf::typed_actor<caf::replies_to<predict_request>::with<predict_reply>,
                     caf::replies_to<stats_atom>::with<batch_stats>,
                     caf::reacts_to<batch_timeout_atom, std::uint64_t>>;

struct model_owner_config {
  int max_batch = 256;  // observations per forward pass; a larger request runs alone
  std::uint64_t seed = 1;  // for action sampling
  // 0: flush as soon as no further request is waiting. Otherwise a batch
  // that is not full waits up to this long for more requests.
  int max_wait_us = 0;
};

// Spawned detached (its own thread). The model must be warmed up first.
model_owner_actor spawn_model_owner(caf::actor_system& sys,
                                    std::shared_ptr<model::shared_model> model,
                                    const model_owner_config& config);

}  // namespace troupe::actors
