#include <doctest/doctest.h>

#include <limits>
#include <stdexcept>

#include "algo/learner.hpp"
#include "model/shared_model_impl.hpp"

using namespace troupe;

namespace {
algo::rollout small_rollout(int n, int k, std::uint64_t acted_version) {
  algo::rollout r;
  r.n_steps = n;
  r.n_envs = k;
  r.obs_size = 4;
  r.observations.assign(size_t(n + 1) * k * 4, 0.1f);
  for (int i = 0; i < n * k; ++i) {
    r.actions.push_back(float(i % 2));
    r.rewards.push_back(1.f);
    r.terminated.push_back(i == 0);
    r.truncated.push_back(i == 1);
    r.behaviour_logp.push_back(-0.69f);
    r.behaviour_version.push_back(acted_version);
  }
  r.truncation_observations.assign(4, 0.2f);  // for the one truncated sample
  return r;
}
}  // namespace

TEST_SUITE("algo") {
TEST_CASE("each update moves the version by one and measures the policy lag") {
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {8}), 1);
  algo::learner learner(model, algo::algo_config{});
  for (std::uint64_t u = 0; u < 5; ++u) {
    const auto result = learner.train_one(small_rollout(3, 2, 0));
    CHECK(result.applied);
    CHECK(result.version == u + 1);
    CHECK(result.samples == 6);
    // Acted with version 0, trained at version u: each of 6 samples lags u.
    CHECK(result.lag_sum == 6 * u);
    CHECK(result.lag_max == u);
  }
  CHECK(model::current_version(*model) == 5);
}

TEST_CASE("a malformed rollout is refused before it touches the parameters") {
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {8}), 1);
  algo::learner learner(model, algo::algo_config{});
  auto bad_action = small_rollout(2, 2, 0);
  bad_action.actions[0] = 7;
  CHECK_THROWS_AS(learner.train_one(bad_action), std::invalid_argument);
  auto missing_cut = small_rollout(2, 2, 0);
  missing_cut.truncation_observations.clear();
  CHECK_THROWS_AS(learner.train_one(missing_cut), std::invalid_argument);
  auto short_obs = small_rollout(2, 2, 0);
  short_obs.observations.pop_back();
  CHECK_THROWS_AS(learner.train_one(short_obs), std::invalid_argument);
  CHECK(model::current_version(*model) == 0);
}
}

TEST_SUITE("algo") {
TEST_CASE("a hybrid rollout trains: its choices are checked as indices and against the mask, its Box values as numbers") {
  // Discrete(2), then a Box(1): rows of (index, value), masks of 2.
  model::net_spec spec = model::mlp_spec(4, 3, {8});
  spec.action_heads = {2};
  spec.gaussian_size = 1;
  auto model = model::make_shared_model(spec, 1);
  algo::learner learner(model, algo::algo_config{});
  const auto hybrid = [] {
    auto r = small_rollout(2, 2, 0);
    r.action_size = 2;
    r.actions = {0, 2.5f, 1, -3.f, 0, 0.f, 1, 7.f};  // values far from any index
    r.mask_size = 2;
    r.action_masks = {1, 1, /**/ 0, 1, /**/ 1, 0, /**/ 1, 1};
    return r;
  };
  const auto result = learner.train_one(hybrid());
  CHECK(result.applied);
  auto bad_index = hybrid();
  bad_index.actions[2] = 2;  // Discrete(2) has no choice 2
  CHECK_THROWS_AS(learner.train_one(bad_index), std::invalid_argument);
  auto masked = hybrid();
  masked.action_masks[2] = 1, masked.action_masks[3] = 0;  // sample 1 took its masked choice 1
  CHECK_THROWS_WITH_AS(learner.train_one(masked), doctest::Contains("mask does not allow"), std::invalid_argument);
  auto infinite = hybrid();
  infinite.actions[1] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(learner.train_one(infinite), std::invalid_argument);
  CHECK(model::current_version(*model) == 1);
}
}

TEST_SUITE("algo") {
TEST_CASE("a non-finite loss is never applied: the update is skipped and reported") {
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {8}), 1);
  algo::learner learner(model, algo::algo_config{});
  std::vector<torch::Tensor> before;
  for (const auto& p : model->net->parameters()) before.push_back(p.detach().clone());
  auto poisoned = small_rollout(3, 2, 0);
  poisoned.rewards[2] = std::numeric_limits<float>::quiet_NaN();
  const auto result = learner.train_one(poisoned);
  CHECK_FALSE(result.applied);
  CHECK(result.version == 0);
  const auto after = model->net->parameters();
  for (size_t i = 0; i < after.size(); ++i) CHECK(torch::equal(after[i], before[i]));
  CHECK(learner.train_one(small_rollout(3, 2, 0)).applied);  // and training goes on
}
}
