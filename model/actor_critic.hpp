#pragma once
// The MLP actor-critic: a shared tanh trunk, a policy head (logits) and a
// value head. Includes LibTorch: only the model's own .cpp files include it.
#include <torch/torch.h>

#include "model/net_spec.hpp"

namespace troupe::model {

struct actor_critic_output {
  torch::Tensor logits;  // [batch, num_actions]
  torch::Tensor values;  // [batch]
};

class ActorCriticImpl : public torch::nn::Module {
 public:
  explicit ActorCriticImpl(const net_spec& spec);
  actor_critic_output forward(const torch::Tensor& observations);

 private:
  torch::nn::Sequential trunk_;
  torch::nn::Linear policy_head_{nullptr};
  torch::nn::Linear value_head_{nullptr};
};
TORCH_MODULE(ActorCritic);

}  // namespace troupe::model
