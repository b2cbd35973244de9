#pragma once
// A small feed-forward actor-critic's forward and backward passes written
// out by hand, in plain C++ over BLAS's matrix products. LibTorch spends
// about 10 us on each operation whatever its size, and a 64-64 network's
// minibatch step is a hundred of them for a few MFLOP of arithmetic
// (docs/benchmarks.md); these passes do the same arithmetic in a handful of
// calls. They compute what model::ActorCritic computes for an mlp spec
// without images or a recurrent core, reading the parameters where the
// shared model's flat tensor holds them; tests/model/mlp_by_hand_test.cpp
// holds them to LibTorch's autograd.
#include <cstdint>
#include <optional>
#include <vector>

namespace troupe::model {

struct shared_model;

// One linear layer, y = x W^T + b, as offsets into the flat parameters (W is
// [out][in], row-major, as LibTorch lays out a Linear's weight).
struct dense_layer {
  int in = 0, out = 0;
  std::int64_t weight = 0, bias = 0;
};

struct mlp_layout {
  std::vector<dense_layer> trunk;        // the hidden layers the policy head reads
  std::vector<dense_layer> value_trunk;  // the value head's own; empty: it reads `trunk`'s
  dense_layer policy_head, value_head;
  std::int64_t log_std = -1;  // the Gaussian log-stds' offset; -1 without
  int log_std_size = 0;
  bool tanh = true;  // the hidden layers' activation: tanh, else ReLU
  int obs_size = 0;
  bool normalize = false;  // inputs become clamp((x - mean) * scale, -clip, clip)
  float clip = 10;
  std::int64_t parameter_count = 0;
};

// The layout of `model`'s network, or nothing when these passes do not
// compute it (a cnn, images, a recurrent core, parameters off the CPU).
std::optional<mlp_layout> mlp_layout_of(shared_model& model);

// A forward pass over a batch of rows, kept for the backward pass after it.
class mlp_pass {
 public:
  explicit mlp_pass(mlp_layout layout) : layout_(std::move(layout)) {}
  const mlp_layout& layout() const { return layout_; }

  // `params`: the flat parameters; `obs_mean` and `obs_scale`: the
  // network's normalisation (read only when layout().normalize).
  void forward(const float* params, const float* obs_mean, const float* obs_scale, const float* rows,
               int n);
  int rows() const { return n_; }
  const float* policy() const { return policy_out_.data(); }  // [rows][policy_head.out]
  const float* values() const { return value_out_.data(); }   // [rows]

  // The gradient of a loss with respect to every parameter, given its
  // gradients with respect to the last forward's outputs, written over
  // `gradient` (layout().parameter_count floats, laid out as the flat
  // parameters; the log-stds' entries are left 0: they are not outputs of
  // the layers). `params` must be the forward's.
  void backward(const float* params, const float* d_policy, const float* d_values, float* gradient);

 private:
  // The activations of a stack of hidden layers: inputs first, one per layer.
  using stack = std::vector<std::vector<float>>;
  void hidden_forward(const float* params, const std::vector<dense_layer>& layers, stack& acts);
  // d_top: the gradient at the stack's last activation (consumed).
  void hidden_backward(const float* params, const std::vector<dense_layer>& layers, stack& acts,
                       std::vector<float>& d_top, float* gradient);

  mlp_layout layout_;
  int n_ = 0;
  std::vector<float> input_;
  stack policy_acts_, value_acts_;  // value_acts_ unused with a shared trunk
  std::vector<float> policy_out_, value_out_;
  std::vector<float> d_scratch_, d_value_top_;
};

}  // namespace troupe::model
