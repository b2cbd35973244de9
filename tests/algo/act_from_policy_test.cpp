// One way from a policy row to an action, for every part that acts.
#include <doctest/doctest.h>

#include <cmath>

#include "algo/act_from_policy.hpp"

using namespace troupe;
using namespace troupe::algo;

namespace {

model::net_spec action_net(bool continuous, int action_size) {
  model::net_spec net;
  net.continuous = continuous;
  net.action_size = action_size;
  return net;
}

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("a categorical policy: one index, sampled by its probabilities or the most probable") {
  const model::net_spec net = action_net(false, 3);
  CHECK(action_width(net) == 1);
  const float logits[3] = {0.0f, std::log(3.0f), std::log(4.0f)};  // 1/8, 3/8, 1/2
  std::mt19937_64 rng(7);
  float action[2] = {-1, -7};  // [1] shows nothing is written past the width
  CHECK(act_from_policy(net, logits, nullptr, true, rng, action) == doctest::Approx(std::log(0.5)));
  CHECK(action[0] == 2.0f);
  int counts[3] = {0, 0, 0};
  const int draws = 40000;
  for (int i = 0; i < draws; ++i) {
    const float logp = act_from_policy(net, logits, nullptr, false, rng, action);
    const int a = int(action[0]);
    REQUIRE((a >= 0 && a < 3));
    ++counts[a];
    CHECK(logp == doctest::Approx(std::log(a == 0 ? 0.125 : a == 1 ? 0.375 : 0.5)));
  }
  CHECK(action[1] == -7.0f);
  CHECK(double(counts[0]) / draws == doctest::Approx(0.125).epsilon(0.05));  // ~6 std errors
  CHECK(double(counts[2]) / draws == doctest::Approx(0.5).epsilon(0.02));
}

TEST_CASE("a Gaussian policy: one value per dimension, the mean when greedy, with its density") {
  const model::net_spec net = action_net(true, 2);
  CHECK(action_width(net) == 2);
  const float mean[2] = {0.5f, -1.0f};
  const float log_std[2] = {std::log(0.1f), 0.0f};
  std::mt19937_64 rng(3);
  float action[3] = {0, 0, -7};
  // At the mean each dimension's density is 1 / (sigma sqrt(2 pi)).
  const double at_mean = -std::log(0.1) - std::log(1.0) - std::log(2.0 * M_PI);
  CHECK(act_from_policy(net, mean, log_std, true, rng, action) == doctest::Approx(at_mean));
  CHECK(action[0] == 0.5f);
  CHECK(action[1] == -1.0f);
  double sum0 = 0, square1 = 0;
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    const float logp = act_from_policy(net, mean, log_std, false, rng, action);
    CHECK(logp <= at_mean + 1e-4);  // no density exceeds the mode's
    sum0 += action[0];
    square1 += (action[1] + 1.0) * (action[1] + 1.0);
  }
  CHECK(action[2] == -7.0f);
  CHECK(sum0 / draws == doctest::Approx(0.5).epsilon(0.01));  // std error 0.0007
  CHECK(square1 / draws == doctest::Approx(1.0).epsilon(0.05));  // variance 1, std error 0.01
}
}
