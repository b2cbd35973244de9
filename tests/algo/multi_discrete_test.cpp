// Actions of several categorical components (MultiDiscrete, MultiBinary, a
// Tuple of Discrete): each component is drawn from its own logits and mask,
// and the learner's log-probability, entropy and PPO ratio are the sums over
// components. The expected values are worked by hand below.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include <torch/torch.h>

#include "algo/act_from_policy.hpp"
#include "algo/action_mask.hpp"
#include "algo/policy_distribution.hpp"
#include "model/net_spec.hpp"

using namespace troupe;
using namespace troupe::algo;

namespace {

model::net_spec two_components() {
  model::net_spec net;
  net.continuous = false;
  net.action_heads = {2, 3};
  net.action_size = 5;
  return net;
}

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("MultiDiscrete: one index per component, each from its own logits and mask") {
  const model::net_spec net = two_components();
  CHECK(action_width(net) == 2);
  // Component 0: logits (0, ln 3): p = (1/4, 3/4). Component 1: (0, 0, 0)
  // with its last choice masked: p = (1/2, 1/2, 0).
  const float logits[5] = {0.f, std::log(3.f), 0.f, 0.f, 0.f};
  const std::uint8_t legal[5] = {1, 1, 1, 1, 0};
  std::mt19937_64 rng(7);
  std::vector<long> counts(5, 0);
  const int draws = 200000;
  for (int k = 0; k < draws; ++k) {
    float action[2] = {-1, -1};
    const float logp = act_from_policy(net, logits, nullptr, false, rng, action, legal);
    REQUIRE((action[0] == 0 || action[0] == 1));
    REQUIRE((action[1] == 0 || action[1] == 1));  // never the masked 2
    ++counts[size_t(action[0])];
    ++counts[2 + size_t(action[1])];
    const double expected = std::log(action[0] == 0 ? 0.25 : 0.75) + std::log(0.5);
    REQUIRE(logp == doctest::Approx(expected).epsilon(1e-5));
  }
  CHECK(double(counts[1]) / draws == doctest::Approx(0.75).epsilon(0.01));
  CHECK(double(counts[2]) / draws == doctest::Approx(0.5).epsilon(0.01));
  CHECK(counts[4] == 0);
  float greedy[2] = {-1, -1};
  const float logp = act_from_policy(net, logits, nullptr, true, rng, greedy, legal);
  CHECK(greedy[0] == 1);
  CHECK(greedy[1] == 0);  // the first of two equally likely legal choices
  CHECK(logp == doctest::Approx(std::log(0.75) + std::log(0.5)).epsilon(1e-5));
}

TEST_CASE("MultiDiscrete: the learner's log-probability, entropy and PPO ratio under a mask, worked by hand") {
  const std::vector<int> heads = {2, 3};
  // Sample 0: as in the test above, actions (1, 0). Sample 1: logits
  // (ln 2, 0 | 0, ln 2, ln 5), nothing masked, actions (0, 2).
  const torch::Tensor logits = torch::tensor({0.f, std::log(3.f), 0.f, 0.f, 0.f,  //
                                              std::log(2.f), 0.f, 0.f, std::log(2.f), std::log(5.f)})
                                   .view({2, 5})
                                   .requires_grad_(true);
  const torch::Tensor actions = torch::tensor({1, 0, 0, 2}, torch::kInt64).view({2, 2});
  const torch::Tensor legal = torch::tensor({1, 1, 1, 1, 0, 1, 1, 1, 1, 1}, torch::kUInt8).view({2, 5}).to(torch::kBool);
  const policy_terms t = multi_categorical_terms(logits, actions, heads, legal);
  // log p: ln(3/4) + ln(1/2); ln(2/3) + ln(5/8).
  CHECK(t.logp[0].item<double>() == doctest::Approx(std::log(0.75) + std::log(0.5)).epsilon(1e-5));
  CHECK(t.logp[1].item<double>() == doctest::Approx(std::log(2.0 / 3) + std::log(5.0 / 8)).epsilon(1e-5));
  // Entropy: H(1/4, 3/4) + H(1/2, 1/2) (the masked choice adds nothing);
  // H(2/3, 1/3) + H(1/8, 2/8, 5/8).
  const auto h = [](std::vector<double> p) {
    double s = 0;
    for (double q : p) s -= q * std::log(q);
    return s;
  };
  CHECK(t.entropy[0].item<double>() == doctest::Approx(h({0.25, 0.75}) + std::log(2.0)).epsilon(1e-5));
  CHECK(t.entropy[1].item<double>() ==
        doctest::Approx(h({2.0 / 3, 1.0 / 3}) + h({1.0 / 8, 2.0 / 8, 5.0 / 8})).epsilon(1e-5));
  // PPO's ratio against a behaviour log-probability: exp(new - old), the
  // product of the components' ratios. Old: both components uniform over
  // their legal choices.
  const torch::Tensor old_logp = torch::tensor({std::log(0.5f) + std::log(0.5f), std::log(0.5f) + std::log(1.f / 3)});
  const torch::Tensor ratio = torch::exp(t.logp - old_logp);
  CHECK(ratio[0].item<double>() == doctest::Approx((0.75 / 0.5) * (0.5 / 0.5)).epsilon(1e-5));
  CHECK(ratio[1].item<double>() == doctest::Approx(((2.0 / 3) / 0.5) * ((5.0 / 8) / (1.0 / 3))).epsilon(1e-5));
  // The masked logit gets no gradient.
  (t.logp.sum() + t.entropy.sum()).backward();
  CHECK(logits.grad()[0][4].item<float>() == 0.f);
  CHECK(logits.grad()[0][3].item<float>() != 0.f);
}

TEST_CASE("MultiDiscrete masks: each component needs a legal choice; a taken choice must be legal") {
  const std::vector<int> heads = {2, 3};
  const std::uint8_t good[5] = {0, 1, 0, 0, 1};
  CHECK(mask_problem(good, 1, heads).empty());
  const std::uint8_t none_in_second[5] = {1, 1, 0, 0, 0};
  CHECK(mask_problem(none_in_second, 1, heads) == "action mask row 0: no legal action for component 1");
  CHECK(mask_problem(none_in_second, 1, 5).empty());  // as one Discrete row it would pass
  const std::uint8_t bad_byte[10] = {1, 1, 1, 1, 1, 1, 1, 1, 7, 1};
  CHECK(mask_problem(bad_byte, 2, heads) == "action mask row 1: entry 3 is 7, expected 0 or 1");
  const float legal_actions[2] = {1, 2};
  CHECK(illegal_action_problem(legal_actions, good, 1, heads).empty());
  const float masked_second[2] = {1, 1};
  CHECK(illegal_action_problem(masked_second, good, 1, heads) ==
        "sample 0 took an action its mask does not allow");
  const float out_of_range[2] = {1, 3};
  CHECK(!illegal_action_problem(out_of_range, good, 1, heads).empty());
  float first[2] = {-1, -1};
  first_legal_actions(good, heads, first);
  CHECK(first[0] == 1);
  CHECK(first[1] == 2);
}
}
