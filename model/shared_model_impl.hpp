#pragma once
// The definition of shared_model, for the LibTorch files that train it.
#include <atomic>
#include <optional>
#include <vector>

#include "model/actor_critic.hpp"
#include "model/critical_section.hpp"
#include "model/mlp_by_hand.hpp"
#include "model/parameter_state.hpp"
#include "model/running_moments.hpp"
#include "model/shared_model.hpp"

namespace troupe::model {

// Makes every parameter of `net` a view of one new contiguous tensor
// (their values kept), and returns that tensor.
torch::Tensor flatten_parameters(torch::nn::Module& net);

struct shared_model {
  explicit shared_model(const net_spec& s, torch::Device d = torch::kCPU)
      : spec(s), device(d), net(s), params("parameters", {net.get()}, claim::exclusive),
        obs_moments(s.normalize.observation ? s.obs_size : 0), return_moments(s.normalize.reward ? 1 : 0) {
    if (!device.is_cpu()) net->to(device);
    flat = flatten_parameters(*net);
    if (spec.by_hand) by_hand = mlp_layout_of(*this);
  }
  net_spec spec;
  torch::Device device;  // where the parameters live and forward passes run
  ActorCritic net;
  // Every parameter of `net` in one contiguous tensor, in parameters()
  // order: each parameter is a view of it. An optimiser steps this one
  // tensor (a few operations per update instead of a few per parameter),
  // and a replica's update is one addition.
  torch::Tensor flat;
  // Where net's layers lie in `flat`, when spec.by_hand asks for the passes
  // by hand and they compute this network (model/mlp_by_hand.hpp): then
  // predict runs them, and a PPO learner's minibatch steps.
  std::optional<mlp_layout> by_hand;
  // Guards net's parameters and version: updates run exclusively, forward
  // passes shared.
  critical_section params;
  std::uint64_t version = 0;
  // Set by judge_parameters: updates are refused from then on.
  std::atomic<bool> frozen{false};
  // Normalisation statistics (net_spec::normalize), saved with the
  // parameters: of the observations trained on (dim 0 when not normalised;
  // the network's obs_mean and obs_scale follow them, under `params`), and of
  // the discounted returns whose spread scales the rewards (dim 0 when not
  // normalised; only the learner reads and writes them).
  running_moments obs_moments;
  running_moments return_moments;
};

// The model's parameter state (model/parameter_state.hpp), on the host; the
// caller holds the parameters' section (shared is enough).
parameter_state read_parameter_state(const shared_model& model);
// Writes `state`'s parameters, buffers and statistics into the model (on its
// device); the version is left to the caller. The caller holds the section
// exclusively (or owns the model alone). Throws std::invalid_argument, with
// nothing written, when `state` is of another network.
void write_parameter_state(shared_model& model, const parameter_state& state);

// Makes the network's obs_mean and obs_scale those of model.obs_moments; the
// caller holds the parameters' section exclusively (or owns the model alone).
void install_observation_statistics(shared_model& model);

// The gradients of `loss` for every parameter, as one tensor laid out as
// model.flat (a parameter the loss does not use gets zeros). The parameters'
// own .grad fields are left alone.
torch::Tensor flat_gradient(shared_model& model, const torch::Tensor& loss);

// One atomic update: inside the parameters' critical section, installs
// `gradient` (laid out as model.flat) as model.flat's gradient, steps
// `optimizer`, which must optimise model.flat alone, and moves the version
// forward by exactly one. Returns the new version, or nothing when the
// parameters are frozen and the update was refused. The gradient is passed
// in rather than left in a .grad field, so learners on other threads can
// compute theirs at the same time. When `delta` is not null, it receives the
// change the step made to every parameter, flattened (what apply_delta adds
// to another replica). With `step_by_hand`, an Adam or RMSprop optimiser
// steps by model/adam_by_hand.hpp's or model/rmsprop_by_hand.hpp's loop
// (equal within rounding; the hand-written learners' paths take it,
// LibTorch's keep LibTorch's own step bit for bit).
std::optional<std::uint64_t> apply_gradients(shared_model& model, torch::optim::Optimizer& optimizer,
                                             const torch::Tensor& gradient,
                                             std::vector<float>* delta = nullptr, bool step_by_hand = false);

}  // namespace troupe::model
