#include "model/shared_model.hpp"

#include <cstring>
#include <stdexcept>

#include "model/compute_runtime.hpp"
#include "model/device_transfer.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::model {

std::shared_ptr<shared_model> make_shared_model(const net_spec& spec, std::uint64_t seed,
                                                const std::string& device) {
  const torch::Device where = parse_device(device);
  torch::manual_seed(seed);
  return std::make_shared<shared_model>(spec, where);
}

namespace {

// Every parameter and buffer of `from` into `to`, with the version; the
// caller holds whatever sections it needs.
void copy_tensors(const shared_model& from, shared_model& to) {
  torch::NoGradGuard no_grad;
  const auto source = from.net->parameters();
  auto target = to.net->parameters();
  for (size_t i = 0; i < source.size(); ++i) target[i].copy_(source[i]);
  const auto source_buffers = from.net->buffers();
  auto target_buffers = to.net->buffers();
  for (size_t i = 0; i < source_buffers.size(); ++i) target_buffers[i].copy_(source_buffers[i]);
  to.version = from.version;
}

}  // namespace

void copy_parameters(shared_model& from, shared_model& to) {
  from.params.run_shared([&] { to.params.run([&] { copy_tensors(from, to); }); });
}

namespace {

// Every parameter, flattened into one tensor on the host.
torch::Tensor flat_on_host(shared_model& model) {
  std::vector<torch::Tensor> flat;
  for (const auto& p : model.net->parameters()) flat.push_back(p.detach().reshape({-1}));
  return torch::cat(flat).to(torch::kCPU).contiguous();
}

}  // namespace

std::optional<std::uint64_t> apply_delta(shared_model& model, const std::vector<float>& delta) {
  return model.params.run([&]() -> std::optional<std::uint64_t> {
    if (model.frozen.load()) return std::nullopt;
    std::vector<torch::Tensor> parameters = model.net->parameters();
    std::int64_t total = 0;
    for (const auto& p : parameters) total += p.numel();
    if (static_cast<std::int64_t>(delta.size()) != total)
      throw std::invalid_argument("apply_delta: " + std::to_string(delta.size()) +
                                  " values for " + std::to_string(total) + " parameters");
    torch::NoGradGuard no_grad;
    torch::Tensor all = torch::from_blob(const_cast<float*>(delta.data()), {total}, torch::kFloat32);
    if (!model.device.is_cpu()) all = all.to(model.device);
    std::int64_t offset = 0;
    for (auto& p : parameters) {
      p.add_(all.slice(0, offset, offset + p.numel()).view(p.sizes()));
      offset += p.numel();
    }
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

void predict(shared_model& model, const float* observations, const float* states, int batch,
             prediction& out, input_staging* staging) {
  const int obs_size = model.spec.obs_size;
  const int state_size = model.spec.state_size();
  const int actions = model.spec.action_size;
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
      out.log_std.assign(ls, ls + actions);
    }
    std::memcpy(out.values.data(), result.values.contiguous().data_ptr<float>(),
                out.values.size() * sizeof(float));
  });
}

std::optional<std::uint64_t> apply_gradients(shared_model& model,
                                             torch::optim::Optimizer& optimizer,
                                             const std::vector<torch::Tensor>& gradients,
                                             std::vector<float>* delta) {
  return model.params.run([&]() -> std::optional<std::uint64_t> {
    if (model.frozen.load()) return std::nullopt;
    std::vector<torch::Tensor> parameters = model.net->parameters();
    if (gradients.size() != parameters.size())
      throw std::invalid_argument("apply_gradients: one gradient per parameter expected");
    torch::NoGradGuard no_grad;
    torch::Tensor before;
    if (delta) before = flat_on_host(model);  // a new tensor (torch::cat)
    for (size_t i = 0; i < parameters.size(); ++i) parameters[i].mutable_grad() = gradients[i];
    optimizer.step();
    if (delta) {
      const torch::Tensor change = flat_on_host(model).sub_(before);
      delta->assign(change.data_ptr<float>(), change.data_ptr<float>() + change.numel());
    }
    return ++model.version;
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
    copy_tensors(model, copy);
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
