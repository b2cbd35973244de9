// Observation normalisation: the running statistics against a two-pass
// computation, their trip through a checkpoint, and a policy loaded from
// that checkpoint acting as the one that trained.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>

#include "agents/evaluate.hpp"
#include "model/checkpoint.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/torch_checks.hpp"
#include "tests/temp_files.hpp"

using namespace troupe;
using namespace troupe::model;

namespace {

std::vector<float> random_rows(int rows, int dim, std::uint64_t seed, float scale, float shift) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> out;
  for (int i = 0; i < rows * dim; ++i) out.push_back(shift + scale * normal(rng));
  return out;
}

net_spec normalising_spec() {
  net_spec spec = mlp_spec(3, 4, {16});
  spec.normalize.observation = true;
  spec.normalize.reward = true;
  spec.normalize.clip_observation = 5;
  return spec;
}

}  // namespace

TEST_SUITE("model") {
TEST_CASE("running moments over batches equal a two-pass computation over all the samples") {
  const std::vector<int> batches = {1, 7, 300, 2, 50};
  running_moments running(3);
  std::vector<float> all;
  std::uint64_t seed = 1;
  for (int rows : batches) {
    const auto batch = random_rows(rows, 3, seed++, 3.0f, 100.0f);
    running.update(batch.data(), rows);
    all.insert(all.end(), batch.begin(), batch.end());
  }
  const int n = static_cast<int>(all.size()) / 3;
  CHECK(running.count == n);
  for (int j = 0; j < 3; ++j) {
    double mean = 0, var = 0;
    for (int i = 0; i < n; ++i) mean += all[size_t(i) * 3 + j];
    mean /= n;
    for (int i = 0; i < n; ++i) var += (all[size_t(i) * 3 + j] - mean) * (all[size_t(i) * 3 + j] - mean);
    var /= n;
    CHECK(running.mean[size_t(j)] == doctest::Approx(mean).epsilon(1e-12));
    CHECK(running.var[size_t(j)] == doctest::Approx(var).epsilon(1e-9));
  }
}

TEST_CASE("normalisation statistics survive a checkpoint bit for bit, and the loaded policy acts as the trained one") {
  auto trained = make_shared_model(normalising_spec(), 4);
  const auto seen = random_rows(500, 3, 9, 4.0f, -20.0f);
  fold_observations(*trained, seen.data(), 250);
  fold_observations(*trained, seen.data() + 750, 250);
  const float rewards[] = {3.f, -1.f, 0.5f};
  trained->return_moments.update(rewards, 3);
  const std::uint64_t version_before = current_version(*trained);
  CHECK(version_before == 0);  // the statistics are not an update
  const std::string path = troupe::tests::temp_file("troupe_normalization_test", "normalized.ckpt");
  save_checkpoint(path, *trained, nullptr, {});

  auto loaded = make_shared_model(normalising_spec(), 99);  // other weights until loaded
  load_checkpoint(path, *loaded, nullptr);
  CHECK(loaded->obs_moments.mean == trained->obs_moments.mean);  // exact
  CHECK(loaded->obs_moments.var == trained->obs_moments.var);
  CHECK(loaded->obs_moments.count == trained->obs_moments.count);
  CHECK(loaded->return_moments.var == trained->return_moments.var);
  CHECK(torch::equal(loaded->net->obs_mean, trained->net->obs_mean));
  CHECK(torch::equal(loaded->net->obs_scale, trained->net->obs_scale));

  // Raw observations of the task's scale: the loaded policy's greedy actions
  // are the trained one's, every one.
  const auto observations = random_rows(64, 3, 21, 4.0f, -20.0f);
  prediction a, b;
  predict(*trained, observations.data(), nullptr, 64, a);
  predict(*loaded, observations.data(), nullptr, 64, b);
  CHECK(a.policy == b.policy);
  envs::space action_space;
  action_space.type = envs::space::kind::discrete;
  action_space.n = 4;
  std::mt19937_64 rng(1);
  int same = 0;
  for (int i = 0; i < 64; ++i) {
    float x = -1, y = -1;
    agents::choose_action(trained->spec, action_space, &a.policy[size_t(i) * 4], nullptr, true, rng, &x);
    agents::choose_action(loaded->spec, action_space, &b.policy[size_t(i) * 4], nullptr, true, rng, &y);
    same += x == y;
  }
  CHECK(same == 64);

  // Without its statistics the same parameters give other outputs: the test
  // above could fail.
  auto unnormalised = make_shared_model(normalising_spec(), 99);
  copy_parameters(*loaded, *unnormalised);
  unnormalised->obs_moments = running_moments(3);
  install_observation_statistics(*unnormalised);
  prediction c;
  predict(*unnormalised, observations.data(), nullptr, 64, c);
  CHECK(c.policy != a.policy);
}

TEST_CASE("a checkpoint without normalisation statistics does not load into a normalising model, nor the other way") {
  auto plain = make_shared_model(mlp_spec(3, 4, {16}), 1);
  const std::string plain_path = troupe::tests::temp_file("troupe_normalization_test", "plain.ckpt");
  save_checkpoint(plain_path, *plain, nullptr, {});
  auto normalising = make_shared_model(normalising_spec(), 1);
  CHECK_THROWS_WITH_AS(load_checkpoint(plain_path, *normalising, nullptr),
                       doctest::Contains("env.normalize.observation"), checkpoint_error);
  const std::string normalised_path =
      troupe::tests::temp_file("troupe_normalization_test", "normalised.ckpt");
  save_checkpoint(normalised_path, *normalising, nullptr, {});
  CHECK_THROWS_WITH_AS(load_checkpoint(normalised_path, *plain, nullptr),
                       doctest::Contains("env.normalize.observation"), checkpoint_error);
}
}
