#include "model/rmsprop_by_hand.hpp"

#include <cmath>

#include <torch/csrc/autograd/variable.h>

namespace troupe::model {

bool rmsprop_step_by_hand(torch::optim::Optimizer& optimizer, torch::Tensor& param, const torch::Tensor& gradient) {
  auto* rmsprop = dynamic_cast<torch::optim::RMSprop*>(&optimizer);
  if (!rmsprop || rmsprop->param_groups().size() != 1 || rmsprop->state().size() != 1) return false;
  const auto& options = static_cast<const torch::optim::RMSpropOptions&>(rmsprop->param_groups()[0].options());
  if (options.momentum() != 0 || options.centered() || options.weight_decay() != 0) return false;
  auto& state = static_cast<torch::optim::RMSpropParamState&>(*rmsprop->state().begin()->second);
  torch::Tensor& square_avg = state.square_avg();
  const std::int64_t n = param.numel();
  for (const torch::Tensor* t : {static_cast<const torch::Tensor*>(&param), &gradient, static_cast<const torch::Tensor*>(&square_avg)})
    if (!t->defined() || !t->device().is_cpu() || t->scalar_type() != torch::kFloat32 || !t->is_contiguous() ||
        t->numel() != n)
      return false;
  state.step(state.step() + 1);
  // As LibTorch computes them: in float, with the scalars made floats.
  const float alpha = float(options.alpha()), keep = float(1 - options.alpha());
  const float eps = float(options.eps()), lr = float(options.lr());
  float* p = param.data_ptr<float>();
  const float* g = gradient.data_ptr<float>();
  float* s = square_avg.data_ptr<float>();
  for (std::int64_t i = 0; i < n; ++i) {
    s[i] = s[i] * alpha + keep * g[i] * g[i];
    p[i] = p[i] - lr * (g[i] / (std::sqrt(s[i]) + eps));
  }
  // As an in-place operation would: autograd refuses a graph that saved
  // the parameters before this change.
  torch::autograd::impl::bump_version(param);
  return true;
}

}  // namespace troupe::model
