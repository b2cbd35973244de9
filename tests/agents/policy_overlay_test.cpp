#include <doctest/doctest.h>

#include <cmath>

#include "agents/policy_overlay.hpp"

using troupe::agents::show_policy;
using troupe::envs::space;

TEST_SUITE("agents") {
TEST_CASE("the panel shows a discrete policy's probabilities and the action it took") {
  troupe::viewer::overlay_info info;
  info.action_values = {9.f};  // left over from elsewhere: replaced
  const float logits[3] = {0.f, std::log(3.f), std::log(4.f)};
  const float taken = 2;
  show_policy(info, space::discrete_space(3), logits, &taken, {"a", "b", "c"});
  REQUIRE(info.action_probabilities.size() == 3);
  CHECK(info.action_probabilities[0] == doctest::Approx(0.125));
  CHECK(info.action_probabilities[2] == doctest::Approx(0.5));
  CHECK(info.chosen_actions == std::vector<std::int32_t>{2});
  CHECK(info.action_names == std::vector<std::string>{"a", "b", "c"});
  CHECK(info.action_values.empty());
  CHECK(info.legal_actions.empty());
}

TEST_CASE("the panel shows the other seat: who, its probabilities under its own mask, or its move alone") {
  troupe::viewer::overlay_info info;
  troupe::envs::other_seat_view other;
  other.learner_seat = 1;
  other.who = "snapshot 4";
  other.action_space = space::discrete_space(3);
  troupe::agents::show_other_seat(info, other);
  CHECK(info.seat == "second");
  CHECK(info.other_player == "snapshot 4");
  CHECK(info.other_chosen.empty());  // it has not moved this episode
  other.action = {2};
  other.legal = {1, 0, 1};
  other.policy = {0.f, 7.f, 0.f};  // the masked action's logit counts for nothing
  troupe::agents::show_other_seat(info, other);
  REQUIRE(info.other_probabilities.size() == 3);
  CHECK(info.other_probabilities[0] == doctest::Approx(0.5));
  CHECK(info.other_probabilities[1] == 0.f);
  CHECK(info.other_chosen == std::vector<std::int32_t>{2});
  CHECK(info.other_legal == std::vector<std::uint8_t>{1, 0, 1});
  CHECK(info.action_probabilities.empty());  // the policy's own are left alone
  other.learner_seat = 0;
  other.policy.clear();  // a built-in search: no probabilities
  other.legal.clear();
  troupe::agents::show_other_seat(info, other);
  CHECK(info.seat == "first");
  CHECK(info.other_probabilities.empty());
  CHECK(info.other_chosen == std::vector<std::int32_t>{2});
  CHECK(info.other_legal.empty());
}

TEST_CASE("the panel greys masked actions: probability 0 and marked not legal") {
  troupe::viewer::overlay_info info;
  const float logits[3] = {5.f, 0.f, 0.f};
  const std::uint8_t legal[3] = {0, 1, 1};
  const float taken = 1;
  show_policy(info, space::discrete_space(3), logits, &taken, {}, legal);
  REQUIRE(info.action_probabilities.size() == 3);
  CHECK(info.action_probabilities[0] == 0.f);
  CHECK(info.action_probabilities[1] == doctest::Approx(0.5));
  CHECK(info.legal_actions == std::vector<std::uint8_t>{0, 1, 1});
}

TEST_CASE("the panel shows each component of a MultiDiscrete action, its own choice highlighted") {
  troupe::viewer::overlay_info info;
  // Two components of 2 and 3 choices: logits, mask and taken indices in turn.
  const float logits[5] = {0.f, 0.f, std::log(2.f), 0.f, 0.f};
  const std::uint8_t legal[5] = {1, 1, 1, 1, 0};
  const float taken[2] = {1, 0};
  show_policy(info, space::multi_discrete_space({2, 3}), logits, taken, {}, legal);
  REQUIRE(info.action_probabilities.size() == 5);
  CHECK(info.action_probabilities[0] == doctest::Approx(0.5));
  CHECK(info.action_probabilities[2] == doctest::Approx(2.0 / 3.0));  // the third is masked
  CHECK(info.action_probabilities[4] == 0.f);
  CHECK(info.chosen_actions == std::vector<std::int32_t>{1, 2});  // offsets 0 + 1 and 2 + 0
  CHECK(info.action_names == std::vector<std::string>{"0:0", "0:1", "1:0", "1:1", "1:2"});
}

TEST_CASE("the panel shows a Gaussian's means, then the actions taken") {
  troupe::viewer::overlay_info info;
  const float mean[2] = {0.5f, -0.25f}, taken[2] = {0.7f, -1.0f};
  const space box2 = space::box_space({2}, {-1, -1}, {1, 1});
  show_policy(info, box2, mean, taken, {});
  CHECK(info.action_values == std::vector<float>{0.5f, -0.25f, 0.7f, -1.0f});
  CHECK(info.action_names == std::vector<std::string>{"mu1", "mu2", "a1", "a2"});
  CHECK(info.action_probabilities.empty());
  CHECK(info.chosen_actions.empty());
  show_policy(info, space::box_space({1}, {-1}, {1}), mean, taken, {});
  CHECK(info.action_names == std::vector<std::string>{"mean", "act"});
}

TEST_CASE("the panel shows a hybrid action's choice probabilities, then its Box part's mean and value") {
  troupe::viewer::overlay_info info;
  // Discrete(2) (its second choice masked), then a Box(1): two logits, one mean.
  const float policy[3] = {0.f, 3.f, 0.25f};
  const std::uint8_t legal[2] = {1, 0};
  const float taken[2] = {0, 0.5f};
  show_policy(info, space::hybrid_space({2}, {-1}, {1}), policy, taken, {"left", "right"}, legal);
  CHECK(info.action_probabilities == std::vector<float>{1.f, 0.f});
  CHECK(info.chosen_actions == std::vector<std::int32_t>{0});
  CHECK(info.legal_actions == std::vector<std::uint8_t>{1, 0});
  CHECK(info.action_values == std::vector<float>{0.25f, 0.5f});
  // The rows in the panel's order: the choices, then the mean and the value.
  CHECK(info.action_names == std::vector<std::string>{"0:0", "0:1", "mean", "act"});
}
}
