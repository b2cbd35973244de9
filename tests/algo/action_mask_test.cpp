// Action masks: a masked action is never taken, and the distribution over
// the legal ones is the policy's renormalised; the learner's terms agree.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <torch/torch.h>

#include "algo/act_from_policy.hpp"
#include "algo/action_mask.hpp"
#include "algo/policy_distribution.hpp"
#include "algo/sampling.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;
using namespace troupe::algo;

TEST_SUITE("algo") {
TEST_CASE("action masks: over random masks and logits, a masked action is never sampled nor chosen greedily") {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<float> logit(-8.f, 8.f);
  model::net_spec net;
  net.continuous = false;
  long draws = 0, masked_draws = 0, masked_greedy = 0, bad_logp = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 2 + int(rng() % 9);
    net.action_size = n;
    std::vector<float> logits(static_cast<size_t>(n));
    for (float& l : logits) l = logit(rng);
    std::vector<std::uint8_t> legal(size_t(n), 0);
    for (auto& m : legal) m = std::uint8_t(rng() % 2);
    legal[rng() % n] = 1;  // at least one legal action
    // The most probable action masked half the time: greedy must look past it.
    if (trial % 2 == 0) {
      const int best = int(std::max_element(logits.begin(), logits.end()) - logits.begin());
      legal[best] = 0;
      if (std::count(legal.begin(), legal.end(), 1) == 0) legal[(best + 1) % n] = 1;
    }
    REQUIRE(mask_problem(legal.data(), 1, n).empty());
    double legal_mass = 0;
    for (int a = 0; a < n; ++a) legal_mass += legal[size_t(a)] ? std::exp(double(logits[size_t(a)])) : 0;
    for (int k = 0; k < 50; ++k, ++draws) {
      float action = -1;
      const float logp = act_from_policy(net, logits.data(), nullptr, false, rng, &action, legal.data());
      const int a = int(action);
      if (!legal[size_t(a)]) ++masked_draws;
      // Its log-probability under the renormalised policy.
      if (std::abs(logp - (logits[size_t(a)] - std::log(legal_mass))) > 1e-4) ++bad_logp;
    }
    float greedy = -1;
    act_from_policy(net, logits.data(), nullptr, true, rng, &greedy, legal.data());
    if (!legal[size_t(greedy)]) ++masked_greedy;
    int best_legal = -1;
    for (int a = 0; a < n; ++a)
      if (legal[size_t(a)] && (best_legal < 0 || logits[size_t(a)] > logits[size_t(best_legal)])) best_legal = a;
    CHECK(int(greedy) == best_legal);
  }
  CHECK(draws == 1000000);
  CHECK(masked_draws == 0);
  CHECK(masked_greedy == 0);
  CHECK(bad_logp == 0);
}

TEST_CASE("action masks: the masked distribution is the renormalised one (chi-square, 10^6 draws)") {
  const float logits[6] = {1.5f, 0.2f, -0.7f, 2.5f, 0.0f, 0.9f};
  const std::uint8_t legal[6] = {1, 0, 1, 0, 1, 1};  // the most probable (3) is masked
  double mass = 0;
  for (int a = 0; a < 6; ++a) mass += legal[a] ? std::exp(double(logits[a])) : 0;
  std::vector<long> counts(6, 0);
  std::mt19937_64 rng(11);
  const long n = 1000000;
  for (long i = 0; i < n; ++i) ++counts[size_t(sample_categorical(logits, 6, rng, legal).action)];
  CHECK(counts[1] == 0);
  CHECK(counts[3] == 0);
  double chi2 = 0;
  for (int a = 0; a < 6; ++a) {
    if (!legal[a]) continue;
    const double expected = n * std::exp(double(logits[a])) / mass;
    chi2 += (counts[size_t(a)] - expected) * (counts[size_t(a)] - expected) / expected;
  }
  // 3 degrees of freedom: P(chi2 > 16.27) = 0.001 for the right distribution.
  CHECK(chi2 < 16.27);
  // The probabilities a panel shows: the same renormalised distribution.
  float p[6];
  categorical_probabilities(logits, 6, p, legal);
  for (int a = 0; a < 6; ++a)
    CHECK(p[a] == doctest::Approx(legal[a] ? std::exp(double(logits[a])) / mass : 0.0).epsilon(1e-6));
  CHECK(std::isinf(categorical_logp(logits, 6, 3, legal)));
}

TEST_CASE("action masks: the learner's log-probability and entropy are the legal actions', and masked logits get no gradient") {
  // Worked by hand: logits (0, ln 2, 5, 0), action 2 masked: the legal
  // probabilities are 1/4, 1/2, 1/4; entropy 1.5 ln 2.
  torch::Tensor logits = torch::tensor({0.f, std::log(2.f), 5.f, 0.f}).reshape({1, 4}).requires_grad_(true);
  const torch::Tensor legal = torch::tensor({true, true, false, true}).reshape({1, 4});
  const policy_terms t = categorical_terms(logits, torch::tensor({1L}), legal);
  CHECK(t.logp.item<float>() == doctest::Approx(std::log(0.5)));
  CHECK(t.entropy.item<float>() == doctest::Approx(1.5 * std::log(2.0)));
  (t.logp.sum() + t.entropy.sum()).backward();
  CHECK(logits.grad()[0][2].item<float>() == 0.f);
  CHECK(logits.grad().abs().sum().item<float>() > 0.f);
  // Without a mask: the policy over all four.
  const policy_terms all = categorical_terms(logits.detach(), torch::tensor({1L}));
  CHECK(all.logp.item<float>() == doctest::Approx(std::log(2.0) - std::log(4.0 + std::exp(5.0))));
}

TEST_CASE("action masks: a row without a legal action, or with a byte other than 0 and 1, is named") {
  const std::uint8_t rows[6] = {1, 0, 1, 0, 0, 0};
  CHECK(mask_problem(rows, 1, 3).empty());
  CHECK(mask_problem(rows, 2, 3) == "action mask row 1: no legal action");
  const std::uint8_t two[3] = {0, 2, 1};
  CHECK(mask_problem(two, 1, 3) == "action mask row 0: entry 1 is 2, expected 0 or 1");
}
}
