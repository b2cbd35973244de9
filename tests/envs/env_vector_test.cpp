// The native environment vector against the environments it holds, stepped
// one by one: the same observations, results and resets.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/classic/cartpole.hpp"
#include "envs/env_vector.hpp"

using namespace troupe::envs;
using namespace troupe::catalog;

TEST_SUITE("envs") {
TEST_CASE("env vector: steps like its environments one by one, resetting ended episodes with the given seeds") {
  const int k = 5;
  env_config config;  // CartPole-v1
  auto vector = make_env_vector(config, k);
  REQUIRE(vector->size() == k);
  std::vector<cartpole> alone(k);
  std::vector<float> obs(k * 4), obs_alone(k * 4), final_obs(k * 4, -9.f);
  std::vector<std::uint64_t> seeds = {11, 12, 13, 14, 15};
  vector->reset(seeds.data(), obs.data());
  for (int i = 0; i < k; ++i) alone[i].reset(seeds[i], &obs_alone[i * 4]);
  CHECK(obs == obs_alone);
  std::mt19937 rng(3);
  std::vector<float> actions(k);
  std::vector<step_result> results(k);
  int episodes_ended = 0;
  for (int t = 0; t < 400; ++t) {
    std::vector<std::uint64_t> reset_seeds(k);
    for (int i = 0; i < k; ++i) {
      actions[i] = float(rng() % 2);
      reset_seeds[i] = 1000 + t * k + i;
    }
    vector->step(actions.data(), reset_seeds.data(), obs.data(), results.data(), final_obs.data());
    for (int i = 0; i < k; ++i) {
      const step_result r = alone[i].step(&actions[i], &obs_alone[i * 4]);
      CHECK(r.reward == results[i].reward);
      CHECK(r.terminated == results[i].terminated);
      CHECK(r.truncated == results[i].truncated);
      if (r.terminated || r.truncated) {
        ++episodes_ended;
        // The vector kept the observation that ended the episode ...
        for (int j = 0; j < 4; ++j) CHECK(final_obs[i * 4 + j] == obs_alone[i * 4 + j]);
        // ... and started the next episode with the seed it was given.
        alone[i].reset(reset_seeds[i], &obs_alone[i * 4]);
      }
    }
    REQUIRE(obs == obs_alone);
  }
  CHECK(episodes_ended > 10);  // random CartPole episodes last ~20 steps
}

TEST_CASE("env vector: without reset seeds nothing is reset; a vector of one is an env") {
  env_config config;
  vector_as_env single(make_env_vector(config, 1));
  CHECK(single.spec().id == "CartPole-v1");
  CHECK(drawable(single) != nullptr);
  std::vector<float> obs(4);
  single.reset(7, obs.data());
  cartpole reference;
  std::vector<float> expected(4);
  reference.reset(7, expected.data());
  CHECK(obs == expected);
  const float left = 0.f;
  step_result r;
  do {
    r = single.step(&left, obs.data());
    reference.step(&left, expected.data());
    CHECK(obs == expected);  // the ending observation, not a reset one
  } while (!r.terminated && !r.truncated);
  CHECK(r.terminated);
}
}

namespace {
// An environment observed through a Discrete space: nothing to select from.
class discrete_view final : public env {
 public:
  discrete_view() { spec_ = {"Test/DiscreteObservation-v0", space::discrete_space(3), space::discrete_space(2), 10}; }
  const env_spec& spec() const override { return spec_; }
  void reset(std::uint64_t, float* observation) override { observation[0] = 0.f; }
  step_result step(const float*, float* observation) override {
    observation[0] = 1.f;
    return {};
  }

 private:
  env_spec spec_;
};
}  // namespace

TEST_SUITE("envs") {
TEST_CASE("env.observe: the chosen elements, in order; bad choices name the key") {
  env_config config;
  config.observe = {2, 0};  // CartPole: pole angle, then cart position
  auto vector = make_env_vector(config, 3);
  CHECK(vector->spec().observation.shape == std::vector<int>{2});
  CHECK(vector->spec().observation.high == std::vector<double>{cartpole::theta_threshold * 2,
                                                               cartpole::x_threshold * 2});
  std::vector<std::uint64_t> seeds = {1, 2, 3};
  std::vector<float> seen(6);
  vector->reset(seeds.data(), seen.data());
  for (int i = 0; i < 3; ++i) {
    cartpole whole;
    std::vector<float> full(4);
    whole.reset(seeds[i], full.data());
    CHECK(seen[2 * i] == full[2]);
    CHECK(seen[2 * i + 1] == full[0]);
  }
  const auto key_of = [](const env_config& c) {
    try {
      make_env_vector(c, 1);
    } catch (const env_key_error& e) {
      return e.key + ": " + e.what();
    }
    return std::string("no error");
  };
  config.observe = {4};
  CHECK(key_of(config).find("env.observe: index 4 is out of range") == 0);
  static bool registered = false;
  if (!registered) register_env({"Test/DiscreteObservation-v0", [](const env_config&) {
                                   return std::unique_ptr<env>(new discrete_view());
                                 }});
  registered = true;
  config.id = "Test/DiscreteObservation-v0";
  config.observe = {0};
  CHECK(key_of(config).find("not a Box") != std::string::npos);
  config.id = "No/Such-v0";
  config.observe.clear();
  CHECK(key_of(config).find("env.id: unknown environment 'No/Such-v0'") == 0);
}
}

TEST_SUITE("envs") {
TEST_CASE("env spec: each environment declares its action labels and drawing, and vectors keep them") {
  const auto spec_for = [](const std::string& id, bool full_action_set = false) {
    env_config config;
    config.id = id;
    config.minatar.full_action_set = full_action_set;
    return make_env_vector(config, 2)->spec();
  };
  // Gymnasium's documentation names CartPole's actions (push left, push
  // right) and MountainCar's (accelerate left, don't, right).
  CHECK(spec_for("CartPole-v1").action_labels == std::vector<std::string>{"left", "right"});
  CHECK(spec_for("MountainCar-v0").action_labels == std::vector<std::string>{"left", "none", "right"});
  CHECK_FALSE(spec_for("CartPole-v1").pixel_art);
  // MinAtar's minimal action sets (its sources: Breakout n, l, r; Freeway
  // n, u, d), and the full set of six in MinAtar's order.
  CHECK(spec_for("MinAtar/Breakout-v1").action_labels == std::vector<std::string>{"noop", "left", "right"});
  CHECK(spec_for("MinAtar/Freeway-v1").action_labels == std::vector<std::string>{"noop", "up", "down"});
  CHECK(spec_for("MinAtar/Breakout-v1", true).action_labels ==
        std::vector<std::string>{"noop", "left", "up", "right", "down", "fire"});
  CHECK(spec_for("MinAtar/Breakout-v1").pixel_art);
  // A label per action, or none, in every registered environment.
  for (const auto& entry : registered_envs()) {
    CAPTURE(entry.id);
    env_config config;
    config.id = entry.id;
    const env_spec spec = entry.make(with_playable_seat(config))->spec();
    if (spec.action.type == space::kind::discrete && !spec.action_labels.empty())
      CHECK(int(spec.action_labels.size()) == spec.action.n);
    if (spec.action.type == space::kind::box) CHECK(spec.action_labels.empty());
  }
  // Selecting observations changes the observation space only.
  env_config observed;
  observed.observe = {0, 2};
  CHECK(make_env_vector(observed, 1)->spec().action_labels == std::vector<std::string>{"left", "right"});
}
}
