#include "model/shared_model.hpp"

#include <cstring>
#include <stdexcept>

#include "model/shared_model_impl.hpp"

namespace troupe::model {

std::shared_ptr<shared_model> make_shared_model(const net_spec& spec, std::uint64_t seed) {
  torch::manual_seed(seed);
  return std::make_shared<shared_model>(spec);
}

void predict(shared_model& model, const float* observations, int batch, prediction& out) {
  const int obs_size = model.spec.obs_size;
  const int actions = model.spec.action_size;
  // Inference mode is per thread: set it here, on the thread that runs the pass.
  c10::InferenceMode inference;
  const torch::Tensor input = torch::from_blob(const_cast<float*>(observations),
                                               {batch, obs_size}, torch::kFloat32);
  model.params.run_shared([&] {
    actor_critic_output result = model.net->forward(input);
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
                                             const std::vector<torch::Tensor>& gradients) {
  return model.params.run([&]() -> std::optional<std::uint64_t> {
    if (model.frozen.load()) return std::nullopt;
    std::vector<torch::Tensor> parameters = model.net->parameters();
    if (gradients.size() != parameters.size())
      throw std::invalid_argument("apply_gradients: one gradient per parameter expected");
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < parameters.size(); ++i) parameters[i].mutable_grad() = gradients[i];
    optimizer.step();
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
    {
      torch::NoGradGuard no_grad;
      const auto from = model.net->parameters();
      auto to = copy.net->parameters();
      for (size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
      const auto from_buffers = model.net->buffers();
      auto to_buffers = copy.net->buffers();
      for (size_t i = 0; i < from_buffers.size(); ++i) to_buffers[i].copy_(from_buffers[i]);
    }
    copy.version = model.version;
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
    predict(model, obs.data(), batch, out);
  }
}

}  // namespace troupe::model
