// End-to-end: an environment with an action mask (Example/LegalMoves-v0,
// which throws on an illegal action) trains, evaluates and rolls out
// without a masked action ever reaching it.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <torch/script.h>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"
#include "tests/python_torch.hpp"

using namespace troupe::tests;

namespace {

// Trains tests/bridges/python/test_envs.py's `name` (a 10-step environment
// that raises on a masked choice) with PPO until a mean of `target` is
// confirmed by 100 fresh episodes, with no agent restart; its greedy eval
// over 200 episodes must reach `greedy_bar`. Then the export plays other
// episodes in PyTorch alone (tests/e2e/play_exported.py), where
// /usr/bin/python3 has torch: never a masked choice, and the same greedy
// policy's mean within 0.3 of the eval's.
void train_export_and_play(const std::string& name, double target, long env_steps, double greedy_bar) {
  const std::string source = TROUPE_SOURCE_DIR;
  const std::string dir = fresh_dir(name);
  const std::string config = dir + ".yaml";
  std::ofstream(config) << masked_test_env_config(name, target, env_steps, source + "/tests/bridges/python, " + source +
                                                                           "/examples/python_env");
  const auto s = train_and_summarise(config, dir);
  CHECK(s["solved"] == true);
  CHECK(s["agent_restarts"] == 0);  // no masked choice reached the environment
  const auto e = run_troupe("eval " + dir + " --episodes 200 --greedy --json " + dir + "/eval.json");
  INFO(e.output);
  REQUIRE(e.exit_code == 0);
  const double troupe_return = read_json(dir + "/eval.json")["return_mean"].get<double>();
  CHECK(troupe_return >= greedy_bar);
  // The exported module takes the observation dict as it is.
  const std::string policy = dir + "/" + name + ".pt";
  const auto x = run_troupe("export " + dir + " --out " + policy);
  INFO(x.output);
  REQUIRE(x.exit_code == 0);
  if (!troupe::tests::python_has_torch()) {
    MESSAGE("the Python half is skipped: /usr/bin/python3 has no torch (apt-get install python3-torch)");
    return;
  }
  const auto played =
      run_command("/usr/bin/python3 " + source + "/tests/e2e/play_exported.py " + name + " " + policy + " 200");
  INFO(played.output);
  REQUIRE(played.exit_code == 0);  // it raised on no masked choice
  const size_t at = played.output.find("mean_return ");
  REQUIRE(at != std::string::npos);
  CHECK(std::abs(std::stod(played.output.substr(at + 12)) - troupe_return) < 0.3);
}

}  // namespace

TEST_SUITE("e2e") {
TEST_CASE("action masks: Example/LegalMoves-v0 learns with A3C and PPO, and no masked action reaches it") {
  const std::string config = std::string(TROUPE_SOURCE_DIR) + "/configs/example_legal_moves.yaml";
  for (const std::string algo : {"a3c", "ppo"}) {
    CAPTURE(algo);
    const std::string dir = fresh_dir("legal_moves_" + algo);
    const auto r = run_troupe("train " + config + " --run-dir " + dir + " --set algo.kind=" + algo +
                              " --set log.progress=false");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto s = read_json(dir + "/summary.json");
    CHECK(s["solved"] == true);
    // An illegal action makes the environment throw: its agent would fail
    // and be restarted.
    CHECK(s["agent_restarts"] == 0);
    CHECK(s["samples_collected"].get<long>() ==
          s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
    // A random legal policy scores about 9.5, the best 20.
    const auto e = run_troupe("eval " + dir + " --episodes 200 --greedy --json " + dir + "/eval.json");
    INFO(e.output);
    REQUIRE(e.exit_code == 0);
    CHECK(read_json(dir + "/eval.json")["return_mean"].get<double>() >= 19.5);
  }
  const auto rollout = run_troupe("rollout Example/LegalMoves-v0 --policy random --episodes 50");
  INFO(rollout.output);
  CHECK(rollout.exit_code == 0);
}

TEST_CASE("action masks: a Python environment's info['action_mask'] trains the same way") {
  // tests/bridges/python/test_envs.py's LegalMoves raises on an illegal action.
  const std::string source = TROUPE_SOURCE_DIR;
  const std::string dir = fresh_dir("legal_moves_python");
  const auto r = run_troupe("train " + source + "/configs/example_legal_moves.yaml --run-dir " + dir +
                            " --set env.id=python:test_envs:LegalMoves --set env.python_path=[" +
                            source + "/tests/bridges/python," + source + "/examples/python_env]" +
                            " --set env.envs_per_agent=16 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto s = read_json(dir + "/summary.json");
  CHECK(s["solved"] == true);
  CHECK(s["agent_restarts"] == 0);
  // A mask that breaks is a failing environment: its agent restarts, the
  // run goes on, and the message says where.
  const std::string broken = fresh_dir("legal_moves_broken");
  const auto b = run_troupe("train " + source + "/configs/example_legal_moves.yaml --run-dir " + broken +
                            " --set env.id=python:test_envs:LegalMoves --set env.python_path=[" +
                            source + "/tests/bridges/python," + source + "/examples/python_env]" +
                            " --set 'env.kwargs={bad: none_legal}' --set env.envs_per_agent=2" +
                            " --set agents.max_restarts=3 --set log.progress=false");
  CHECK(b.exit_code == 1);  // more failures than agents.max_restarts: a failed run
  CHECK(b.output.find("info['action_mask'] allows no action") != std::string::npos);
}
}

TEST_SUITE("e2e") {
TEST_CASE("structured spaces: a Dict observation with a mask key and MultiDiscrete actions learns, and its export plays in Python's torch") {
  // tests/bridges/python/test_envs.py's Routing: a random legal policy scores
  // about 4.7 of 10, the best 10; a masked choice of either component raises.
  train_export_and_play("routing", 9.0, 2000000, 9.0);
}

TEST_CASE("hybrid actions: a masked choice with a Box parameter learns, evaluates greedily and plays exported in Python's torch") {
  // tests/bridges/python/test_envs.py's Aim: the right one of three choices
  // (one wrong one masked) earns 1 - |aim - its centre|; a uniformly random
  // legal policy scores about 1.9 of 10, the best 10; a masked choice or an
  // aim out of bounds raises.
  train_export_and_play("aim", 8.5, 3000000, 9.0);
}
}

TEST_SUITE("e2e") {
TEST_CASE("structured spaces: an image inside a Dict observation is read by a convolution of its own, and learns") {
  // tests/bridges/python/test_envs.py's Glimpse: a random policy scores 5 of
  // 10, one that reads the image 10.
  const std::string source = TROUPE_SOURCE_DIR;
  const std::string dir = fresh_dir("glimpse");
  const std::string python_path = " --set env.python_path=[" + source + "/tests/bridges/python," + source +
                                  "/examples/python_env]";
  const auto described = run_troupe("envs --describe python:test_envs:glimpse" + python_path);
  INFO(described.output);
  CHECK(contains(described.output, "observation Box(61) from Dict(view: Box(5x5x2), clock: Discrete(11))"));
  const auto r = run_troupe("train " + source + "/configs/example_legal_moves.yaml --run-dir " + dir +
                            " --set env.id=python:test_envs:glimpse" + python_path +
                            " --set env.envs_per_agent=16 --set run.stop.mean_return=9.5 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_json(dir + "/summary.json")["solved"] == true);
  // Read as plain values instead, by the key troupe envs --describe names.
  const auto flat = run_troupe("train " + source + "/configs/example_legal_moves.yaml --run-dir " + dir + "_flat" +
                               " --set env.id=python:test_envs:glimpse" + python_path +
                               " --set model.encoders.view=flat --set model.encoders.clock=cnn" +
                               " --set env.envs_per_agent=16 --set log.progress=false");
  CHECK(flat.exit_code == 2);
  CHECK(contains(flat.output, "model.encoders.clock: cnn reads an image"));
  // The same view in PyTorch's channels-first layout (2 x 5 x 5) learns as
  // well; read channels last it would be 2 rows high, which is refused.
  const std::string chw = " --set env.id=python:test_envs:glimpse_channels_first" + python_path;
  const auto first = run_troupe("train " + source + "/configs/example_legal_moves.yaml --run-dir " + dir + "_chw" + chw +
                                " --set env.envs_per_agent=16 --set run.stop.mean_return=9.5 --set log.progress=false");
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  CHECK(read_json(dir + "_chw/summary.json")["solved"] == true);
  const auto last = run_troupe("train " + source + "/configs/example_legal_moves.yaml --run-dir " + dir + "_hwc" + chw +
                               " --set model.image_layout=hwc --set log.progress=false");
  CHECK(last.exit_code == 2);
  CHECK(contains(last.output, "model.encoders.view: python:test_envs:glimpse_channels_first's observation 'view' is a 2 x 5 x 5 image, read as H x W x C (model.image_layout hwc)"));
}
}

TEST_SUITE("e2e") {
TEST_CASE("structured spaces: a native environment's declared leaves train, and its export takes them as a dict") {
  // Example/Courier-v0 throws on a masked kind: its agent would restart.
  const std::string dir = fresh_dir("courier");
  const auto s =
      train_and_summarise(std::string(TROUPE_SOURCE_DIR) + "/configs/example_courier.yaml --set log.progress=false", dir);
  CHECK(s["solved"] == true);
  CHECK(s["agent_restarts"] == 0);
  const std::string policy = dir + "/courier.pt";
  const auto x = run_troupe("export " + dir + " --out " + policy);
  INFO(x.output);
  REQUIRE(x.exit_code == 0);
  torch::jit::Module module = torch::jit::load(policy);
  const auto keys = module.attr("observation_keys").toList();
  REQUIRE(keys.size() == 2);
  CHECK(keys.get(0).toStringRef() == "map");
  CHECK(keys.get(1).toStringRef() == "parcel");
  // A lit cell right of the middle, parcel kind 2, kind 0 masked: the
  // greedy action is (1, 2) for a policy that solved the task.
  c10::Dict<std::string, torch::Tensor> obs;
  torch::Tensor map = torch::zeros({1, 5, 5, 1});
  map[0][2][4][0] = 1.f;
  obs.insert("map", map);
  obs.insert("parcel", torch::tensor({2}));
  const torch::Tensor mask = torch::tensor({{1, 1, 0, 1, 1}}, torch::kUInt8);
  const torch::Tensor logits = module.forward({obs, mask}).toTuple()->elements()[0].toTensor();
  REQUIRE(logits.size(1) == 5);
  CHECK(logits[0].narrow(0, 0, 2).argmax().item<int64_t>() == 1);
  CHECK(logits[0].narrow(0, 2, 3).argmax().item<int64_t>() == 2);
  CHECK(logits[0][2].item<float>() == -1e9f);  // the masked kind
}
}

TEST_SUITE("e2e") {
TEST_CASE("hybrid actions: a native environment's bow and draw train from their config, and greedy play is near the best") {
  // Example/Archer-v0 throws on a broken bow or a draw outside [-1, 1]: its
  // agent would restart. Its best policy scores about 8.6 of 10, a random
  // legal one about 2.9.
  const std::string dir = fresh_dir("archer");
  const auto s =
      train_and_summarise(std::string(TROUPE_SOURCE_DIR) + "/configs/example_archer.yaml --set log.progress=false", dir);
  CHECK(s["solved"] == true);
  CHECK(s["agent_restarts"] == 0);
  const auto e = run_troupe("eval " + dir + " --episodes 300 --greedy --json " + dir + "/eval.json");
  INFO(e.output);
  REQUIRE(e.exit_code == 0);
  CHECK(read_json(dir + "/eval.json")["return_mean"].get<double>() >= 7.8);
}
}

