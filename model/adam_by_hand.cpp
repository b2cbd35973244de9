#include "model/adam_by_hand.hpp"

#include <cmath>

#include <torch/csrc/autograd/variable.h>

namespace troupe::model {

bool adam_step_by_hand(torch::optim::Optimizer& optimizer, torch::Tensor& param, const torch::Tensor& gradient) {
  auto* adam = dynamic_cast<torch::optim::Adam*>(&optimizer);
  if (!adam || adam->param_groups().size() != 1 || adam->state().size() != 1) return false;
  const auto& options = static_cast<const torch::optim::AdamOptions&>(adam->param_groups()[0].options());
  if (options.amsgrad() || options.weight_decay() != 0) return false;
  auto& state = static_cast<torch::optim::AdamParamState&>(*adam->state().begin()->second);
  torch::Tensor& m = state.exp_avg();
  torch::Tensor& v = state.exp_avg_sq();
  const std::int64_t n = param.numel();
  for (const torch::Tensor* t : {static_cast<const torch::Tensor*>(&param), &gradient, static_cast<const torch::Tensor*>(&m), static_cast<const torch::Tensor*>(&v)})
    if (!t->defined() || !t->device().is_cpu() || t->scalar_type() != torch::kFloat32 || !t->is_contiguous() ||
        t->numel() != n)
      return false;
  state.step(state.step() + 1);
  const double beta1 = std::get<0>(options.betas()), beta2 = std::get<1>(options.betas());
  const double correction1 = 1 - std::pow(beta1, double(state.step()));
  const double correction2 = 1 - std::pow(beta2, double(state.step()));
  // As LibTorch computes them: in float, with the scalars made floats.
  const float b1 = float(beta1), keep1 = float(1 - beta1), b2 = float(beta2), keep2 = float(1 - beta2);
  const float root2 = float(std::sqrt(correction2)), eps = float(options.eps());
  const float step_size = float(options.lr() / correction1);
  float* p = param.data_ptr<float>();
  const float* g = gradient.data_ptr<float>();
  float* mp = m.data_ptr<float>();
  float* vp = v.data_ptr<float>();
  for (std::int64_t i = 0; i < n; ++i) {
    mp[i] = mp[i] * b1 + g[i] * keep1;
    vp[i] = vp[i] * b2 + keep2 * g[i] * g[i];
    const float denom = std::sqrt(vp[i]) / root2 + eps;
    p[i] = p[i] - step_size * (mp[i] / denom);
  }
  // As an in-place operation would: autograd refuses a graph that saved
  // the parameters before this change.
  torch::autograd::impl::bump_version(param);
  return true;
}

}  // namespace troupe::model
