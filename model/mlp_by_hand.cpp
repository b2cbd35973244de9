#include "model/mlp_by_hand.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace troupe::model {

namespace {

// e^x for x <= 0, in arithmetic a compiler turns into vector instructions
// (std::exp and std::tanh stay scalar calls): x = k ln 2 + r with |r| <=
// ln 2 / 2, e^r by its Taylor series to r^7 (relative error below 1e-8),
// 2^k by writing the exponent's bits.
inline float exp_nonpositive(float x) {
  x = x > -87.0f ? x : -87.0f;
  // Rounds to the nearest integer by adding and subtracting 1.5 * 2^23.
  const float k = (x * 1.44269504f + 12582912.0f) - 12582912.0f;
  const float r = (x - k * 0.693359375f) + k * 2.12194440e-4f;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(k) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// tanh(x) = sign(x) (1 - e) / (1 + e) with e = e^(-2|x|); absolute error
// about 1e-7.
void tanh_in_place(float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const float e = exp_nonpositive(-2.0f * std::fabs(x[i]));
    x[i] = std::copysign((1.0f - e) / (1.0f + e), x[i]);
  }
}

void relu_in_place(float* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

// y [n][out] = x [n][in] W^T + b.
void linear(const float* params, const dense_layer& l, const float* x, int n, float* y) {
  const float* b = params + l.bias;
  for (int i = 0; i < n; ++i) std::memcpy(y + std::size_t(i) * l.out, b, sizeof(float) * std::size_t(l.out));
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, l.out, l.in, 1.0f, x, l.in, params + l.weight,
              l.in, 1.0f, y, l.out);
}

// dW = dy^T x and db = the column sums of dy, written over `gradient`'s
// entries for the layer; dx = dy W when dx is not null.
void linear_backward(const float* params, const dense_layer& l, const float* x, const float* dy, int n,
                     float* gradient, float* dx) {
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, l.out, l.in, n, 1.0f, dy, l.out, x, l.in, 0.0f,
              gradient + l.weight, l.in);
  float* db = gradient + l.bias;
  std::fill(db, db + l.out, 0.0f);
  for (int i = 0; i < n; ++i) {
    const float* row = dy + std::size_t(i) * l.out;
    for (int j = 0; j < l.out; ++j) db[j] += row[j];
  }
  if (dx)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, l.in, l.out, 1.0f, dy, l.out,
                params + l.weight, l.in, 0.0f, dx, l.in);
}

}  // namespace

void mlp_pass::hidden_forward(const float* params, const std::vector<dense_layer>& layers, stack& acts) {
  acts.resize(layers.size() + 1);
  acts[0].assign(input_.begin(), input_.end());
  for (std::size_t l = 0; l < layers.size(); ++l) {
    std::vector<float>& y = acts[l + 1];
    y.resize(std::size_t(n_) * std::size_t(layers[l].out));
    linear(params, layers[l], acts[l].data(), n_, y.data());
    if (layout_.tanh)
      tanh_in_place(y.data(), y.size());
    else
      relu_in_place(y.data(), y.size());
  }
}

void mlp_pass::forward(const float* params, const float* obs_mean, const float* obs_scale, const float* rows,
                       int n) {
  const mlp_layout& L = layout_;
  n_ = n;
  input_.assign(rows, rows + std::size_t(n) * std::size_t(L.obs_size));
  if (L.normalize)
    for (int i = 0; i < n; ++i) {
      float* x = input_.data() + std::size_t(i) * std::size_t(L.obs_size);
      for (int j = 0; j < L.obs_size; ++j) x[j] = std::clamp((x[j] - obs_mean[j]) * obs_scale[j], -L.clip, L.clip);
    }
  hidden_forward(params, L.trunk, policy_acts_);
  policy_out_.resize(std::size_t(n) * std::size_t(L.policy_head.out));
  linear(params, L.policy_head, policy_acts_.back().data(), n, policy_out_.data());
  const bool shared = L.value_trunk.empty();
  if (!shared) hidden_forward(params, L.value_trunk, value_acts_);
  value_out_.resize(std::size_t(n));
  linear(params, L.value_head, (shared ? policy_acts_ : value_acts_).back().data(), n, value_out_.data());
}

void mlp_pass::hidden_backward(const float* params, const std::vector<dense_layer>& layers, stack& acts,
                               std::vector<float>& d_top, float* gradient) {
  for (std::size_t l = layers.size(); l-- > 0;) {
    // Through the activation: tanh' = 1 - y^2, ReLU' = [y > 0].
    const std::vector<float>& y = acts[l + 1];
    if (layout_.tanh)
      for (std::size_t i = 0; i < y.size(); ++i) d_top[i] *= 1.0f - y[i] * y[i];
    else
      for (std::size_t i = 0; i < y.size(); ++i) d_top[i] = y[i] > 0 ? d_top[i] : 0.0f;
    float* dx = nullptr;
    if (l > 0) {
      d_scratch_.resize(std::size_t(n_) * std::size_t(layers[l].in));
      dx = d_scratch_.data();
    }
    linear_backward(params, layers[l], acts[l].data(), d_top.data(), n_, gradient, dx);
    if (dx) d_top.swap(d_scratch_);
  }
}

void mlp_pass::backward(const float* params, const float* d_policy, const float* d_values, float* gradient) {
  const mlp_layout& L = layout_;
  std::fill(gradient, gradient + L.parameter_count, 0.0f);
  const bool shared = L.value_trunk.empty();
  const int width = L.policy_head.in;
  std::vector<float> d_features(std::size_t(n_) * std::size_t(width));
  linear_backward(params, L.policy_head, policy_acts_.back().data(), d_policy, n_, gradient,
                  L.trunk.empty() ? nullptr : d_features.data());
  // The value head's input gradient: into the shared features, or its own trunk's.
  const int value_width = L.value_head.in;
  d_value_top_.resize(std::size_t(n_) * std::size_t(value_width));
  const bool value_needs_input = shared ? !L.trunk.empty() : true;
  linear_backward(params, L.value_head, (shared ? policy_acts_ : value_acts_).back().data(), d_values, n_,
                  gradient, value_needs_input ? d_value_top_.data() : nullptr);
  if (shared) {
    for (std::size_t i = 0; i < d_features.size() && !L.trunk.empty(); ++i) d_features[i] += d_value_top_[i];
  } else {
    hidden_backward(params, L.value_trunk, value_acts_, d_value_top_, gradient);
  }
  if (!L.trunk.empty()) hidden_backward(params, L.trunk, policy_acts_, d_features, gradient);
}

}  // namespace troupe::model
