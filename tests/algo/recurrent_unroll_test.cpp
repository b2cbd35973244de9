// Truncated backpropagation through time over a rollout: the unroll reads
// every row with the state acting had for it, and its gradients are the true
// derivatives (checked against finite differences in double precision).
#include <doctest/doctest.h>

#include <random>

#include "algo/recurrent_unroll.hpp"

using namespace troupe;

namespace {

// n = 3 steps of k = 2 environments: env 0's episode terminates at step 1,
// env 1's is truncated at step 2 (its last observation is kept).
algo::rollout small_rollout(int obs, int state_size, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  algo::rollout r;
  r.n_steps = 3;
  r.n_envs = 2;
  r.obs_size = obs;
  r.state_size = state_size;
  r.observations.resize(size_t(r.n_steps + 1) * r.n_envs * obs);
  for (float& x : r.observations) x = u(rng);
  r.initial_states.resize(size_t(r.n_envs) * state_size);
  for (float& x : r.initial_states) x = 0.5f * u(rng);
  r.terminated = {0, 0, 1, 0, 0, 0};
  r.truncated = {0, 0, 0, 0, 0, 1};
  r.truncation_observations.resize(size_t(obs));
  for (float& x : r.truncation_observations) x = u(rng);
  return r;
}

torch::Tensor rows_of(const algo::rollout& r, torch::Dtype dtype) {
  return torch::from_blob(const_cast<float*>(r.observations.data()),
                          {(r.n_steps + 1) * r.n_envs, r.obs_size}, torch::kFloat32)
      .to(dtype);
}

torch::Tensor cut_of(const algo::rollout& r, torch::Dtype dtype) {
  return torch::from_blob(const_cast<float*>(r.truncation_observations.data()),
                          {1, r.obs_size}, torch::kFloat32)
      .to(dtype);
}

const auto stay = [](const torch::Tensor& t) { return t; };

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("unroll: every row is read with the state acting gave it") {
  for (const std::string kind : {"lstm", "gru"}) {
    CAPTURE(kind);
    model::net_spec spec = model::mlp_spec(3, 2, {5});
    spec.recurrent = {kind, 4};
    model::ActorCritic net(spec);
    std::mt19937 rng(7);
    const algo::rollout r = small_rollout(3, spec.state_size(), rng);
    torch::NoGradGuard no_grad;
    const auto unrolled = algo::unroll(*net, r, rows_of(r, torch::kFloat32), cut_of(r, torch::kFloat32), stay);
    // Acting, step by step, with the whole-network forward pass.
    torch::Tensor state = torch::from_blob(const_cast<float*>(r.initial_states.data()),
                                           {2, spec.state_size()}, torch::kFloat32).clone();
    const torch::Tensor rows = rows_of(r, torch::kFloat32);
    for (int t = 0; t <= 3; ++t) {
      const auto acted = net->forward(rows.slice(0, 2 * t, 2 * t + 2), state);
      CHECK(torch::allclose(acted.values, unrolled.values.slice(0, 2 * t, 2 * t + 2), 1e-6, 1e-6));
      CHECK(torch::allclose(acted.policy, unrolled.policy.slice(0, 2 * t, 2 * t + 2), 1e-6, 1e-6));
      if (t == 2) {  // env 1 truncated: its last observation continues its state
        const auto last = net->forward(cut_of(r, torch::kFloat32), acted.states.slice(0, 1, 2));
        CHECK(torch::allclose(last.values, unrolled.values.slice(0, 8, 9), 1e-6, 1e-6));
      }
      state = acted.states.clone();
      for (int e = 0; e < 2; ++e)
        if (t < 3 && (r.terminated[size_t(2 * t + e)] || r.truncated[size_t(2 * t + e)]))
          state[e].zero_();  // its next episode starts from zero
    }
  }
}

TEST_CASE("unroll: backpropagation through time matches finite differences") {
  for (const std::string kind : {"lstm", "gru"}) {
    CAPTURE(kind);
    model::net_spec spec = model::mlp_spec(3, 2, {4});
    spec.recurrent = {kind, 3};
    model::ActorCritic net(spec);
    net->to(torch::kDouble);
    std::mt19937 rng(9);
    const algo::rollout r = small_rollout(3, spec.state_size(), rng);
    const torch::Tensor rows = rows_of(r, torch::kDouble), cut = cut_of(r, torch::kDouble);
    // A scalar of every output: policies and values of all 9 rows.
    const torch::Tensor w_policy = torch::randn({9, 2}, torch::kDouble);
    const torch::Tensor w_value = torch::randn({9}, torch::kDouble);
    auto loss = [&] {
      const auto out = algo::unroll(*net, r, rows, cut, stay);
      return (out.policy * w_policy).sum() + (out.values * w_value).sum();
    };
    const std::vector<torch::Tensor> parameters = net->parameters();
    const std::vector<torch::Tensor> grads = torch::autograd::grad({loss()}, parameters);
    torch::NoGradGuard no_grad;
    const double h = 1e-6;
    int checked = 0;
    for (size_t p = 0; p < parameters.size(); ++p) {
      auto flat = parameters[p].view({-1});
      const auto g = grads[p].reshape({-1});
      for (int64_t i = 0; i < flat.numel(); ++i) {
        const double original = flat[i].item<double>();
        flat[i] = original + h;
        const double up = loss().item<double>();
        flat[i] = original - h;
        const double down = loss().item<double>();
        flat[i] = original;
        const double numeric = (up - down) / (2 * h);
        const double analytic = g[i].item<double>();
        CHECK(std::abs(numeric - analytic) <= 1e-6 * std::max(1.0, std::abs(numeric)));
        ++checked;
      }
    }
    CHECK(checked > 50);  // every parameter, the core's included
  }
}
}
