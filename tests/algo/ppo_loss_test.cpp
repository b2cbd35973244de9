// PPO's clipped objective on tensors: its gradient against finite
// differences, its gradient where the ratio is clipped, and the policy
// gradient it equals at ratio 1.
#include <doctest/doctest.h>

#include "algo/a3c_loss.hpp"
#include "algo/policy_distribution.hpp"
#include "algo/ppo_loss.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe::algo;

namespace {

const auto f64 = torch::TensorOptions().dtype(torch::kFloat64);

// The policy part of the loss of logits [4, 3] for fixed actions and targets.
struct setup {
  torch::Tensor actions = torch::tensor({0, 2, 1, 2}, torch::kInt64);
  torch::Tensor behaviour_logp = torch::tensor({-1.2, -0.9, -1.5, -0.4}, f64);
  torch::Tensor advantages = torch::tensor({0.7, -1.1, 0.3, 2.0}, f64);
  torch::Tensor returns = torch::tensor({1.0, 0.5, -0.2, 0.9}, f64);
  torch::Tensor values = torch::tensor({0.8, 0.1, 0.0, 1.3}, f64);

  torch::Tensor loss(const torch::Tensor& logits, const ppo_loss_settings& s) const {
    const policy_terms t = categorical_terms(logits, actions);
    return ppo_loss(t.logp, t.entropy, values, behaviour_logp, values, advantages, returns, s).total;
  }
};

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("PPO loss: the clipped objective's gradient matches finite differences") {
  setup s;
  ppo_loss_settings settings;
  settings.clip = 0.2;
  settings.entropy_coef = 0.01;
  settings.normalize_advantages = true;
  // Logits where some ratios are inside the clip range and some outside,
  // none on its edge (where the objective has a kink).
  torch::Tensor logits = torch::tensor({{0.1, -0.3, 0.2}, {0.5, 0.4, -1.0}, {-0.2, 0.9, 0.0}, {1.5, -0.5, 0.3}}, f64)
                             .requires_grad_(true);
  const torch::Tensor analytic = torch::autograd::grad({s.loss(logits, settings)}, {logits})[0];
  const double h = 1e-6;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      torch::Tensor plus = logits.detach().clone(), minus = logits.detach().clone();
      plus[i][j] += h;
      minus[i][j] -= h;
      const double numeric =
          (s.loss(plus, settings).item<double>() - s.loss(minus, settings).item<double>()) / (2 * h);
      CAPTURE(i);
      CAPTURE(j);
      CHECK(analytic[i][j].item<double>() == doctest::Approx(numeric).epsilon(1e-6));
    }
}

TEST_CASE("PPO loss: past the clip in the advantage's direction a sample's policy gradient is zero") {
  ppo_loss_settings settings;
  settings.clip = 0.2;
  settings.normalize_advantages = false;
  const auto loss_of = [&](double logp, double advantage) {
    torch::Tensor lp = torch::tensor({logp}, f64).requires_grad_(true);
    const torch::Tensor zero = torch::zeros({1}, f64);
    const auto t = ppo_loss(lp, zero, zero, torch::zeros({1}, f64), zero, torch::tensor({advantage}, f64),
                            zero, settings);
    return torch::autograd::grad({t.policy}, {lp})[0].item<double>();
  };
  // Behaviour log-probability 0, so the ratio is exp(logp).
  CHECK(loss_of(std::log(1.5), 1.0) == 0.0);    // ratio 1.5 > 1.2, advantage > 0
  CHECK(loss_of(std::log(0.5), -1.0) == 0.0);   // ratio 0.5 < 0.8, advantage < 0
  // Inside the range, or clipped in the other direction, the gradient stays.
  CHECK(loss_of(std::log(1.1), 1.0) == doctest::Approx(-1.1));  // d(-r A)/dlogp = -r A
  CHECK(loss_of(std::log(0.5), 1.0) == doctest::Approx(-0.5));
  CHECK(loss_of(std::log(1.5), -1.0) == doctest::Approx(1.5));
}

TEST_CASE("PPO loss: at ratio 1 its policy gradient is A2C's on the same batch") {
  setup s;
  ppo_loss_settings settings;
  settings.normalize_advantages = false;
  settings.entropy_coef = 0.05;
  settings.value_coef = 0.5;
  torch::Tensor logits = torch::tensor({{0.1, -0.3, 0.2}, {0.5, 0.4, -1.0}, {-0.2, 0.9, 0.0}, {1.5, -0.5, 0.3}}, f64)
                             .requires_grad_(true);
  const policy_terms t = categorical_terms(logits, s.actions);
  const torch::Tensor behaviour = t.logp.detach();  // ratio exactly 1
  const auto ppo = ppo_loss(t.logp, t.entropy, s.values, behaviour, s.values, s.advantages, s.returns, settings);
  const auto a2c = a3c_loss(t.logp, t.entropy, s.values, s.advantages, s.returns, 0.5, 0.05);
  const torch::Tensor g_ppo = torch::autograd::grad({ppo.total}, {logits}, {}, true)[0];
  const torch::Tensor g_a2c = torch::autograd::grad({a2c.total}, {logits})[0];
  CHECK(torch::allclose(g_ppo, g_a2c, 1e-12, 1e-12));
  CHECK(ppo.approx_kl == 0.0);
  CHECK(ppo.clip_fraction == 0.0);
}

TEST_CASE("PPO loss: value clipping, approximate KL and clip fraction on a worked example") {
  ppo_loss_settings settings;
  settings.clip = 0.2;
  settings.value_clip = 0.5;
  settings.value_coef = 1.0;
  settings.normalize_advantages = false;
  // Two samples: ratios e^0.5 (clipped) and 1; values moved from 0 to 2 and
  // from 1 to 0.8, targets 3 and 0.
  const torch::Tensor logp = torch::tensor({0.5, 0.0}, f64);
  const torch::Tensor zero = torch::zeros({2}, f64);
  const auto t = ppo_loss(logp, zero, torch::tensor({2.0, 0.8}, f64), zero, torch::tensor({0.0, 1.0}, f64),
                          torch::tensor({1.0, 1.0}, f64), torch::tensor({3.0, 0.0}, f64), settings);
  // Sample 0: clipped value 0.5, max((2-3)^2, (0.5-3)^2) = 6.25; sample 1:
  // clipped value 0.8 (within 0.5), (0.8)^2 = 0.64. Mean of halves.
  CHECK(t.value.item<double>() == doctest::Approx(0.5 * (6.25 + 0.64) / 2));
  // KL: ((e^0.5 - 1) - 0.5 + 0) / 2.
  CHECK(t.approx_kl == doctest::Approx((std::exp(0.5) - 1.5) / 2));
  CHECK(t.clip_fraction == doctest::Approx(0.5));
  // Policy: -mean(min(e^0.5, 1.2) * 1, 1 * 1) = -(1.2 + 1) / 2.
  CHECK(t.policy.item<double>() == doctest::Approx(-1.1));
}
}
