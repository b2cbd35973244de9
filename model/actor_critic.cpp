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
// Appends the 3x3 convolution that reads one image: conv_channels of ReLU,
// flattened (a cnn trunk's first layers, and each image encoder).
void add_conv(torch::nn::Sequential& layers, const net_spec& spec, int channels) {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(channels, spec.conv_channels, 3));
  init_layer(conv, std::sqrt(2.0));
  layers->push_back(conv);
  layers->push_back(torch::nn::ReLU());
  layers->push_back(torch::nn::Flatten());
}

int conv_features(const net_spec& spec, const image_input& image) {
  return spec.conv_channels * (image.height() - 2) * (image.width() - 2);
}

// The width of what the trunk's dense layers read of a structured
// observation with images: its other values, then each image's features.
int encoded_width(const net_spec& spec) {
  int width = spec.obs_size;
  for (const image_input& image : spec.image_inputs) width += conv_features(spec, image) - image.size();
  return width;
}

// A trunk for the given spec; returns it with the width of its features.
std::pair<torch::nn::Sequential, int> make_trunk(const net_spec& spec) {
  torch::nn::Sequential trunk;
  int width = spec.obs_size;
  if (!spec.image_inputs.empty()) {
    // The images are encoded before the trunk (ActorCriticImpl::encoded);
    // a cnn's dense layers are ReLU, an mlp's its activation.
    width = spec.kind == "mlp" && spec.activation == "tanh"
                ? add_dense_layers<torch::nn::Tanh>(trunk, encoded_width(spec), spec.hidden)
                : add_dense_layers<torch::nn::ReLU>(trunk, encoded_width(spec), spec.hidden);
  } else if (spec.kind == "cnn") {
    if (spec.obs_shape.size() != 3)
      throw std::invalid_argument("model.kind cnn needs image observations (H x W x C or C x H x W)");
    add_conv(trunk, spec, spec.whole_image().channels());
    width = add_dense_layers<torch::nn::ReLU>(trunk, conv_features(spec, spec.whole_image()), spec.hidden);
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
  if (!spec.image_inputs.empty()) {
    std::vector<char> in_image(size_t(spec.obs_size), 0);
    for (size_t i = 0; i < spec.image_inputs.size(); ++i) {
      const image_input& image = spec.image_inputs[i];
      if (image.shape.size() != 3 || image.height() < 3 || image.width() < 3 || image.offset < 0 ||
          image.offset + image.size() > spec.obs_size)
        throw std::invalid_argument("an image input must be of rank 3 with height and width >= 3, within the observation");
      torch::nn::Sequential encoder;
      add_conv(encoder, spec, image.channels());
      encoders_.push_back(register_module("encoder_" + std::to_string(i), encoder));
      std::fill(in_image.begin() + image.offset, in_image.begin() + image.offset + image.size(), 1);
    }
    std::vector<std::int64_t> columns;
    for (int j = 0; j < spec.obs_size; ++j)
      if (!in_image[size_t(j)]) columns.push_back(j);
    flat_columns_ = register_buffer("flat_columns", torch::tensor(columns, torch::kInt64));
  }
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
  if (spec.gaussian_dims() > 0)
    log_std_ = register_parameter("log_std", torch::full({spec.gaussian_dims()}, spec.log_std_init));
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
// Rows of an image's values as N x C x H x W, what a convolution reads.
torch::Tensor as_image(const torch::Tensor& rows, const image_input& image) {
  const auto& d = image.shape;
  if (image.channels_first) return rows.reshape({-1, d[0], d[1], d[2]});
  return rows.reshape({-1, d[0], d[1], d[2]}).permute({0, 3, 1, 2});
}
}  // namespace

torch::Tensor ActorCriticImpl::encoded(const torch::Tensor& observations) {
  const torch::Tensor x = normalized(observations);
  if (encoders_.empty()) return spec_.kind == "cnn" ? as_image(x, spec_.whole_image()) : x;
  std::vector<torch::Tensor> parts;
  if (flat_columns_.numel() > 0) parts.push_back(x.index_select(1, flat_columns_));
  for (size_t i = 0; i < encoders_.size(); ++i) {
    const image_input& image = spec_.image_inputs[i];
    parts.push_back(encoders_[i]->forward(as_image(x.narrow(1, image.offset, image.size()), image)));
  }
  return torch::cat(parts, 1);
}

torch::Tensor ActorCriticImpl::features(const torch::Tensor& observations) {
  const torch::Tensor x = encoded(observations);
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
  const torch::Tensor x = encoded(observations);
  const torch::Tensor trunk_features = trunk_->is_empty() ? x : trunk_->forward(x);
  const torch::Tensor value_features =
      value_trunk_.is_empty() || value_trunk_->is_empty() ? trunk_features : value_trunk_->forward(x);
  return {policy_head_->forward(trunk_features), log_std_,
          value_head_->forward(value_features).squeeze(-1), torch::Tensor()};
}

}  // namespace troupe::model
