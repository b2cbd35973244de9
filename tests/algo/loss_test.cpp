#include <doctest/doctest.h>

#include <cmath>

#include "algo/a3c_loss.hpp"
#include "algo/policy_distribution.hpp"

TEST_SUITE("algo") {
TEST_CASE("Gaussian policy terms match the closed forms") {
  // N(mean 1, std e^0.5) at a = 2: logp = -0.5 (1/e^0.5)^2 - 0.5 - ln sqrt(2 pi)
  const auto mean = torch::tensor({{1.0f, 0.0f}});
  const auto log_std = torch::tensor({0.5f, 0.0f});
  const auto t = troupe::algo::gaussian_terms(mean, log_std, torch::tensor({{2.0f, 0.0f}}));
  const double c = 0.5 * std::log(2 * M_PI);
  const double expected = (-0.5 / std::exp(1.0) - 0.5 - c) + (-0.0 - 0.0 - c);
  CHECK(t.logp.item<double>() == doctest::Approx(expected));
  // Entropy of a Gaussian: sum of log_std + 0.5 + ln sqrt(2 pi).
  CHECK(t.entropy[0].item<double>() == doctest::Approx(0.5 + 2 * (0.5 + c)));
}

TEST_CASE("A3C loss terms, by hand") {
  // Sample 0: uniform logits, action 0, advantage 1: logp = -ln 2.
  // Sample 1: logits (ln 3, 0) -> p = (.75, .25), action 1, advantage 1: logp = ln .25.
  // policy = -(-ln2 + ln.25) / 2 = (ln2 + ln4) / 2 = 1.5 ln 2
  // value: V = (1, 2), G = (3, 2) -> mean(0.5 * (4, 0)) = 1
  // entropy = (ln 2 + (-.75 ln .75 - .25 ln .25)) / 2
  const auto logits = torch::tensor({{0.0f, 0.0f}, {std::log(3.0f), 0.0f}}).requires_grad_(true);
  const auto values = torch::tensor({1.0f, 2.0f}).requires_grad_(true);
  const auto dist = troupe::algo::categorical_terms(logits, torch::tensor({0L, 1L}));
  const auto terms = troupe::algo::a3c_loss(dist.logp, dist.entropy, values,
                                             torch::tensor({1.0f, 1.0f}),
                                             torch::tensor({3.0f, 2.0f}), 0.5, 0.01);
  const double policy = 1.5 * std::log(2.0);
  const double entropy = (std::log(2.0) - 0.75 * std::log(0.75) - 0.25 * std::log(0.25)) / 2;
  CHECK(terms.policy.item<double>() == doctest::Approx(policy));
  CHECK(terms.value.item<double>() == doctest::Approx(1.0));
  CHECK(terms.entropy.item<double>() == doctest::Approx(entropy));
  CHECK(terms.total.item<double>() == doctest::Approx(policy + 0.5 * 1.0 - 0.01 * entropy));

  // Gradient direction: a positive advantage raises the taken action's logit,
  // and the value moves toward the return.
  terms.total.backward();
  CHECK(logits.grad()[0][0].item<float>() < 0);
  CHECK(values.grad()[0].item<float>() < 0);
}

TEST_CASE("advantages and returns carry no gradient into the loss") {
  const auto logits = torch::zeros({1, 2}, torch::requires_grad());
  const auto values = torch::zeros({1}, torch::requires_grad());
  const auto adv = torch::ones({1}, torch::requires_grad());
  const auto ret = torch::ones({1}, torch::requires_grad());
  const auto policy = troupe::algo::categorical_terms(logits, torch::tensor({1L}));
  troupe::algo::a3c_loss(policy.logp, policy.entropy, values, adv, ret, 0.5, 0.0)
      .total.backward();
  CHECK_FALSE(adv.grad().defined());
  CHECK_FALSE(ret.grad().defined());
}
}
