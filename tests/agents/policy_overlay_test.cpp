#include <doctest/doctest.h>

#include <cmath>

#include "agents/policy_overlay.hpp"

using troupe::agents::show_policy;

TEST_SUITE("agents") {
TEST_CASE("the panel shows a discrete policy's probabilities and the action it took") {
  troupe::viewer::overlay_info info;
  info.action_values = {9.f};  // left over from elsewhere: replaced
  const float logits[3] = {0.f, std::log(3.f), std::log(4.f)};
  const float taken = 2;
  show_policy(info, logits, 3, false, &taken, {"a", "b", "c"});
  REQUIRE(info.action_probabilities.size() == 3);
  CHECK(info.action_probabilities[0] == doctest::Approx(0.125));
  CHECK(info.action_probabilities[2] == doctest::Approx(0.5));
  CHECK(info.chosen_action == 2);
  CHECK(info.action_names == std::vector<std::string>{"a", "b", "c"});
  CHECK(info.action_values.empty());
}

TEST_CASE("the panel shows a Gaussian's means, then the actions taken") {
  troupe::viewer::overlay_info info;
  const float mean[2] = {0.5f, -0.25f}, taken[2] = {0.7f, -1.0f};
  show_policy(info, mean, 2, true, taken, {});
  CHECK(info.action_values == std::vector<float>{0.5f, -0.25f, 0.7f, -1.0f});
  CHECK(info.action_names == std::vector<std::string>{"mu1", "mu2", "a1", "a2"});
  CHECK(info.action_probabilities.empty());
  CHECK(info.chosen_action == -1);
  show_policy(info, mean, 1, true, taken, {});
  CHECK(info.action_names == std::vector<std::string>{"mean", "act"});
}
}
