// The collector, without actors: rollouts as training takes them, episodes
// as the metrics count them, seeds asked for one episode ahead, recurrent
// states zeroed where episodes end, and a Box's actions clipped for the
// environments but kept as drawn in the rollout.
#include <doctest/doctest.h>

#include <random>

#include "agents/collector.hpp"
#include "catalog/registry.hpp"

using namespace troupe;

namespace {

envs::env_config env_of(const std::string& id) {
  envs::env_config c;
  c.id = id;
  return c;
}

}  // namespace

TEST_SUITE("agents") {
TEST_CASE("collector: rollouts of n steps, each starting where the last ended, episodes counted whole") {
  const int k = 3, n = 7, s = 2;
  auto environments = catalog::make_env_vector(env_of("CartPole-v1"), k);
  agents::collector_config config;
  config.agent_id = 5;
  config.n_steps = n;
  config.state_size = s;
  int seeds_asked = 0;
  std::mt19937_64 stream(11);
  agents::collector c(*environments, config, [&](int) {
    ++seeds_asked;
    return stream();
  });
  CHECK(seeds_asked == 2 * k);  // each environment's first episode, and the next
  std::vector<float> actions(k), logp(k, -0.5f);
  std::vector<double> reward_sums(k, 0.0);
  int episodes = 0, rollouts = 0;
  std::vector<float> last_row;
  for (int step = 0; step < 40 * n; ++step) {
    for (int e = 0; e < k; ++e) actions[size_t(e)] = float((step + e) % 2);
    // A made-up recurrent state after this step: 100 * step + e, in every element.
    std::vector<float> next_states;
    for (int e = 0; e < k; ++e) next_states.insert(next_states.end(), s, float(100 * step + e));
    const auto done = c.step(actions.data(), logp.data(), 9, next_states);
    for (int e = 0; e < k; ++e) reward_sums[size_t(e)] += 1.0;  // CartPole pays 1 a step
    for (const auto& f : c.finished()) {
      ++episodes;
      CHECK(f.episode_return == reward_sums[size_t(f.env)]);
      CHECK(f.length == std::int64_t(f.episode_return));
      reward_sums[size_t(f.env)] = 0;
      // Its next episode starts from a zero state.
      for (int j = 0; j < s; ++j) CHECK(c.states()[size_t(f.env) * s + j] == 0.0f);
    }
    if (done) {
      CAPTURE(rollouts);
      REQUIRE(algo::rollout_shape_error(*done).empty());
      CHECK(done->agent_id == 5);
      CHECK(done->sequence == std::uint64_t(rollouts));
      CHECK(done->samples() == n * k);
      CHECK(done->behaviour_version[0] == 9);
      if (!last_row.empty())  // this rollout's first row is the last one's final row
        CHECK(std::vector<float>(done->observations.begin(), done->observations.begin() + k * 4) == last_row);
      last_row.assign(done->observations.end() - k * 4, done->observations.end());
      CHECK(c.rollout_steps() == 0);
      ++rollouts;
    }
  }
  CHECK(rollouts == 40);
  CHECK(episodes > 0);
  CHECK(seeds_asked == 2 * k + episodes);
}

TEST_CASE("collector: a Box action is clipped for the environment and kept as drawn in the rollout") {
  // Pendulum's torque is in [-2, 2]: 5 acts as 2, and the rollout keeps 5.
  auto clipped_envs = catalog::make_env_vector(env_of("Pendulum-v1"), 1);
  auto reference = catalog::make_env_vector(env_of("Pendulum-v1"), 1);
  agents::collector_config config;
  config.n_steps = 3;
  agents::collector c(*clipped_envs, config, [](int) { return std::uint64_t(77); });
  std::vector<float> obs(3), final_obs(3);
  const std::uint64_t seed = 77;
  reference->reset(&seed, obs.data());
  CHECK(std::vector<float>(c.observations(), c.observations() + 3) == obs);
  std::optional<algo::rollout> done;
  for (int t = 0; t < 3; ++t) {
    const float drawn = 5.0f, applied = 2.0f, logp = 0.f;
    done = c.step(&drawn, &logp, 0, {});
    envs::step_result result;
    reference->step(&applied, &seed, obs.data(), &result, final_obs.data());
    CHECK(std::vector<float>(c.observations(), c.observations() + 3) == obs);
  }
  REQUIRE(done);
  CHECK(done->actions == std::vector<float>{5.0f, 5.0f, 5.0f});
}

TEST_CASE("clip_to_space clips a Box's elements to their bounds and leaves a Discrete action") {
  const envs::space box = envs::space::box_space({2}, {-1.0, 0.0}, {1.0, 3.0});
  std::vector<float> a = {-4.f, 5.f, 0.5f, 2.f};
  agents::clip_to_space(box, a.data(), 2);
  CHECK(a == std::vector<float>{-1.f, 3.f, 0.5f, 2.f});
  std::vector<float> d = {7.f};
  agents::clip_to_space(envs::space::discrete_space(3), d.data(), 1);
  CHECK(d[0] == 7.f);
}
}
