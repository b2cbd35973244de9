#include "model/actor_critic.hpp"

#include <cmath>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace troupe::model {

namespace {
// Orthogonal weights with a per-layer gain and zero biases: the policy head
// starts near uniform (small gain) and the value head near zero.
template <class Layer>
void init_layer(Layer& layer, double gain) {
  torch::NoGradGuard no_grad;
  torch::nn::init::orthogonal_(layer->weight, gain);
  torch::nn::init::zeros_(layer->bias);
}

// Appends Linear + activation layers of the given widths; returns the last width.
template <class Activation>
int add_dense_layers(torch::nn::Sequential& trunk, int width, const std::vector<int>& hidden) {
  for (int h : hidden) {
    torch::nn::Linear layer(width, h);
    init_layer(layer, std::sqrt(2.0));
    trunk->push_back(layer);
    trunk->push_back(Activation());
    width = h;
  }
  return width;
}
}  // namespace

namespace {
// A trunk for the given spec; returns it with the width of its features.
std::pair<torch::nn::Sequential, int> make_trunk(const net_spec& spec) {
  torch::nn::Sequential trunk;
  int width = spec.obs_size;
  if (spec.kind == "cnn") {
    if (spec.obs_shape.size() != 3)
      throw std::invalid_argument("model.kind cnn needs H x W x C observations");
    const int h = spec.obs_shape[0], w = spec.obs_shape[1], c = spec.obs_shape[2];
    torch::nn::Conv2d conv(torch::nn::Conv2dOptions(c, spec.conv_channels, 3));
    init_layer(conv, std::sqrt(2.0));
    trunk->push_back(conv);
    trunk->push_back(torch::nn::ReLU());
    trunk->push_back(torch::nn::Flatten());
    width = add_dense_layers<torch::nn::ReLU>(trunk, spec.conv_channels * (h - 2) * (w - 2),
                                              spec.hidden);
  } else if (spec.kind == "mlp" && spec.activation == "relu") {
    width = add_dense_layers<torch::nn::ReLU>(trunk, width, spec.hidden);
  } else if (spec.kind == "mlp" && spec.activation == "tanh") {
    width = add_dense_layers<torch::nn::Tanh>(trunk, width, spec.hidden);
  } else if (spec.kind == "mlp") {
    throw std::invalid_argument("unknown activation '" + spec.activation + "' (expected tanh or relu)");
  } else {
    throw std::invalid_argument("unknown model kind '" + spec.kind + "' (expected mlp or cnn)");
  }
  return {trunk, width};
}
}  // namespace

ActorCriticImpl::ActorCriticImpl(const net_spec& spec) : spec_(spec) {
  int width = 0;
  std::tie(trunk_, width) = make_trunk(spec);
  const recurrent_config& rc = spec.recurrent;
  if (rc.enabled()) {
    if (!spec.shared_trunk)
      throw std::invalid_argument("a recurrent core needs a shared trunk (model.shared_trunk: true)");
    if (rc.size < 1) throw std::invalid_argument("model.recurrent.size must be at least 1");
    if (rc.kind == "lstm")
      lstm_ = register_module("core", torch::nn::LSTMCell(width, rc.size));
    else if (rc.kind == "gru")
      gru_ = register_module("core", torch::nn::GRUCell(width, rc.size));
    else
      throw std::invalid_argument("unknown recurrent kind '" + rc.kind + "' (expected none, lstm or gru)");
    width = rc.size;
  }
  policy_head_ = torch::nn::Linear(width, spec.action_size);
  value_head_ = torch::nn::Linear(width, 1);
  init_layer(policy_head_, 0.01);
  init_layer(value_head_, 1.0);
  register_module("trunk", trunk_);
  if (!spec.shared_trunk) {
    value_trunk_ = make_trunk(spec).first;
    register_module("value_trunk", value_trunk_);
  }
  register_module("policy_head", policy_head_);
  register_module("value_head", value_head_);
  if (spec.continuous) log_std_ = register_parameter("log_std", torch::full({spec.action_size}, spec.log_std_init));
  if (spec.normalize.observation) {
    // No data yet: mean 0 and variance 1, as model::running_moments starts.
    obs_mean = register_buffer("obs_mean", torch::zeros({spec.obs_size}));
    obs_scale = register_buffer("obs_scale",
                                torch::full({spec.obs_size}, 1.0 / std::sqrt(1.0 + spec.normalize.epsilon)));
  }
}

torch::Tensor ActorCriticImpl::normalized(const torch::Tensor& observations) const {
  if (!obs_mean.defined()) return observations;
  const double clip = spec_.normalize.clip_observation;
  return ((observations - obs_mean) * obs_scale).clamp(-clip, clip);
}

namespace {
// Rows arrive flattened: a CNN reads [y][x][c] rows as N x C x H x W.
torch::Tensor as_input(const net_spec& spec, const torch::Tensor& observations) {
  if (spec.kind != "cnn") return observations;
  return observations.view({-1, spec.obs_shape[0], spec.obs_shape[1], spec.obs_shape[2]})
      .permute({0, 3, 1, 2});
}
}  // namespace

torch::Tensor ActorCriticImpl::features(const torch::Tensor& observations) {
  const torch::Tensor x = as_input(spec_, normalized(observations));
  return trunk_->is_empty() ? x : trunk_->forward(x);
}

std::pair<torch::Tensor, torch::Tensor> ActorCriticImpl::core(const torch::Tensor& features,
                                                              const torch::Tensor& states) {
  const int h = spec_.recurrent.size;
  if (!lstm_.is_empty()) {
    auto [hx, cx] = lstm_->forward(features, std::make_tuple(states.slice(1, 0, h),
                                                            states.slice(1, h, 2 * h)));
    return {hx, torch::cat({hx, cx}, 1)};
  }
  if (!gru_.is_empty()) {
    const torch::Tensor hx = gru_->forward(features, states);
    return {hx, hx};
  }
  return {features, torch::Tensor()};
}

actor_critic_output ActorCriticImpl::heads(const torch::Tensor& features) {
  return {policy_head_->forward(features), log_std_, value_head_->forward(features).squeeze(-1),
          torch::Tensor()};
}

actor_critic_output ActorCriticImpl::forward(const torch::Tensor& observations,
                                             const torch::Tensor& states) {
  if (spec_.recurrent.enabled()) {
    auto [out, next] = core(features(observations), states);
    actor_critic_output result = heads(out);
    result.states = next;
    return result;
  }
  const torch::Tensor x = as_input(spec_, normalized(observations));
  const torch::Tensor trunk_features = trunk_->is_empty() ? x : trunk_->forward(x);
  const torch::Tensor value_features =
      value_trunk_.is_empty() || value_trunk_->is_empty() ? trunk_features : value_trunk_->forward(x);
  return {policy_head_->forward(trunk_features), log_std_,
          value_head_->forward(value_features).squeeze(-1), torch::Tensor()};
}

}  // namespace troupe::model
