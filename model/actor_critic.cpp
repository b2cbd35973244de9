#include "model/actor_critic.hpp"

#include <cmath>

namespace troupe::model {

namespace {
// Orthogonal weights with a per-layer gain and zero biases: the policy head
// starts near uniform (small gain) and the value head near zero.
void init_linear(torch::nn::Linear& layer, double gain) {
  torch::NoGradGuard no_grad;
  torch::nn::init::orthogonal_(layer->weight, gain);
  torch::nn::init::zeros_(layer->bias);
}
}  // namespace

ActorCriticImpl::ActorCriticImpl(const net_spec& spec) {
  int width = spec.obs_size;
  for (int h : spec.hidden) {
    torch::nn::Linear layer(width, h);
    init_linear(layer, std::sqrt(2.0));
    trunk_->push_back(layer);
    trunk_->push_back(torch::nn::Tanh());
    width = h;
  }
  policy_head_ = torch::nn::Linear(width, spec.num_actions);
  value_head_ = torch::nn::Linear(width, 1);
  init_linear(policy_head_, 0.01);
  init_linear(value_head_, 1.0);
  register_module("trunk", trunk_);
  register_module("policy_head", policy_head_);
  register_module("value_head", value_head_);
}

actor_critic_output ActorCriticImpl::forward(const torch::Tensor& observations) {
  torch::Tensor features = trunk_->is_empty() ? observations : trunk_->forward(observations);
  return {policy_head_->forward(features), value_head_->forward(features).squeeze(-1)};
}

}  // namespace troupe::model
