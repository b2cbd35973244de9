// The Python bridge (bridges/python/), with real host processes: the pure-Python
// CartPole steps exactly like the native one; spaces, actions and
// observations cross as they should; an environment that raises or dies is
// an exception within a second, never a hang; an environment that cannot be
// made is an env_key_error saying why; and no host process outlives its vector.
#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/registry.hpp"
#include "envs/classic/cartpole.hpp"
#include "envs/env_error.hpp"
#include "tests/bridges/python/host_processes.hpp"

using namespace troupe::envs;
using namespace troupe::catalog;
using troupe::tests::host_marker;
using troupe::tests::host_processes;
using troupe::tests::hosts_left;

namespace {

const std::string examples_dir = std::string(TROUPE_SOURCE_DIR) + "/examples/python_env";
const std::string test_envs_dir = std::string(TROUPE_SOURCE_DIR) + "/tests/bridges/python";

// `id` with the test modules on the path and `marker` to find its hosts by.
env_config python_config(const std::string& id, const std::string& marker,
                         const std::string& kwargs = "{}") {
  env_config c;
  c.id = id;
  c.python_path = {examples_dir, test_envs_dir, marker};
  c.kwargs = kwargs;
  return c;
}

// The message of the env_key_error making `config` throws ("" if it does not).
std::string creation_error(const env_config& config) {
  try {
    make_env_vector(config, 2);
  } catch (const env_key_error& e) {
    return e.what();
  }
  return "";
}

// What step() throws, and how long it took to.
struct step_failure {
  std::string message;
  double seconds = 0;
};

step_failure step_until_it_throws(env_vector& v, int max_steps) {
  const int k = v.size();
  std::vector<float> actions(size_t(k) * v.spec().action.flat_size(), 0.f);
  std::vector<float> obs(size_t(k) * v.spec().observation.flat_size()), final_obs(obs.size());
  std::vector<std::uint64_t> seeds(size_t(k), 1);
  std::vector<step_result> results(static_cast<size_t>(k));
  for (int t = 0; t < max_steps; ++t) {
    const auto start = std::chrono::steady_clock::now();
    try {
      v.step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
    } catch (const std::runtime_error& e) {
      return {e.what(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
    }
  }
  return {};
}

}  // namespace

TEST_SUITE("bridges") {
TEST_CASE("python bridge: the pure-Python CartPole steps exactly like envs/classic/cartpole from the same states") {
  // Episode s starts in states[s] on both sides (the Python one through its
  // initial_states option), so every observation, reward and flag must be
  // equal, float for float, over many random and balancing action sequences.
  for (int processes : {1, 3}) {
    for (std::uint64_t round = 1; round <= 3; ++round) {
      CAPTURE(processes);
      CAPTURE(round);
      const int k = 8, steps = 700, states_n = 3000;
      std::mt19937_64 rng(round * 7919 + processes);
      std::uniform_real_distribution<double> start(-0.05, 0.05);
      std::vector<cartpole::state_type> states(states_n);
      nlohmann::json initial = nlohmann::json::array();
      for (auto& s : states) {
        for (double& v : s) v = start(rng);
        initial.push_back(s);
      }
      const std::string marker = host_marker("cartpole_" + std::to_string(processes));
      env_config config = python_config("python:cartpole_py:make", marker,
                                        nlohmann::json{{"initial_states", initial}}.dump());
      config.processes_per_agent = processes;
      {
        auto vector = make_env_vector(config, k);
        CHECK(host_processes(marker).size() == size_t(processes));
        const env_spec& spec = vector->spec();
        CHECK(spec.observation.describe() == "Box(4)");
        CHECK(spec.action.describe() == "Discrete(2)");
        CHECK(spec.max_episode_steps == 500);
        // The Python Box holds float32 bounds; the native spec's, rounded so, match.
        const auto native_high = cartpole().spec().observation.high;
        for (size_t j = 0; j < 4; ++j) CHECK(float(spec.observation.high[j]) == float(native_high[j]));

        std::vector<cartpole> native(k);
        std::vector<float> obs(k * 4), final_obs(k * 4), expected(k * 4);
        // Seed s starts an episode in states[s]; each step offers every
        // environment a state of its own, fresh ones once any was taken.
        std::vector<std::uint64_t> seeds(k);
        std::uint64_t base = 0;
        for (int i = 0; i < k; ++i) {
          seeds[i] = base + i;
          native[i].set_state(states[seeds[i]]);
          for (int j = 0; j < 4; ++j) expected[i * 4 + j] = float(states[seeds[i]][j]);
        }
        base += k;
        vector->reset(seeds.data(), obs.data());
        REQUIRE(obs == expected);
        // Half the environments act at random, half balance the pole (they
        // reach the 500-step limit, so truncation is compared too).
        std::vector<float> actions(k);
        std::vector<step_result> results(k);
        int ended = 0, truncated = 0;
        for (int t = 0; t < steps; ++t) {
          REQUIRE(base + k <= std::uint64_t(states_n));
          for (int i = 0; i < k; ++i) {
            const float* o = &expected[i * 4];
            actions[i] = i % 2 ? float(rng() % 2) : float(o[2] + 0.5f * o[3] > 0);
            seeds[i] = base + i;
          }
          bool any_ended = false;
          vector->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
          for (int i = 0; i < k; ++i) {
            const step_result r = native[i].step(&actions[i], &expected[i * 4]);
            REQUIRE(results[i].reward == r.reward);
            REQUIRE(results[i].terminated == r.terminated);
            REQUIRE(results[i].truncated == r.truncated);
            if (r.terminated || r.truncated) {
              ++ended;
              any_ended = true;
              truncated += r.truncated;
              for (int j = 0; j < 4; ++j) REQUIRE(final_obs[i * 4 + j] == expected[i * 4 + j]);
              native[i].set_state(states[seeds[i]]);
              for (int j = 0; j < 4; ++j) expected[i * 4 + j] = float(states[seeds[i]][j]);
            }
          }
          if (any_ended) base += k;
          REQUIRE(obs == expected);
        }
        CHECK(ended > 50);
        CHECK(truncated >= 1);
      }
      CHECK(hosts_left(marker).empty());
    }
  }
}
}

TEST_SUITE("bridges") {
TEST_CASE("python bridge: Box actions arrive reshaped and cast, observations as float32") {
  const std::string marker = host_marker("echo");
  {
    auto vector = make_env_vector(python_config("python:test_envs:echo", marker), 3);
    CHECK(vector->spec().action.describe() == "Box(2x2)");
    CHECK(vector->spec().action.low == std::vector<double>(4, -1.0));
    CHECK(vector->spec().max_episode_steps == 0);
    std::vector<std::uint64_t> seeds = {7, 8, 9};
    std::vector<float> obs(12), final_obs(12);
    vector->reset(seeds.data(), obs.data());
    CHECK(obs == std::vector<float>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
    std::vector<float> actions = {0.1f, 0.2f, 0.3f, 0.4f, -1, -1, 1, 1, 0.5f, 0, 0, 0};
    std::vector<step_result> results(3);
    vector->step(actions.data(), nullptr, obs.data(), results.data(), final_obs.data());
    CHECK(obs == actions);  // float32 -> float64 -> float32 is exact
    CHECK(results[0].reward == doctest::Approx(1.0));
    CHECK(results[1].reward == 0.0);
    CHECK(results[2].reward == 0.5);
    std::vector<float> one(4);
    vector->reset_one(1, 12, one.data());
    CHECK(one == std::vector<float>{5, 5, 5, 5});
  }
  // env.observe selects from a Python environment's observations too.
  {
    env_config config = python_config("python:test_envs:echo", marker);
    config.observe = {3, 0};
    auto vector = make_env_vector(config, 1);
    CHECK(vector->spec().observation.describe() == "Box(2)");
    std::uint64_t seed = 0;
    std::vector<float> obs(2), final_obs(2);
    vector->reset(&seed, obs.data());
    const std::vector<float> action = {0.1f, 0.2f, 0.3f, 0.4f};
    step_result result;
    vector->step(action.data(), nullptr, obs.data(), &result, final_obs.data());
    CHECK(obs == std::vector<float>{0.4f, 0.1f});
  }
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python bridge: a Discrete observation arrives one-hot; Discrete actions get the space's start") {
  const std::string marker = host_marker("rooms");
  {
    auto vector = make_env_vector(python_config("python:test_envs:rooms", marker, R"({"n": 4, "start": 1})"), 2);
    CHECK(vector->spec().observation.describe() == "Box(4)");
    CHECK(vector->spec().action.describe() == "Discrete(4)");
    std::vector<std::uint64_t> seeds = {2, 5};  // rooms start + 2 and start + 1
    std::vector<float> obs(8), final_obs(8);
    vector->reset(seeds.data(), obs.data());
    CHECK(obs == std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0});
    std::vector<float> actions = {3, 0};
    std::vector<step_result> results(2);
    vector->step(actions.data(), nullptr, obs.data(), results.data(), final_obs.data());
    CHECK(obs == std::vector<float>{0, 0, 0, 1, 1, 0, 0, 0});
  }
  // A Discrete action with a start: the Signal env pays 1 for start + goal.
  {
    auto vector = make_env_vector(python_config("python:test_envs:signal_env", marker, R"({"start": 5})"), 1);
    std::uint64_t seed = 3;
    std::vector<float> obs(2), final_obs(2);
    vector->reset(&seed, obs.data());
    const float right = obs[1] > 0.5f ? 1.f : 0.f;  // the index Troupe's policy picks
    step_result result;
    vector->step(&right, nullptr, obs.data(), &result, final_obs.data());
    CHECK(result.reward == 1.0);
  }
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python bridge: rendering needs render_mode rgb_array; frames come back whole") {
  const std::string marker = host_marker("render");
  {
    auto plain = make_env_vector(python_config("python:cartpole_py:make", marker), 1);
    CHECK_FALSE(plain->can_render());
    rgb_frame frame;
    CHECK_FALSE(plain->render(0, frame));
    auto drawing = make_env_vector(
        python_config("python:cartpole_py:make", marker, R"({"render_mode": "rgb_array"})"), 2);
    REQUIRE(drawing->can_render());
    std::vector<std::uint64_t> seeds = {1, 2};
    std::vector<float> obs(8);
    drawing->reset(seeds.data(), obs.data());
    REQUIRE(drawing->render(1, frame));
    CHECK(frame.width == 600);
    CHECK(frame.height == 400);
    CHECK(frame.pixels.size() == 600u * 400u * 3u);
    CHECK(frame.pixels[0] == 255);  // white sky
    // Through the single-env view too (troupe view, play).
    vector_as_env single(make_env_vector(
        python_config("python:cartpole_py:make", marker, R"({"render_mode": "rgb_array"})"), 1));
    CHECK(drawable(single) != nullptr);
  }
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python bridge: an exception in the environment throws with its Python traceback") {
  const std::string marker = host_marker("raise");
  {
    auto vector = make_env_vector(
        python_config("python:test_envs:signal_env", marker, R"({"fail": "raise", "after": 5})"), 4);
    std::vector<std::uint64_t> seeds = {1, 2, 3, 4};
    std::vector<float> obs(8);
    vector->reset(seeds.data(), obs.data());
    const step_failure f = step_until_it_throws(*vector, 20);
    INFO(f.message);
    CHECK(f.message.find("raised an exception while stepping") != std::string::npos);
    CHECK(f.message.find("Traceback (most recent call last)") != std::string::npos);
    CHECK(f.message.find("test_envs.py") != std::string::npos);
    CHECK(f.message.find("RuntimeError: raised on purpose by the test environment") != std::string::npos);
    CHECK(f.message.find("troupe_env_host.py") == std::string::npos);  // only the user's frames
  }
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python bridge: a host that exits, segfaults or is SIGKILLed is seen at once") {
  for (const std::string how : {"exit", "segfault", "sigkill"}) {
    CAPTURE(how);
    const std::string marker = host_marker("die_" + how);
    {
      const std::string kwargs = how == "sigkill" ? "{}" : R"({"fail": ")" + how + R"(", "after": 5})";
      env_config config = python_config("python:test_envs:signal_env", marker, kwargs);
      config.processes_per_agent = 2;
      auto vector = make_env_vector(config, 4);
      std::vector<std::uint64_t> seeds = {1, 2, 3, 4};
      std::vector<float> obs(8);
      vector->reset(seeds.data(), obs.data());
      if (how == "sigkill") {
        const auto hosts = host_processes(marker);
        REQUIRE(hosts.size() == 2);
        kill(hosts[1], SIGKILL);
      }
      const step_failure f = step_until_it_throws(*vector, 20);
      INFO(f.message);
      CHECK(f.seconds < 1.0);
      const std::string expected = how == "exit"       ? "exited with code 3"
                                   : how == "segfault" ? "killed by signal 11"
                                                       : "killed by signal 9";
      CHECK(f.message.find(expected) != std::string::npos);
      CHECK(f.message.find("Python environment host") != std::string::npos);
    }
    CHECK(hosts_left(marker).empty());
  }
}

TEST_CASE("python bridge: what cannot be made is an env_key_error that says why") {
  const std::string marker = host_marker("refused");
  struct bad {
    std::string id, kwargs;
    std::vector<std::string> must_contain;
  };
  const std::vector<bad> cases = {
      {"python:no_such_module_here:make", "{}",
       {"cannot import module 'no_such_module_here'", "ModuleNotFoundError", "env.python_path"}},
      {"python:broken_import:make", "{}",
       {"No module named 'troupe_test_missing_dependency'", "broken_import.py", "line 3"}},
      {"python:test_envs:no_such_callable", "{}",
       {"module 'test_envs'", "no attribute 'no_such_callable'"}},
      {"python:test_envs:not_callable", "{}", {"not callable"}},
      {"python:test_envs:raising_constructor", "{}",
       {"ValueError: this constructor refuses on purpose", "test_envs.py"}},
      {"python:test_envs:text_in_observation", "{}",
       {"unsupported space at observation['name'][1]: Text(8)", "Dict or Tuple of these"}},
      {"python:test_envs:signal_env", R"({"no_such_option": 1})", {"TypeError", "no_such_option"}},
      {"gymnasium:CartPole-v1", "{}", {"cannot import gymnasium", "No module named 'gymnasium'"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.id);
    const std::string message = creation_error(python_config(c.id, marker, c.kwargs));
    INFO(message);
    CHECK(message.find(c.id) != std::string::npos);
    for (const auto& part : c.must_contain) CHECK(message.find(part) != std::string::npos);
  }
  // The host's own failures come as codes, each explained for what it is.
  env_config without_numpy = python_config("python:test_envs:signal_env", marker);
  without_numpy.python_path.insert(without_numpy.python_path.begin(), test_envs_dir + "/no_numpy");
  const std::string numpy_message = creation_error(without_numpy);
  INFO(numpy_message);
  CHECK(numpy_message.find("the environment host needs numpy") != std::string::npos);
  CHECK(creation_error(python_config("python:no_such_module_here:make", marker)).find("(interpreter ") !=
        std::string::npos);
  env_config no_python = python_config("python:test_envs:signal_env", marker);
  no_python.python = "/nonexistent/python3";
  CHECK(creation_error(no_python).find("cannot start") != std::string::npos);
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python bridge: gymnasium:ENV_ID calls gymnasium.make(ENV_ID, **kwargs)") {
  // Debian has no gymnasium: a stand-in package on env.python_path.
  const std::string marker = host_marker("gymnasium");
  env_config config = python_config("gymnasium:Signal-v0", marker, R"({"length": 7, "start": 2})");
  config.python_path.insert(config.python_path.begin(), test_envs_dir + "/fake_gymnasium");
  {
    const env_spec spec = spec_of(config);
    CHECK(spec.id == "gymnasium:Signal-v0");
    CHECK(spec.max_episode_steps == 7);  // the length it was made with
    CHECK(spec.action.describe() == "Discrete(2)");
    config.id = "gymnasium:Other-v0";
    CHECK(creation_error(config).find("only Signal-v0") != std::string::npos);
  }
  CHECK(hosts_left(marker).empty());
}
}

TEST_SUITE("bridges") {
TEST_CASE("python bridge: info['action_mask'] is the environments' action mask, checked as it crosses") {
  const std::string marker = host_marker("masks");
  env_config config = python_config("python:test_envs:LegalMoves", marker);
  {
    auto v = make_env_vector(config, 3);
    REQUIRE(v->spec().has_action_mask);
    // The observation shows the legal set: after the reset and every step
    // (resets within a step included), the masks are the observations.
    std::vector<float> obs(15), final_obs(15), actions(3);
    std::vector<std::uint8_t> masks(15);
    std::vector<std::uint64_t> seeds = {1, 2, 3};
    std::vector<step_result> results(3);
    v->reset(seeds.data(), obs.data());
    for (int t = 0; t < 45; ++t) {
      v->action_masks(masks.data());
      for (int i = 0; i < 15; ++i) CHECK(float(masks[size_t(i)]) == obs[size_t(i)]);
      for (int e = 0; e < 3; ++e) {  // the highest legal action: legal, and rewarded
        int a = 4;
        while (!masks[size_t(e * 5 + a)]) --a;
        actions[size_t(e)] = float(a);
      }
      v->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
      for (const auto& r : results) CHECK(r.reward == 1.0);
    }
  }
  // Turned off, or asked of an environment that gives none.
  config.action_mask = "none";
  CHECK_FALSE(make_env_vector(config, 1)->spec().has_action_mask);
  env_config signal = python_config("python:test_envs:Signal", marker);
  CHECK_FALSE(make_env_vector(signal, 1)->spec().has_action_mask);
  signal.action_mask = "info";
  CHECK(creation_error(signal).find("env.action_mask is info, but the info of reset(seed=0) has no 'action_mask'") !=
        std::string::npos);
  // A bad mask is the environment's fault, said with where it happened.
  for (const auto& [bad, text] : {std::pair<std::string, std::string>{"short", "expected 5 values of 0 or 1"},
                                  {"none_legal", "allows no action"},
                                  {"two", "expected 5 values of 0 or 1"}}) {
    CAPTURE(bad);
    env_config broken = python_config("python:test_envs:LegalMoves", marker, "{\"bad\": \"" + bad + "\"}");
    auto v = make_env_vector(broken, 1);
    std::vector<float> obs(5);
    std::uint64_t seed = 4;
    v->reset(&seed, obs.data());
    std::vector<std::uint8_t> mask(5);
    std::string error;
    for (int t = 0; t < 5 && error.empty(); ++t) {
      v->action_masks(mask.data());
      int a = 0;
      while (!mask[size_t(a)]) ++a;
      const float action = float(a);
      std::vector<float> final_obs(5);
      step_result r;
      try {
        v->step(&action, &seed, obs.data(), &r, final_obs.data());
      } catch (const std::runtime_error& e) {
        error = e.what();
      }
    }
    CHECK(error.find("environment 0, step 3 of its episode") != std::string::npos);
    CHECK(error.find(text) != std::string::npos);
  }
  CHECK(hosts_left(marker).empty());
}
}

TEST_SUITE("bridges") {
TEST_CASE("python bridge: every space kind crosses exactly (Dict, Tuple, MultiDiscrete, MultiBinary; int8, uint8, float64 leaves)") {
  const std::string marker = host_marker("spaces");
  {
    auto v = make_env_vector(python_config("python:test_envs:spaces_env", marker), 2);
    const env_spec& spec = v->spec();
    // The observation: the leaves in order, Discrete and MultiDiscrete one-hot.
    CHECK(spec.observation.describe() ==
          "Box(20) from Dict(a: Tuple(Discrete(3, start=1), MultiBinary(2)), i8: Box(2), u8: Box(1), "
          "f64: Box(2), md: MultiDiscrete([2 3]), echo: Box(5))");
    // The action: one index per component, in order.
    CHECK(spec.action.describe() ==
          "MultiDiscrete([2 2 2 3 2]) from Tuple(Discrete(2), MultiBinary(2), Dict(x: MultiDiscrete([3 2])))");
    REQUIRE(spec.observation.flat_size() == 20);
    REQUIRE(spec.action.flat_size() == 5);
    CHECK(spec.observation.low[3] == 0.0);  // a MultiBinary element
    CHECK(spec.observation.high[3] == 1.0);
    CHECK(spec.observation.low[5] == -128.0);  // the int8 Box
    CHECK(spec.observation.high[7] == 255.0);  // the uint8 Box
    CHECK_FALSE(spec.has_action_mask);
    // What Spaces observes at step t, as Troupe reads it.
    const auto expected = [](int t, std::vector<float> echo) {
      std::vector<float> row(20, 0.f);
      row[size_t(t % 3)] = 1;                      // Discrete(3, start=1) holding 1 + t % 3
      row[3] = float(t % 2);                       // MultiBinary(2)
      row[4] = 1;
      row[5] = float(std::int8_t(-t));             // int8
      row[6] = float(std::int8_t(t));
      row[7] = 200;                                // uint8
      row[8] = 0.5f;                               // float64
      row[9] = -0.25f;
      row[10 + size_t(t % 2)] = 1;                 // MultiDiscrete component 0 (2 choices)
      row[12 + size_t(t % 3)] = 1;                 // component 1 (3 choices, start 5)
      std::copy(echo.begin(), echo.end(), row.begin() + 15);
      return row;
    };
    std::vector<float> obs(40), final_obs(40);
    std::vector<std::uint64_t> seeds = {1, 2};
    v->reset(seeds.data(), obs.data());
    const std::vector<float> none(5, -1.f);
    CHECK(std::vector<float>(obs.begin(), obs.begin() + 20) == expected(0, none));
    CHECK(std::vector<float>(obs.begin() + 20, obs.end()) == expected(0, none));
    // Actions cross as the space's values (Spaces raises on a wrong type) and
    // come back in the echo.
    std::vector<float> actions = {1, 0, 1, 2, 1,  /**/ 0, 1, 1, 0, 0};
    std::vector<step_result> results(2);
    for (int t = 1; t <= 3; ++t) {
      v->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
      CHECK(std::vector<float>(obs.begin(), obs.begin() + 20) ==
            expected(t, {actions[0], actions[1], actions[2], actions[3], actions[4]}));
      CHECK(std::vector<float>(obs.begin() + 20, obs.end()) ==
            expected(t, {actions[5], actions[6], actions[7], actions[8], actions[9]}));
      std::swap_ranges(actions.begin(), actions.begin() + 5, actions.begin() + 5);
    }
    // The episode's end: the final observation is step 4's, the row the reset's.
    v->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
    CHECK(results[0].truncated);
    CHECK(std::vector<float>(final_obs.begin(), final_obs.begin() + 20) ==
          expected(4, {actions[0], actions[1], actions[2], actions[3], actions[4]}));
    CHECK(std::vector<float>(obs.begin(), obs.begin() + 20) == expected(0, none));
  }
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python bridge: a hybrid action (a Box beside a Discrete in a Tuple) arrives as the space's own values") {
  // tests/bridges/python/test_envs.py's Aim: action Tuple(Dict{aim: Box(1)},
  // Discrete(3)), the Box first; Troupe's row is the index, then the value.
  // Aim raises on a value of the wrong type, shape or range, and echoes
  // (choice, aim) in its next observation.
  const std::string marker = host_marker("aim");
  {
    auto v = make_env_vector(python_config("python:test_envs:aim", marker), 2);
    const env_spec& spec = v->spec();
    REQUIRE(spec.has_action_mask);
    CHECK(spec.action.describe() == "MultiDiscrete([3]) + Box(1) from Tuple(Dict(aim: Box(1)), Discrete(3))");
    REQUIRE(spec.action.type == space::kind::hybrid);
    CHECK(spec.action.flat_size() == 2);
    CHECK(spec.action.choice_count() == 3);
    CHECK(spec.action.low == std::vector<double>{-1.0});
    CHECK(spec.action.high == std::vector<double>{1.0});
    CHECK(spec.observation.describe() == "Box(5) from Dict(target: Discrete(3), echo: Box(2), action_mask: MultiBinary(3))");
    std::vector<float> obs(10), final_obs(10), actions(4);
    std::vector<std::uint8_t> masks(6);
    std::vector<std::uint64_t> seeds = {4, 5};
    std::vector<step_result> results(2);
    v->reset(seeds.data(), obs.data());
    CHECK(obs[3] == -2.f);  // no action yet
    const float centres[3] = {-0.6f, 0.f, 0.6f};
    double reward = 0;
    for (int t = 0; t < 9; ++t) {
      v->action_masks(masks.data());
      for (int e = 0; e < 2; ++e) {
        const float* row = &obs[size_t(e) * 5];
        const int target = int(std::find(row, row + 3, 1.f) - row);
        REQUIRE(target < 3);
        CHECK(masks[size_t(e) * 3 + size_t(target)] == 1);
        actions[size_t(e) * 2] = float(target);
        actions[size_t(e) * 2 + 1] = centres[target] + (e == 0 ? 0.25f : 0.f);
      }
      const std::vector<float> sent = actions;
      v->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
      for (int e = 0; e < 2; ++e) {
        CHECK(obs[size_t(e) * 5 + 3] == sent[size_t(e) * 2]);  // the choice, as an int
        CHECK(obs[size_t(e) * 5 + 4] == sent[size_t(e) * 2 + 1]);  // the aim, as float32
      }
      for (const auto& r : results) reward += r.reward;
    }
    CHECK(reward == doctest::Approx(9 * (0.75 + 1.0)));
  }
  CHECK(hosts_left(marker).empty());
}

TEST_CASE("python bridge: a Dict observation's action_mask key is the mask of MultiDiscrete actions, and no input") {
  const std::string marker = host_marker("routing");
  env_config config = python_config("python:test_envs:routing", marker);
  {
    auto v = make_env_vector(config, 3);
    const env_spec& spec = v->spec();
    REQUIRE(spec.has_action_mask);
    CHECK(spec.observation.describe() ==
          "Box(9) from Dict(target: Discrete(4), flags: MultiBinary(3), noise: Box(2), action_mask: MultiBinary(7))");
    CHECK(spec.action.describe() == "MultiDiscrete([4 3])");
    CHECK(spec.action.choice_count() == 7);
    std::vector<float> obs(27), final_obs(27), actions(6);
    std::vector<std::uint8_t> masks(21);
    std::vector<std::uint64_t> seeds = {1, 2, 3};
    std::vector<step_result> results(3);
    v->reset(seeds.data(), obs.data());
    double reward = 0;
    for (int t = 0; t < 30; ++t) {
      v->action_masks(masks.data());
      for (int e = 0; e < 3; ++e) {
        const float* row = &obs[size_t(e) * 9];
        const std::uint8_t* legal = &masks[size_t(e) * 7];
        const int target = int(std::find(row, row + 4, 1.f) - row);
        CHECK(legal[target] == 1);  // the target is always legal
        const int answer = int(row[4] + row[5] + row[6]) % 3;
        CHECK(legal[4 + answer] == 1);
        CHECK(std::count(legal + 4, legal + 7, 1) == 2);  // one wrong choice hidden
        actions[size_t(e) * 2] = float(target);
        actions[size_t(e) * 2 + 1] = float(answer);
      }
      v->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
      for (const auto& r : results) reward += r.reward;
    }
    CHECK(reward == 90.0);  // every choice right, none masked (Routing raises on one)
  }
  config.action_mask = "info";  // the key is still taken out, but no mask: refused
  CHECK(creation_error(config).find("env.action_mask is info, but the info of reset(seed=0) has no 'action_mask'") !=
        std::string::npos);
  env_config signal = python_config("python:test_envs:Signal", marker);
  signal.action_mask = "observation";
  CHECK(creation_error(signal).find("env.action_mask is observation, but the observation space Box(2) is not a Dict "
                                    "with an 'action_mask' key") != std::string::npos);
  for (const auto& [bad, text] :
       {std::pair<std::string, std::string>{"short", "observation['action_mask'] is"},
        {"none_legal", "observation['action_mask'] allows no action for component 1"}}) {
    CAPTURE(bad);
    auto v = make_env_vector(python_config("python:test_envs:routing", marker, "{\"bad\": \"" + bad + "\"}"), 1);
    std::vector<float> obs(9), final_obs(9), action(2);
    std::vector<std::uint8_t> mask(7);
    std::uint64_t seed = 4;
    v->reset(&seed, obs.data());
    std::string error;
    for (int t = 0; t < 5 && error.empty(); ++t) {
      v->action_masks(mask.data());
      action[0] = float(std::find(mask.begin(), mask.begin() + 4, 1) - mask.begin());
      action[1] = float(std::find(mask.begin() + 4, mask.end(), 1) - (mask.begin() + 4));
      step_result r;
      try {
        v->step(action.data(), &seed, obs.data(), &r, final_obs.data());
      } catch (const std::runtime_error& e) {
        error = e.what();
      }
    }
    INFO(error);
    CHECK(error.find("environment 0, step 3 of its episode") != std::string::npos);
    CHECK(error.find(text) != std::string::npos);
  }
  CHECK(hosts_left(marker).empty());
}
}
