// Evaluation plays every episode to its end, and episode i's result depends
// only on (seed, i): not on how many episodes run side by side.
#include <doctest/doctest.h>

#include "agents/evaluate.hpp"
#include "catalog/registry.hpp"
#include "model/shared_model.hpp"

using namespace troupe;

TEST_SUITE("agents") {
TEST_CASE("evaluate: the same episodes whether played one at a time or side by side") {
  envs::env_config env;
  env.id = "CartPole-v1";
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {16}), 3);
  const auto alone = agents::evaluate(*model, env, 12, false, 99, 100000, 1);
  const auto side_by_side = agents::evaluate(*model, env, 12, false, 99, 100000, 5);
  const auto all_at_once = agents::evaluate(*model, env, 12, false, 99, 100000, 64);
  REQUIRE(alone.returns.size() == 12);
  CHECK(alone.returns == side_by_side.returns);
  CHECK(alone.returns == all_at_once.returns);
  CHECK(alone.lengths == all_at_once.lengths);
  // CartPole pays 1 per step: each return is its episode's length.
  for (size_t i = 0; i < alone.returns.size(); ++i) {
    CHECK(alone.returns[i] == double(alone.lengths[i]));
    CHECK(alone.lengths[i] >= 1);
    CHECK(alone.lengths[i] <= 500);
  }
  // A different seed plays different episodes.
  CHECK(agents::evaluate(*model, env, 12, false, 100).returns != alone.returns);
}

TEST_CASE("evaluate: an episode without a time limit ends at max_steps_per_episode") {
  envs::env_config env;
  env.id = "CartPole-v1";
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {16}), 3);
  const auto e = agents::evaluate(*model, env, 6, true, 5, 3, 4);
  for (auto len : e.lengths) CHECK(len <= 3);
}
}

TEST_SUITE("agents") {
TEST_CASE("evaluate: with an action mask, every action is legal, idle environments' too (LegalMoves throws otherwise)") {
  envs::env_config env;
  env.id = "Example/LegalMoves-v0";
  auto model = model::make_shared_model(model::mlp_spec(5, 5, {16}), 4);
  for (const bool greedy : {false, true}) {
    // 13 episodes on 4 environments: three of them idle at the end.
    const auto r = agents::evaluate(*model, env, 13, greedy, 7, 100000, 4);
    REQUIRE(r.returns.size() == 13);
    for (size_t i = 0; i < r.lengths.size(); ++i) CHECK(r.lengths[i] == 20);
    // Played one at a time, the same episodes.
    CHECK(agents::evaluate(*model, env, 13, greedy, 7, 100000, 1).returns == r.returns);
  }
}
}
