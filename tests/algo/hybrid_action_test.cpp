// Hybrid actions (a Tuple or Dict of discrete and Box parts, as
// parameterised actions are): categorical components, then a Gaussian over
// the Box part, independent given the state. The log-probability and the
// entropy are the sums of the parts', which the expected values below work
// out by hand (a categorical's log-softmax, a Gaussian's density).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <torch/torch.h>

#include "agents/collector.hpp"
#include "algo/act_from_policy.hpp"
#include "algo/action_mask.hpp"
#include "algo/learner_core.hpp"
#include "algo/policy_distribution.hpp"
#include "envs/env.hpp"
#include "envs/policy_rollout.hpp"
#include "model/net_spec.hpp"
#include "model/shared_model_impl.hpp"
#include "run/component_configs.hpp"
#include "run/run_config.hpp"

using namespace troupe;
using namespace troupe::algo;

namespace {

const double hybrid_log_sqrt_2pi = 0.5 * std::log(2.0 * M_PI);

// Discrete(2) and MultiDiscrete([3]) components, then a Box(2): logits 2 + 3, means 2.
model::net_spec hybrid_net() {
  model::net_spec net;
  net.action_heads = {2, 3};
  net.gaussian_size = 2;
  net.action_size = 7;
  return net;
}

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("hybrid space: the components' indices, then the Box part's values") {
  const envs::space s = envs::space::hybrid_space({2, 3}, {-1.0, 0.0}, {1.0, 5.0});
  CHECK(s.flat_size() == 4);
  CHECK((s.categories() == std::vector<int>{2, 3}));
  CHECK(s.choice_count() == 5);
  CHECK(s.continuous_size() == 2);
  CHECK(s.policy_size() == 7);
  CHECK(s.describe() == "MultiDiscrete([2 3]) + Box(2)");
  // Clipping leaves the indices and bounds the Box values, row by row.
  std::vector<float> rows = {1, 2, -3.f, 9.f, /**/ 0, 1, 0.5f, -2.f};
  agents::clip_to_space(s, rows.data(), 2);
  CHECK((rows == std::vector<float>{1, 2, -1.f, 5.f, 0, 1, 0.5f, 0.f}));
  // A random policy draws each index among its choices and each value within its bounds.
  envs::fixed_policy_actions random(envs::fixed_policy::random, s, 3);
  for (int k = 0; k < 1000; ++k) {
    const float* a = random.next();
    REQUIRE((a[0] == 0 || a[0] == 1));
    REQUIRE((a[1] >= 0 && a[1] <= 2 && a[1] == int(a[1])));
    REQUIRE((a[2] >= -1 && a[2] <= 1 && a[3] >= 0 && a[3] <= 5));
  }
  // The network a run builds for it: both heads' logits, then the Gaussian.
  run::run_config config;
  envs::env_spec spec{"Hybrid", envs::space::box_space({3}, {0, 0, 0}, {1, 1, 1}), s, 10};
  const model::net_spec net = run::net_spec_for(config, spec);
  CHECK_FALSE(net.continuous);
  CHECK(net.hybrid());
  CHECK(net.action_size == 7);
  CHECK(net.logit_count() == 5);
  CHECK(net.gaussian_dims() == 2);
  CHECK(action_width(net) == 4);
}

TEST_CASE("hybrid actions: each component from its logits and mask, the Box part from its Gaussian") {
  const model::net_spec net = hybrid_net();
  // Component 0: logits (0, ln 3): p = (1/4, 3/4). Component 1: (0, 0, 0),
  // its middle choice masked: p = (1/2, 0, 1/2). Gaussian: means (0.5, -1),
  // log-stds (0, ln 2).
  const float policy[7] = {0.f, std::log(3.f), 0.f, 0.f, 0.f, 0.5f, -1.f};
  const float log_std[2] = {0.f, std::log(2.f)};
  const std::uint8_t legal[5] = {1, 1, 1, 0, 1};
  std::mt19937_64 rng(11);
  const int draws = 100000;
  double sum0 = 0, sum1 = 0, squares0 = 0, squares1 = 0;
  long second = 0;
  for (int k = 0; k < draws; ++k) {
    float a[4] = {-1, -1, 0, 0};
    const float logp = act_from_policy(net, policy, log_std, false, rng, a, legal);
    REQUIRE((a[0] == 0 || a[0] == 1));
    REQUIRE((a[1] == 0 || a[1] == 2));  // never the masked 1
    second += a[0] == 1;
    sum0 += a[2];
    squares0 += (a[2] - 0.5) * (a[2] - 0.5);
    sum1 += a[3];
    squares1 += (a[3] + 1.0) * (a[3] + 1.0);
    const double z0 = a[2] - 0.5, z1 = (a[3] + 1.0) / 2.0;
    const double expected = std::log(a[0] == 0 ? 0.25 : 0.75) + std::log(0.5) +
                            (-0.5 * z0 * z0 - hybrid_log_sqrt_2pi) + (-0.5 * z1 * z1 - std::log(2.0) - hybrid_log_sqrt_2pi);
    REQUIRE(logp == doctest::Approx(expected).epsilon(1e-4));
  }
  CHECK(double(second) / draws == doctest::Approx(0.75).epsilon(0.01));
  CHECK(sum0 / draws == doctest::Approx(0.5).epsilon(0.02));
  CHECK(sum1 / draws == doctest::Approx(-1.0).epsilon(0.02));
  CHECK(std::sqrt(squares0 / draws) == doctest::Approx(1.0).epsilon(0.02));
  CHECK(std::sqrt(squares1 / draws) == doctest::Approx(2.0).epsilon(0.02));
  // Greedy: each component's most likely legal choice, the Gaussian's mean.
  float greedy[4] = {-1, -1, 0, 0};
  act_from_policy(net, policy, log_std, true, rng, greedy, legal);
  CHECK(greedy[0] == 1);
  CHECK(greedy[1] == 0);
  CHECK(greedy[2] == 0.5f);
  CHECK(greedy[3] == -1.f);
}

TEST_CASE("hybrid actions: the learner's log-probability and entropy are the parts' sums, masked logits get no gradient") {
  const model::net_spec net = hybrid_net();
  torch::Tensor policy = torch::tensor({0.f, std::log(3.f), 0.f, 0.f, 0.f, 0.5f, -1.f}).reshape({1, 7}).requires_grad_();
  torch::Tensor log_std = torch::tensor({0.f, std::log(2.f)}).requires_grad_();
  const torch::Tensor legal = torch::tensor({1, 1, 1, 0, 1}, torch::kUInt8).reshape({1, 5}).to(torch::kBool);
  // Choices 1 and 2, values (1.5, 1): z = (1, 1).
  const torch::Tensor actions = torch::tensor({1.f, 2.f, 1.5f, 1.f}).reshape({1, 4});
  const policy_terms t = hybrid_terms(policy, log_std, actions, net.action_heads, legal);
  const double logp = std::log(0.75) + std::log(0.5) + 2 * (-0.5 - hybrid_log_sqrt_2pi) - std::log(2.0);
  CHECK(t.logp.item<double>() == doctest::Approx(logp).epsilon(1e-5));
  // Entropies: component 0's -(1/4 ln 1/4 + 3/4 ln 3/4), component 1's ln 2
  // over its two legal choices, the Gaussian's sum of (log_std + 1/2 + ln sqrt(2 pi)).
  const double entropy = -(0.25 * std::log(0.25) + 0.75 * std::log(0.75)) + std::log(2.0) +
                         (0.0 + 0.5 + hybrid_log_sqrt_2pi) + (std::log(2.0) + 0.5 + hybrid_log_sqrt_2pi);
  CHECK(t.entropy.item<double>() == doctest::Approx(entropy).epsilon(1e-5));
  (t.logp + t.entropy).sum().backward();
  CHECK(policy.grad()[0][3].item<float>() == 0.f);  // the masked choice
  CHECK(policy.grad()[0][5].item<float>() == doctest::Approx(1.0).epsilon(1e-5));  // d logp / d mean = z / std
  CHECK(policy.grad()[0][6].item<float>() == doctest::Approx(0.5).epsilon(1e-5));
  CHECK(log_std.grad()[0].item<float>() == doctest::Approx(1.0 - 1.0 + 1.0).epsilon(1e-5));  // z^2 - 1 + 1 (entropy)
}

TEST_CASE("hybrid masks: a taken choice must be legal, whatever Box values follow it") {
  const std::vector<int> heads = {2, 3};
  const std::uint8_t masks[5] = {1, 0, 1, 1, 0};
  // Rows of 4 floats: two indices, two Box values (that look like indices).
  const float legal[4] = {0, 1, 7.f, -3.f};
  CHECK(illegal_action_problem(legal, masks, 1, heads, 4).empty());
  const float masked[4] = {0, 2, 0.f, 0.f};
  CHECK(illegal_action_problem(masked, masks, 1, heads, 4) == "sample 0 took an action its mask does not allow");
}

TEST_CASE("hybrid actions: Gaussian means beyond the Box part's bounds cost algo.bounds_coef times the squared excess") {
  // Discrete(2), then a Box(2) of [-1, 1] and [0, inf).
  model::net_spec spec = model::mlp_spec(3, 4, {8});
  spec.action_heads = {2};
  spec.gaussian_size = 2;
  learner_config config;
  config.algo.bounds_coef = 0.5;
  config.action_low = {-1.0, 0.0};
  config.action_high = {1.0, std::numeric_limits<double>::infinity()};
  learner_core core{model::make_shared_model(spec, 1), config, nullptr, std::mt19937_64(1), std::nullopt, 0};
  core.prepare_bounds();
  // Row 0: means 3 (2 beyond) and 50 (no upper bound); row 1: -0.5 (inside) and -3 (3 below).
  // The logits (100, -100) are not bounded.
  const torch::Tensor policy =
      torch::tensor({100.f, -100.f, 3.f, 50.f, /**/ -100.f, 100.f, -0.5f, -3.f}).reshape({2, 4}).requires_grad_();
  const torch::Tensor zero = torch::zeros({});
  const torch::Tensor loss = core.with_bounds_penalty(zero, policy);
  CHECK(loss.item<double>() == doctest::Approx(0.5 * (4.0 + 9.0) / 2));
  loss.backward();
  // d/d mean: coef * 2 * excess / rows, pushing each mean back inside.
  CHECK(policy.grad()[0][2].item<float>() == doctest::Approx(0.5 * 2 * 2 / 2));
  CHECK(policy.grad()[1][3].item<float>() == doctest::Approx(-0.5 * 2 * 3 / 2));
  CHECK(policy.grad()[0][3].item<float>() == 0.f);
  CHECK(policy.grad()[1][2].item<float>() == 0.f);
  CHECK(policy.grad()[0][0].item<float>() == 0.f);
  // No penalty at coefficient 0, nor for a policy that is not hybrid.
  core.config.algo.bounds_coef = 0;
  CHECK(core.with_bounds_penalty(zero, policy.detach()).item<double>() == 0.0);
}
}
