#pragma once
// The actor-critic: a trunk (tanh MLP, or a 3x3 convolution then ReLU layers
// for H x W x C observations), a policy head and a value head. The policy head
// gives logits (categorical) or the mean of a Gaussian whose log-std is a
// learned, state-independent parameter. Includes LibTorch: only the model's
// own .cpp files include it.
#include <torch/torch.h>

#include "model/net_spec.hpp"

namespace troupe::model {

struct actor_critic_output {
  torch::Tensor policy;   // [batch, action_size]: logits, or Gaussian means
  torch::Tensor log_std;  // [action_size] for a Gaussian head; undefined otherwise
  torch::Tensor values;   // [batch]
};

class ActorCriticImpl : public torch::nn::Module {
 public:
  explicit ActorCriticImpl(const net_spec& spec);
  actor_critic_output forward(const torch::Tensor& observations);

 private:
  net_spec spec_;
  torch::nn::Sequential trunk_;
  torch::nn::Sequential value_trunk_{nullptr};  // only without a shared trunk
  torch::nn::Linear policy_head_{nullptr};
  torch::nn::Linear value_head_{nullptr};
  torch::Tensor log_std_;
};
TORCH_MODULE(ActorCritic);

}  // namespace troupe::model
