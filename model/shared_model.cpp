#include "model/shared_model.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "model/adam_by_hand.hpp"
#include "model/rmsprop_by_hand.hpp"
#include "model/compute_runtime.hpp"
#include "model/device_transfer.hpp"
#include "model/host_values.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::model {

torch::Tensor flatten_parameters(torch::nn::Module& net) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> parameters = net.parameters();
  std::vector<torch::Tensor> pieces;
  for (const auto& p : parameters) pieces.push_back(p.detach().reshape({-1}));
  torch::Tensor flat = torch::cat(pieces);
  std::int64_t offset = 0;
  for (auto& p : parameters) {
    // The parameter stays the module's leaf, now over flat's memory.
    p.set_data(flat.slice(0, offset, offset + p.numel()).view(p.sizes()));
    offset += p.numel();
  }
  return flat.requires_grad_(true);
}

std::shared_ptr<shared_model> make_shared_model(const net_spec& spec, std::uint64_t seed,
                                                const std::string& device) {
  const torch::Device where = parse_device(device);
  torch::manual_seed(seed);
  return std::make_shared<shared_model>(spec, where);
}

namespace {

// `values` into `t` (its shape, dtype and device).
void assign_values(torch::Tensor& t, const std::vector<float>& values) {
  const torch::Tensor host = torch::from_blob(const_cast<float*>(values.data()), {std::int64_t(values.size())});
  t.copy_(host.view(t.sizes()));
}

}  // namespace

parameter_state read_parameter_state(const shared_model& model) {
  torch::NoGradGuard no_grad;
  parameter_state state;
  state.flat = host_values(model.flat);
  for (const auto& b : model.net->buffers()) state.buffers.push_back(host_values(b));
  state.obs_moments = model.obs_moments;
  state.return_moments = model.return_moments;
  state.version = model.version;
  return state;
}

void write_parameter_state(shared_model& model, const parameter_state& state) {
  auto buffers = model.net->buffers();
  bool fits = std::int64_t(state.flat.size()) == model.flat.numel() && state.buffers.size() == buffers.size() &&
              state.obs_moments.dim() == model.obs_moments.dim() &&
              state.return_moments.dim() == model.return_moments.dim();
  for (size_t i = 0; fits && i < buffers.size(); ++i) fits = std::int64_t(state.buffers[i].size()) == buffers[i].numel();
  if (!fits) throw std::invalid_argument("a parameter state of another network");
  torch::NoGradGuard no_grad;
  assign_values(model.flat, state.flat);
  for (size_t i = 0; i < buffers.size(); ++i) assign_values(buffers[i], state.buffers[i]);
  model.obs_moments = state.obs_moments;  // what a checkpoint of the copy saves
  model.return_moments = state.return_moments;
}

void copy_parameters(shared_model& from, shared_model& to) {
  // Read and written in two sections one after the other: two models copied
  // into each other never deadlock, and the copy is still one version.
  const parameter_state state = from.params.run_shared([&] { return read_parameter_state(from); });
  to.params.run([&] {
    write_parameter_state(to, state);
    to.version = state.version;
  });
}

namespace {

// Every parameter, flattened into a tensor of its own on the host.
torch::Tensor flat_on_host(shared_model& model) {
  return model.flat.detach().to(torch::kCPU, /*non_blocking=*/false, /*copy=*/true);
}

}  // namespace

std::optional<std::uint64_t> apply_delta(shared_model& model, const std::vector<float>& delta) {
  return model.params.run([&]() -> std::optional<std::uint64_t> {
    if (model.frozen.load()) return std::nullopt;
    const std::int64_t total = model.flat.numel();
    if (static_cast<std::int64_t>(delta.size()) != total)
      throw std::invalid_argument("apply_delta: " + std::to_string(delta.size()) +
                                  " values for " + std::to_string(total) + " parameters");
    torch::NoGradGuard no_grad;
    torch::Tensor all = torch::from_blob(const_cast<float*>(delta.data()), {total}, torch::kFloat32);
    model.flat.add_(model.device.is_cpu() ? all : all.to(model.device));
    return ++model.version;
  });
}

std::vector<float> flat_parameters(shared_model& model) {
  return model.params.run_shared([&] {
    const torch::Tensor flat = flat_on_host(model);
    return std::vector<float>(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
  });
}

void freeze(shared_model& model) { model.frozen.store(true); }

namespace {

// predict's pass for a network model/mlp_by_hand.hpp computes.
void predict_by_hand(shared_model& model, const float* observations, int batch, prediction& out) {
  const mlp_layout& layout = *model.by_hand;
  mlp_pass pass(layout);
  model.params.run_shared([&] {
    const float* params = model.flat.data_ptr<float>();
    pass.forward(params, layout.normalize ? model.net->obs_mean.data_ptr<float>() : nullptr,
                 layout.normalize ? model.net->obs_scale.data_ptr<float>() : nullptr, observations, batch);
    out.version = model.version;
    if (layout.log_std >= 0) out.log_std.assign(params + layout.log_std, params + layout.log_std + layout.log_std_size);
  });
  out.states.clear();
  out.policy.assign(pass.policy(), pass.policy() + std::size_t(batch) * std::size_t(layout.policy_head.out));
  out.values.assign(pass.values(), pass.values() + batch);
}

}  // namespace

void predict(shared_model& model, const float* observations, const float* states, int batch,
             prediction& out, input_staging* staging) {
  const int obs_size = model.spec.obs_size;
  const int state_size = model.spec.state_size();
  const int actions = model.spec.action_size;
  if (model.by_hand) {
    predict_by_hand(model, observations, batch, out);
    return;
  }
  use_compute_threads_here();
  // Inference mode is per thread: set it here, on the thread that runs the pass.
  c10::InferenceMode inference;
  torch::Tensor input = torch::from_blob(const_cast<float*>(observations), {batch, obs_size},
                                         torch::kFloat32);
  torch::Tensor state_input;
  if (state_size > 0)
    state_input = states ? torch::from_blob(const_cast<float*>(states), {batch, state_size},
                                            torch::kFloat32)
                         : torch::zeros({batch, state_size});
  if (!model.device.is_cpu()) {
    // One copy to the device for both: the staging buffers take one tensor a pass.
    if (state_size > 0) {
      torch::Tensor both = host_to_device(torch::cat({input, state_input}, 1), model.device, staging);
      input = both.slice(1, 0, obs_size);
      state_input = both.slice(1, obs_size, obs_size + state_size);
    } else {
      input = host_to_device(input, model.device, staging);
    }
  }
  model.params.run_shared([&] {
    actor_critic_output result = model.net->forward(input, state_input);
    if (!model.device.is_cpu()) result = outputs_to_host(result);
    if (state_size > 0) {
      out.states.resize(static_cast<size_t>(batch) * state_size);
      std::memcpy(out.states.data(), result.states.contiguous().data_ptr<float>(),
                  out.states.size() * sizeof(float));
    } else {
      out.states.clear();
    }
    out.version = model.version;
    out.policy.resize(static_cast<size_t>(batch) * actions);
    out.values.resize(batch);
    std::memcpy(out.policy.data(), result.policy.contiguous().data_ptr<float>(),
                out.policy.size() * sizeof(float));
    if (result.log_std.defined()) {
      const float* ls = result.log_std.contiguous().data_ptr<float>();
      out.log_std.assign(ls, ls + result.log_std.numel());
    }
    std::memcpy(out.values.data(), result.values.contiguous().data_ptr<float>(),
                out.values.size() * sizeof(float));
  });
}

torch::Tensor flat_gradient(shared_model& model, const torch::Tensor& loss) {
  const std::vector<torch::Tensor> parameters = model.net->parameters();
  std::vector<torch::Tensor> grads = torch::autograd::grad(
      {loss}, parameters, /*grad_outputs=*/{}, /*retain_graph=*/false,
      /*create_graph=*/false, /*allow_unused=*/true);
  for (size_t i = 0; i < grads.size(); ++i)
    grads[i] = grads[i].defined() ? grads[i].reshape({-1}) : torch::zeros({parameters[i].numel()}, model.flat.options());
  return torch::cat(grads);
}

std::optional<std::uint64_t> apply_gradients(shared_model& model,
                                             torch::optim::Optimizer& optimizer,
                                             const torch::Tensor& gradient,
                                             std::vector<float>* delta, bool step_by_hand) {
  const auto& groups = optimizer.param_groups();
  if (groups.size() != 1 || groups[0].params().size() != 1 ||
      !groups[0].params()[0].is_same(model.flat))
    throw std::invalid_argument("apply_gradients: the optimiser must optimise model.flat alone");
  if (gradient.numel() != model.flat.numel())
    throw std::invalid_argument("apply_gradients: a gradient of " + std::to_string(gradient.numel()) +
                                " values for " + std::to_string(model.flat.numel()) + " parameters");
  return model.params.run([&]() -> std::optional<std::uint64_t> {
    if (model.frozen.load()) return std::nullopt;
    torch::NoGradGuard no_grad;
    torch::Tensor before;
    if (delta) before = flat_on_host(model);  // a copy
    // Copied into the model's own buffer rather than aliased: a caller's
    // tensor is then never held past the call, nor freed by the next
    // caller's update on another thread.
    torch::Tensor& grad = model.flat.mutable_grad();
    if (!grad.defined()) grad = torch::empty_like(model.flat);
    grad.copy_(gradient.reshape(model.flat.sizes()));
    const bool stepped = step_by_hand && (adam_step_by_hand(optimizer, model.flat, model.flat.grad()) ||
                                          rmsprop_step_by_hand(optimizer, model.flat, model.flat.grad()));
    if (!stepped) optimizer.step();
    if (delta) {
      const torch::Tensor change = flat_on_host(model).sub_(before);
      delta->assign(change.data_ptr<float>(), change.data_ptr<float>() + change.numel());
    }
    return ++model.version;
  });
}

void install_observation_statistics(shared_model& model) {
  const running_moments& m = model.obs_moments;
  if (!model.net->obs_mean.defined() || m.dim() == 0) return;
  std::vector<float> mean(m.mean.begin(), m.mean.end()), scale(m.mean.size());
  for (size_t j = 0; j < scale.size(); ++j)
    scale[j] = static_cast<float>(1.0 / std::sqrt(m.var[j] + model.spec.normalize.epsilon));
  torch::NoGradGuard no_grad;
  model.net->obs_mean.copy_(torch::from_blob(mean.data(), {m.dim()}, torch::kFloat32));
  model.net->obs_scale.copy_(torch::from_blob(scale.data(), {m.dim()}, torch::kFloat32));
}

void fold_observations(shared_model& model, const float* rows, std::int64_t row_count) {
  if (model.obs_moments.dim() == 0 || row_count <= 0) return;
  // The statistics of the batch are computed before the section; inside it
  // only the merge and two small copies.
  running_moments batch(model.obs_moments.dim());
  batch.update(rows, row_count);
  model.params.run([&] {
    model.obs_moments.merge(batch);
    install_observation_statistics(model);
  });
}

std::uint64_t current_version(shared_model& model) {
  return model.params.run_shared([&] { return model.version; });
}

bool judge_parameters(shared_model& model, const std::function<bool(shared_model&)>& judge) {
  return model.params.run_shared([&] {
    // A copy, since judge's forward passes enter the copy's own section; the
    // original's is held by this thread already.
    shared_model copy(model.spec);
    const parameter_state state = read_parameter_state(model);
    write_parameter_state(copy, state);
    copy.version = state.version;
    // Written under the shared claim; apply_gradients reads it under the
    // exclusive one, which begins only after this claim ends.
    const bool freeze = judge(copy);
    if (freeze) model.frozen.store(true);
    return freeze;
  });
}

const net_spec& spec_of(const shared_model& model) { return model.spec; }

std::int64_t parameter_bytes(const shared_model& model) {
  std::int64_t bytes = 0;
  for (const auto& p : model.net->parameters()) bytes += p.numel() * p.element_size();
  return bytes;
}

void warm_up(shared_model& model, int max_batch) {
  prediction out;
  for (int batch = 1; batch <= max_batch; batch *= 2) {
    std::vector<float> obs(static_cast<size_t>(batch) * model.spec.obs_size, 0.0f);
    predict(model, obs.data(), nullptr, batch, out);
  }
}

}  // namespace troupe::model
