// Compiled plugins (bridges/plugin/): the example plugin, built from its source
// with the tests, through the registry; and one built for another ABI.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/env_error.hpp"

using namespace troupe::envs;
using namespace troupe::catalog;

namespace {
env_config plugin_config(const std::string& file, const std::string& kwargs = "{}") {
  env_config c;
  c.id = "plugin:" + file;
  c.kwargs = kwargs;
  return c;
}
}  // namespace

TEST_SUITE("bridges") {
TEST_CASE("plugin: the Signal example through the registry, its options from env.kwargs") {
  auto vector = make_env_vector(plugin_config(TROUPE_TEST_SIGNAL_PLUGIN, R"({"length": 4})"), 3);
  const env_spec& spec = vector->spec();
  CHECK(spec.id == "plugin:" TROUPE_TEST_SIGNAL_PLUGIN);
  CHECK(spec.observation.describe() == "Box(2)");
  CHECK(spec.observation.high == std::vector<double>{1.0, 1.0});
  CHECK(spec.action.describe() == "Discrete(2)");
  CHECK(spec.max_episode_steps == 4);
  std::vector<std::uint64_t> seeds = {1, 2, 3};
  std::vector<float> obs(6), final_obs(6);
  vector->reset(seeds.data(), obs.data());
  // Press the lit button every step: 1 each, episodes truncated after 4.
  std::vector<float> actions(3);
  std::vector<step_result> results(3);
  double total = 0;
  int truncated = 0;
  for (int t = 0; t < 8; ++t) {
    for (int i = 0; i < 3; ++i) {
      CHECK(obs[i * 2] + obs[i * 2 + 1] == 1.0f);  // one-hot
      actions[i] = obs[i * 2 + 1] > 0.5f ? 1.f : 0.f;
    }
    vector->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
    for (const auto& r : results) total += r.reward, truncated += r.truncated;
  }
  CHECK(total == 24.0);
  CHECK(truncated == 6);
  // It draws itself: two lights.
  REQUIRE(vector->can_render());
  rgb_frame frame;
  REQUIRE(vector->render(0, frame));
  CHECK(frame.width == 80);
  CHECK(frame.height == 40);
  // A bad action is the plugin's error, with its reason.
  const float bad = 7.f;
  vector_as_env single(make_env_vector(plugin_config(TROUPE_TEST_SIGNAL_PLUGIN), 1));
  single.reset(1, obs.data());
  CHECK_THROWS_WITH_AS(single.step(&bad, obs.data()), doctest::Contains("neither 0 nor 1"),
                       std::runtime_error);
}

TEST_CASE("plugin: refused options, a wrong ABI version and a missing file are env_errors that say why") {
  try {
    make_env_vector(plugin_config(TROUPE_TEST_SIGNAL_PLUGIN, R"({"length": 0})"), 1);
    FAIL("options refused by the plugin were accepted");
  } catch (const env_key_error& e) {
    CHECK(std::string(e.what()).find("option \"length\" must be a positive integer") != std::string::npos);
  }
  try {
    make_env_vector(plugin_config(TROUPE_TEST_WRONG_ABI_PLUGIN), 1);
    FAIL("a plugin of another ABI version was loaded");
  } catch (const env_key_error& e) {
    const std::string message = e.what();
    CHECK(message.find("libtroupe_test_wrong_abi_plugin.so") != std::string::npos);
    CHECK(message.find("plugin ABI version 2, this troupe speaks 1") != std::string::npos);
  }
  CHECK_THROWS_AS(make_env_vector(plugin_config(TROUPE_SOURCE_DIR "/README.md"), 1), env_key_error);
}
}
