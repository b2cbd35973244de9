#pragma once
// The actor-critic: a trunk (an MLP of tanh or ReLU layers, or a 3x3 convolution then ReLU layers
// for H x W x C observations; a structured observation's images each get a
// convolution of their own before the dense layers), optionally a recurrent core (an LSTM or GRU
// cell), a policy head and a value head. The policy head gives logits
// (categorical) or the mean of a Gaussian whose log-std is a learned,
// state-independent parameter. Includes LibTorch: only the model's own and
// the learner's .cpp files include it.
//
// A recurrent network's state is a row per observation (see net_spec::
// state_size): forward takes the state each row had before its observation
// and returns the state after it. Rows never mix: batching many agents'
// environments into one pass is the same as one row at a time.
#include <torch/torch.h>

#include "model/net_spec.hpp"

namespace troupe::model {

struct actor_critic_output {
  torch::Tensor policy;   // [batch, action_size]: logits, then any Gaussian means
  torch::Tensor log_std;  // [gaussian_dims] for a Gaussian (or hybrid) head; undefined otherwise
  torch::Tensor values;   // [batch]
  torch::Tensor states;   // [batch, state_size]: each row's next state; undefined without a core
};

class ActorCriticImpl : public torch::nn::Module {
 public:
  explicit ActorCriticImpl(const net_spec& spec);
  // Feed-forward networks: `states` is ignored (and may be undefined).
  actor_critic_output forward(const torch::Tensor& observations,
                              const torch::Tensor& states = {});

  // The three stages, for a learner that unrolls a recurrent core through
  // time: the trunk's features of observations; one step of the core from
  // `states` (returns the core's output and the next states); the heads.
  torch::Tensor features(const torch::Tensor& observations);
  std::pair<torch::Tensor, torch::Tensor> core(const torch::Tensor& features,
                                               const torch::Tensor& states);
  actor_critic_output heads(const torch::Tensor& features);

  // With spec.normalize.observation: what the network subtracts from its
  // inputs and multiplies them by (buffers, set from the running statistics
  // by model::fold_observations and checkpoint loading); undefined otherwise.
  torch::Tensor obs_mean, obs_scale;

 private:
  // Observations as the trunk reads them: normalised and clipped when the
  // spec says so, else as they are.
  torch::Tensor normalized(const torch::Tensor& observations) const;
  // What the trunk reads: normalised observations, as an image for a cnn,
  // or a structured observation's other values then its images' features.
  torch::Tensor encoded(const torch::Tensor& observations);

  net_spec spec_;
  torch::nn::Sequential trunk_;
  torch::nn::Sequential value_trunk_{nullptr};  // only without a shared trunk
  torch::nn::Linear policy_head_{nullptr};
  torch::nn::Linear value_head_{nullptr};
  torch::nn::LSTMCell lstm_{nullptr};  // the core, when recurrent.kind is lstm
  torch::nn::GRUCell gru_{nullptr};    // or gru
  torch::Tensor log_std_;
  // spec.image_inputs: one convolution per image (shared by the actor's and
  // the critic's trunks), and the row's columns that are no image's.
  std::vector<torch::nn::Sequential> encoders_;
  torch::Tensor flat_columns_;
};
TORCH_MODULE(ActorCritic);

}  // namespace troupe::model
