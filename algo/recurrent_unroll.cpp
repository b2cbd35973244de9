#include "algo/recurrent_unroll.hpp"

namespace troupe::algo {

model::actor_critic_output unroll(model::ActorCriticImpl& net, const rollout& r,
                                  const torch::Tensor& rows, const torch::Tensor& cut,
                                  const std::function<torch::Tensor(const torch::Tensor&)>& on_device) {
  const int n = r.n_steps, k = r.n_envs;
  const torch::Tensor features = net.features(rows);  // every row's at once
  // In the network's own precision (float; double in the gradient tests).
  const auto dtype = features.scalar_type();
  torch::Tensor state = on_device(torch::from_blob(const_cast<float*>(r.initial_states.data()),
                                                   {k, r.state_size}, torch::kFloat32)
                                      .to(dtype));
  std::vector<torch::Tensor> outputs, cut_states;
  for (int t = 0;; ++t) {
    auto [output, next] = net.core(features.slice(0, int64_t(t) * k, int64_t(t + 1) * k), state);
    outputs.push_back(output);
    if (t == n) break;
    std::vector<int64_t> truncated;
    std::vector<float> keep(static_cast<size_t>(k));
    for (int e = 0; e < k; ++e) {
      const size_t i = size_t(t) * k + e;
      if (r.truncated[i]) truncated.push_back(e);
      keep[size_t(e)] = r.terminated[i] || r.truncated[i] ? 0.f : 1.f;
    }
    // A truncated episode's last observation continues the state its episode
    // reached (in sample order, as truncation_observations are).
    if (!truncated.empty())
      cut_states.push_back(next.index_select(0, on_device(torch::tensor(truncated, torch::kInt64))));
    // An episode that ended hands the next one a zero state.
    // (A tensor of its own: autograd keeps it for the backward pass.)
    state = next * on_device(torch::tensor(keep).view({k, 1}).to(dtype));
  }
  torch::Tensor all = torch::cat(outputs);
  if (cut.defined())
    all = torch::cat({all, net.core(net.features(cut), torch::cat(cut_states)).first});
  return net.heads(all);
}

}  // namespace troupe::algo
