// `troupe export`'s module, loaded by LibTorch's TorchScript loader alone (no
// Troupe model code): for a batch of observations it gives the distribution
// parameters and values of Troupe's own forward pass on the same parameters,
// for every kind of network, carrying recurrent states over several steps;
// and the same in Python's torch, where Debian's python3-torch is installed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>
#include <torch/script.h>

#include "algo/action_mask.hpp"
#include "include/troupe/policy.hpp"
#include "model/policy_export.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/temp_files.hpp"
#include "tests/torch_checks.hpp"
#include "tests/python_torch.hpp"

using namespace troupe;
using namespace troupe::model;

namespace {

struct network_case {
  std::string name;
  net_spec spec;
  std::vector<int> observation_shape;  // the environment's, before `observe`
  std::vector<int> observe;
};

std::vector<network_case> cases() {
  std::vector<network_case> out;
  net_spec mlp = mlp_spec(4, 2, {16, 16});
  out.push_back({"mlp", mlp, {4}, {}});
  net_spec relu = mlp_spec(2, 3, {8});
  relu.activation = "relu";
  relu.shared_trunk = false;
  relu.normalize.observation = true;
  out.push_back({"relu, own value trunk, normalised, observe", relu, {5}, {4, 1}});
  net_spec cnn = mlp_spec(10 * 10 * 4, 3, {32});
  cnn.kind = "cnn";
  cnn.obs_shape = {10, 10, 4};
  cnn.normalize.observation = true;
  out.push_back({"cnn", cnn, {10, 10, 4}, {}});
  net_spec cnn_chw = cnn;  // channels first: C x H x W
  cnn_chw.obs_shape = {2, 6, 5};
  cnn_chw.obs_size = 60;
  cnn_chw.obs_channels_first = true;
  out.push_back({"cnn, channels first", cnn_chw, {2, 6, 5}, {}});
  for (const std::string core : {"lstm", "gru"}) {
    net_spec rec = mlp_spec(2, 2, {16});
    rec.recurrent.kind = core;
    rec.recurrent.size = 8;
    rec.normalize.observation = true;
    out.push_back({core, rec, {4}, {0, 2}});
  }
  // A structured observation's image (the first 50 of 54 values) read by a
  // convolution of its own, the other 4 as they are.
  net_spec images = mlp_spec(54, 2, {16});
  images.image_inputs = {{0, {5, 5, 2}}};
  images.normalize.observation = true;
  out.push_back({"an image leaf, its own convolution", images, {54}, {}});
  net_spec images_chw = images;
  images_chw.image_inputs = {{0, {2, 5, 5}, true}};
  out.push_back({"an image leaf channels first", images_chw, {54}, {}});
  net_spec gaussian = mlp_spec(3, 2, {16});
  gaussian.continuous = true;
  gaussian.log_std_init = -0.5;
  out.push_back({"gaussian", gaussian, {3}, {}});
  // A hybrid action: Discrete(2) and Discrete(3) components, then a Box(2).
  net_spec hybrid = mlp_spec(3, 7, {16});
  hybrid.action_heads = {2, 3};
  hybrid.gaussian_size = 2;
  hybrid.log_std_init = -0.25;
  out.push_back({"hybrid", hybrid, {3}, {}});
  return out;
}

// Rows of the environment's raw observations, and what Troupe's network
// sees of them (the `observe` elements).
std::vector<float> raw_rows(int rows, int size, std::mt19937_64& rng) {
  std::normal_distribution<float> normal(0.5f, 3.0f);
  std::vector<float> out;
  for (int i = 0; i < rows * size; ++i) out.push_back(normal(rng));
  return out;
}
std::vector<float> observed(const std::vector<float>& raw, int rows, int size, const std::vector<int>& keep) {
  if (keep.empty()) return raw;
  std::vector<float> out;
  for (int r = 0; r < rows; ++r)
    for (int j : keep) out.push_back(raw[size_t(r) * size + j]);
  return out;
}

// Python's torch loads each module and checks its outputs against those
// recorded for it (tests/model/check_exported.py), all in one process;
// `name` names the files.
void check_in_python(const std::string& name, const std::vector<std::pair<std::string, nlohmann::json>>& policies) {
  std::string args;
  for (size_t i = 0; i < policies.size(); ++i) {
    const std::string json_path = troupe::tests::temp_file("troupe_policy_export_test", name + "_" + std::to_string(i) + ".json");
    std::ofstream(json_path) << policies[i].second.dump();
    args += " " + policies[i].first + " " + json_path;
  }
  const std::string log_path = troupe::tests::temp_file("troupe_policy_export_test", name + ".log");
  const int status = std::system(("/usr/bin/python3 " + std::string(TROUPE_SOURCE_DIR) +
                                  "/tests/model/check_exported.py" + args + " > " + log_path + " 2>&1").c_str());
  std::ifstream log(log_path);
  const std::string said((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  INFO(said);
  CHECK(status == 0);
}

}  // namespace

TEST_SUITE("model") {
TEST_CASE("an exported policy gives Troupe's own outputs, in LibTorch's loader and in Python's torch") {
  const bool python = troupe::tests::python_has_torch();
  if (!python) MESSAGE("the Python check is skipped: /usr/bin/python3 has no torch (apt-get install python3-torch)");
  std::vector<std::pair<std::string, nlohmann::json>> for_python;
  for (const auto& c : cases()) {
    CAPTURE(c.name);
    auto m = make_shared_model(c.spec, 7);
    // Statistics far from the defaults, so that a module that skipped the
    // normalisation would be caught.
    std::mt19937_64 rng(3);
    if (c.spec.normalize.observation) {
      const auto seen = raw_rows(200, c.spec.obs_size, rng);
      fold_observations(*m, seen.data(), 200);
    }
    int raw_size = 1;
    for (int d : c.observation_shape) raw_size *= d;
    policy_metadata meta;
    meta.env_id = "test";
    meta.observation_shape = c.observation_shape;
    meta.observe = c.observe;
    if (c.spec.gaussian_dims() > 0)
      meta.action_low.assign(c.spec.gaussian_dims(), -2), meta.action_high.assign(c.spec.gaussian_dims(), 2);
    meta.parameter_version = 42;
    meta.troupe_version = "test";
    const std::string path =
        troupe::tests::temp_file("troupe_policy_export_test", "policy_" + std::to_string(for_python.size()) + ".pt");
    export_torchscript(*m, meta, path);
    torch::jit::Module module = torch::jit::load(path);
    CHECK(module.attr("parameter_version").toInt() == 42);
    CHECK(module.attr("action_count").toInt() == c.spec.action_size);
    CHECK(module.attr("state_size").toInt() == c.spec.state_size());

    const int rows = 5, steps = c.spec.state_size() > 0 ? 6 : 1;
    const int state_size = c.spec.state_size();
    std::vector<float> states(size_t(rows) * state_size, 0.f);
    torch::Tensor module_state;
    if (state_size > 0) module_state = module.run_method("initial_state", rows).toTensor();
    nlohmann::json recorded{{"steps", nlohmann::json::array()}};
    for (int t = 0; t < steps; ++t) {
      const auto raw = raw_rows(rows, raw_size, rng);
      const auto seen = observed(raw, rows, raw_size, c.observe);
      prediction troupe_out;
      predict(*m, seen.data(), state_size ? states.data() : nullptr, rows, troupe_out);
      states = troupe_out.states;
      std::vector<int64_t> shape{rows};
      shape.insert(shape.end(), c.observation_shape.begin(), c.observation_shape.end());
      const torch::Tensor obs = torch::from_blob(const_cast<float*>(raw.data()), shape, torch::kFloat32);
      auto out = state_size > 0 ? module.forward({obs, module_state}).toTuple()
                                : module.forward({obs}).toTuple();
      const torch::Tensor policy = out->elements()[0].toTensor().contiguous();
      const torch::Tensor value = out->elements()[1].toTensor().contiguous();
      const torch::Tensor troupe_policy =
          torch::from_blob(troupe_out.policy.data(), {rows, c.spec.action_size}, torch::kFloat32);
      const torch::Tensor troupe_value = torch::from_blob(troupe_out.values.data(), {rows}, torch::kFloat32);
      CAPTURE(t);
      CHECK(torch::allclose(policy, troupe_policy, 0, 1e-5));
      CHECK(torch::allclose(value, troupe_value, 0, 1e-5));
      if (state_size > 0) {
        module_state = out->elements()[2].toTensor();
        CHECK(torch::allclose(module_state, torch::from_blob(states.data(), {rows, state_size}), 0, 1e-5));
      }
      recorded["steps"].push_back({{"obs", raw}, {"policy", troupe_out.policy}, {"value", troupe_out.values}});
    }
    if (c.spec.gaussian_dims() > 0) {
      CHECK(torch::allclose(module.attr("log_std").toTensor(), m->net->named_parameters()["log_std"]));
      recorded["log_std"] = std::vector<float>(c.spec.gaussian_dims(), float(c.spec.log_std_init));
    }
    for_python.emplace_back(path, recorded);
  }
  if (python) check_in_python("recorded", for_python);
}

TEST_CASE("export refuses an output it cannot write, leaving nothing behind") {
  auto m = make_shared_model(mlp_spec(4, 2, {8}), 1);
  policy_metadata meta;
  meta.observation_shape = {4};
  CHECK_THROWS_WITH_AS(export_torchscript(*m, meta, "/nonexistent-dir/policy.pt"),
                       doctest::Contains("/nonexistent-dir/policy.pt: cannot be written"), std::runtime_error);
}
}

TEST_SUITE("model") {
TEST_CASE("an exported policy takes a structured observation as a dict, the mask key included, and masks inside") {
  // Leaves as the Python bridge encodes them (bridges/python/troupe_spaces.py):
  // target Discrete(4) one-hot, flags MultiBinary(3) as they are, md
  // MultiDiscrete([2 3], start [0 5]) one-hot per element, noise a Box(2).
  // Actions: MultiDiscrete([2 3]), masked by the "action_mask" key.
  const bool python = troupe::tests::python_has_torch();
  net_spec spec = mlp_spec(4 + 3 + 5 + 2, 5, {16});
  spec.action_heads = {2, 3};
  auto m = make_shared_model(spec, 11);
  policy_metadata meta;
  meta.env_id = "test";
  meta.observation_shape = {14};
  meta.inputs = {{"target", "discrete", {4}, {0}, 4},
                 {"flags", "multi_binary", {}, {}, 3},
                 {"md", "multi_discrete", {2, 3}, {0, 5}, 5},
                 {"noise", "box", {}, {}, 2}};
  meta.mask_key = "action_mask";
  const std::string path = troupe::tests::temp_file("troupe_policy_export_test", "structured.pt");
  export_torchscript(*m, meta, path);
  torch::jit::Module module = torch::jit::load(path);
  CHECK(module.attr("action_heads").toIntList().vec() == std::vector<int64_t>{2, 3});
  CHECK(module.attr("mask_key").toStringRef() == "action_mask");
  CHECK(module.attr("observation_keys").toList().size() == 5);

  const int rows = 6;
  std::mt19937_64 rng(5);
  std::vector<std::int64_t> target, flags, md;
  std::vector<float> noise, encoded;
  std::vector<std::uint8_t> mask;
  for (int r = 0; r < rows; ++r) {
    std::vector<float> row(14, 0.f);
    target.push_back(std::int64_t(rng() % 4));
    row[size_t(target.back())] = 1;
    for (int j = 0; j < 3; ++j) {
      flags.push_back(std::int64_t(rng() % 2));
      row[4 + size_t(j)] = float(flags.back());
    }
    md.push_back(std::int64_t(rng() % 2));
    row[7 + size_t(md.back())] = 1;
    md.push_back(5 + std::int64_t(rng() % 3));
    row[9 + size_t(md.back() - 5)] = 1;
    for (int j = 0; j < 2; ++j) {
      noise.push_back(float(int(rng() % 200) - 100) / 50.f);
      row[12 + size_t(j)] = noise.back();
    }
    encoded.insert(encoded.end(), row.begin(), row.end());
    // One choice of each component masked, a different one each row.
    std::uint8_t legal[5] = {1, 1, 1, 1, 1};
    legal[r % 2] = 0;
    legal[2 + r % 3] = 0;
    mask.insert(mask.end(), legal, legal + 5);
  }
  prediction troupe_out;
  predict(*m, encoded.data(), nullptr, rows, troupe_out);
  std::vector<float> expected = troupe_out.policy;
  for (size_t i = 0; i < expected.size(); ++i)
    if (!mask[i]) expected[i] = algo::masked_logit;
  c10::Dict<std::string, torch::Tensor> obs;
  obs.insert("target", torch::tensor(target));
  obs.insert("flags", torch::tensor(flags).reshape({rows, 3}));
  obs.insert("md", torch::tensor(md).reshape({rows, 2}));
  obs.insert("noise", torch::tensor(noise).reshape({rows, 2}));
  obs.insert("action_mask", torch::from_blob(mask.data(), {rows, 5}, torch::kUInt8));
  auto out = module.forward({obs}).toTuple();
  const torch::Tensor policy = out->elements()[0].toTensor().contiguous();
  CHECK(torch::allclose(policy, torch::from_blob(expected.data(), {rows, 5}), 0, 1e-5));
  CHECK(torch::allclose(out->elements()[1].toTensor(), torch::from_blob(troupe_out.values.data(), {rows}), 0, 1e-5));
  if (python) {
    nlohmann::json leaves{{"target", {{"values", target}, {"shape", {rows}}, {"integer", true}}},
                          {"flags", {{"values", flags}, {"shape", {rows, 3}}, {"integer", true}}},
                          {"md", {{"values", md}, {"shape", {rows, 2}}, {"integer", true}}},
                          {"noise", {{"values", noise}, {"shape", {rows, 2}}, {"integer", false}}},
                          {"action_mask", {{"values", mask}, {"shape", {rows, 5}}, {"integer", true}}}};
    nlohmann::json recorded{{"steps", {{{"obs_dict", leaves}, {"policy", expected}, {"value", troupe_out.values}}}}};
    check_in_python("structured", {{path, recorded}});
  }
}

TEST_CASE("an exported policy of a flat observation takes an action mask as its last argument") {
  net_spec spec = mlp_spec(4, 3, {8});
  auto m = make_shared_model(spec, 2);
  policy_metadata meta;
  meta.env_id = "test";
  meta.observation_shape = {4};
  const std::string path = troupe::tests::temp_file("troupe_policy_export_test", "masked.pt");
  export_torchscript(*m, meta, path);
  torch::jit::Module module = torch::jit::load(path);
  const torch::Tensor obs = torch::randn({2, 4});
  const torch::Tensor plain = module.forward({obs}).toTuple()->elements()[0].toTensor();
  const torch::Tensor mask = torch::tensor({1, 0, 1, 0, 0, 1}, torch::kUInt8).reshape({2, 3});
  const torch::Tensor masked = module.forward({obs, mask}).toTuple()->elements()[0].toTensor();
  CHECK(torch::allclose(masked.masked_select(mask.to(torch::kBool)), plain.masked_select(mask.to(torch::kBool))));
  CHECK((masked.masked_select(mask == 0) == algo::masked_logit).all().item<bool>());  // the learner's value
  CHECK(module.attr("action_heads").toIntList().vec() == std::vector<int64_t>{3});
}

TEST_CASE("an exported hybrid policy masks its logits only, and troupe::policy acts with indices then clipped values") {
  net_spec spec = mlp_spec(3, 7, {8});
  spec.action_heads = {2, 3};
  spec.gaussian_size = 2;
  auto m = make_shared_model(spec, 5);
  {
    // Means far outside the bounds: the policy's actions must be clipped.
    torch::NoGradGuard no_grad;
    auto params = m->net->named_parameters();
    params["policy_head.bias"].narrow(0, 5, 2).fill_(30.f);
  }
  policy_metadata meta;
  meta.env_id = "test";
  meta.observation_shape = {3};
  meta.action_low = {-1.0, 0.0};
  meta.action_high = {1.0, 4.0};
  const std::string path = troupe::tests::temp_file("troupe_policy_export_test", "hybrid.pt");
  export_torchscript(*m, meta, path);
  torch::jit::Module module = torch::jit::load(path);
  CHECK(module.attr("action_space").toStringRef() == "hybrid");
  CHECK(module.attr("action_heads").toIntList().vec() == std::vector<int64_t>{2, 3});
  const torch::Tensor obs = torch::randn({2, 3});
  const torch::Tensor plain = module.forward({obs}).toTuple()->elements()[0].toTensor();
  const torch::Tensor mask = torch::tensor({1, 0, 0, 1, 1, /**/ 0, 1, 1, 0, 0}, torch::kUInt8).reshape({2, 5});
  const torch::Tensor masked = module.forward({obs, mask}).toTuple()->elements()[0].toTensor();
  CHECK(masked.sizes() == plain.sizes());
  CHECK(torch::equal(masked.narrow(1, 5, 2), plain.narrow(1, 5, 2)));  // the means stay
  const torch::Tensor logits = masked.narrow(1, 0, 5);
  CHECK((logits.masked_select(mask == 0) == algo::masked_logit).all().item<bool>());
  CHECK(torch::equal(logits.masked_select(mask != 0), plain.narrow(1, 0, 5).masked_select(mask != 0)));

  troupe::policy pi(path, 9);
  CHECK(pi.hybrid());
  CHECK(pi.action_width() == 4);
  CHECK(pi.mask_size() == 5);
  const std::vector<float> rows(obs.data_ptr<float>(), obs.data_ptr<float>() + 6);
  const std::vector<std::uint8_t> legal = {1, 0, 0, 1, 1, /**/ 0, 1, 1, 0, 0};
  for (bool greedy : {true, false})
    for (int k = 0; k < 200; ++k) {
      const std::vector<float> a = pi.act(rows, greedy, legal);
      REQUIRE(a.size() == 8);
      CHECK(a[0] == 0.f);  // row 0: component 0's only legal choice
      CHECK((a[1] == 1.f || a[1] == 2.f));
      CHECK(a[4] == 1.f);  // row 1
      CHECK(a[5] == 0.f);
      // Means of about 30 clipped to the upper bounds.
      CHECK(a[2] == 1.f);
      CHECK(a[3] == 4.f);
      CHECK(a[6] == 1.f);
      CHECK(a[7] == 4.f);
    }
}
}
