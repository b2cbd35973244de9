#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "model/checkpoint.hpp"
#include "model/shared_model_impl.hpp"

using namespace troupe::model;

namespace {

std::unique_ptr<torch::optim::Optimizer> rmsprop(const std::vector<torch::Tensor>& parameters) {
  return std::make_unique<torch::optim::RMSprop>(
      parameters, torch::optim::RMSpropOptions(0.01).alpha(0.99).eps(1e-5));
}
std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "troupe_checkpoint_test";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

bool same_parameters(shared_model& a, shared_model& b) {
  const auto pa = a.net->parameters(), pb = b.net->parameters();
  if (pa.size() != pb.size()) return false;
  for (size_t i = 0; i < pa.size(); ++i)
    if (!torch::equal(pa[i], pb[i])) return false;
  return true;
}
}  // namespace

TEST_SUITE("model") {
TEST_CASE("a checkpoint restores parameters, optimiser state, version and counters") {
  auto original = make_shared_model(mlp_spec(4, 2, {8}), 1);
  auto rms = rmsprop(original->net->parameters());
  std::vector<torch::Tensor> grads;
  for (const auto& p : original->net->parameters()) grads.push_back(torch::ones_like(p));
  for (int i = 0; i < 3; ++i) apply_gradients(*original, *rms, grads);

  checkpoint_meta meta;
  meta.env_steps = 1234;
  meta.episodes = 56;
  meta.updates = 3;
  meta.wall_seconds = 7.5;
  meta.segment = 2;
  meta.config_yaml = "run:\n  name: x\n";
  const std::string path = temp_path("roundtrip.pt");
  CHECK(save_checkpoint(path, *original, rms.get(), meta) == 3);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));

  auto restored = make_shared_model(mlp_spec(4, 2, {8}), 99);  // other initial weights
  REQUIRE_FALSE(same_parameters(*original, *restored));
  auto rms2 = rmsprop(restored->net->parameters());
  const checkpoint_meta back = load_checkpoint(path, *restored, rms2.get());
  CHECK(same_parameters(*original, *restored));
  CHECK(current_version(*restored) == 3);
  CHECK(back.version == 3);
  CHECK(back.env_steps == 1234);
  CHECK(back.episodes == 56);
  CHECK(back.wall_seconds == 7.5);
  CHECK(back.segment == 2);
  CHECK(back.config_yaml == meta.config_yaml);

  // The optimiser state came back too: one more identical step on each side
  // lands on identical parameters (a fresh RMSprop would step differently).
  apply_gradients(*original, *rms, grads);
  apply_gradients(*restored, *rms2, grads);
  CHECK(same_parameters(*original, *restored));
}

TEST_CASE("damaged or foreign checkpoints are reported, never a crash") {
  auto model = make_shared_model(mlp_spec(4, 2, {8}), 1);
  const std::string good = temp_path("good.pt");
  save_checkpoint(good, *model, nullptr, {});

  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string truncated = temp_path("truncated.pt");
  std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  CHECK_THROWS_WITH_AS(read_checkpoint_meta(truncated), doctest::Contains("corrupt or truncated"),
                       checkpoint_error);
  CHECK_THROWS_AS(load_checkpoint(truncated, *model, nullptr), checkpoint_error);

  const std::string garbage = temp_path("garbage.pt");
  std::ofstream(garbage, std::ios::binary) << "this is not a checkpoint";
  CHECK_THROWS_AS(read_checkpoint_meta(garbage), checkpoint_error);

  CHECK_THROWS_WITH_AS(read_checkpoint_meta(temp_path("missing.pt")),
                       doctest::Contains("no such checkpoint"), checkpoint_error);

  auto other = make_shared_model(mlp_spec(4, 3, {16}), 1);  // another architecture
  CHECK_THROWS_WITH_AS(load_checkpoint(good, *other, nullptr),
                       doctest::Contains("does not fit"), checkpoint_error);
}
}
