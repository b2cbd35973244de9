#pragma once
// Truncated backpropagation through time over one rollout, for a network with
// a recurrent core. Includes LibTorch: only the learner and its tests use it.
#include <functional>

#include <torch/torch.h>

#include "algo/rollout.hpp"
#include "model/actor_critic.hpp"

namespace troupe::algo {

// The network's outputs for a rollout's rows (n + 1 rows of k observations,
// then the truncation observations `cut`, which may be undefined): the core
// unrolled through time from the rollout's initial states, each environment's
// state zeroed where its previous step ended an episode, and each truncation
// observation read with the state its episode had reached. Gradients flow
// back through every step of the rollout to its initial states (which are
// constants). `rows` and `cut` are on the model's device; `on_device` moves
// host tensors there.
model::actor_critic_output unroll(model::ActorCriticImpl& net, const rollout& r,
                                  const torch::Tensor& rows, const torch::Tensor& cut,
                                  const std::function<torch::Tensor(const torch::Tensor&)>& on_device);

}  // namespace troupe::algo
