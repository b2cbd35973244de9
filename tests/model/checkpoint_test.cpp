#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "model/checkpoint.hpp"
#include "model/checkpoint_file.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/temp_files.hpp"

using namespace troupe::model;

namespace {

std::unique_ptr<torch::optim::Optimizer> rmsprop(const torch::Tensor& parameters) {
  return std::make_unique<torch::optim::RMSprop>(
      std::vector<torch::Tensor>{parameters}, torch::optim::RMSpropOptions(0.01).alpha(0.99).eps(1e-5));
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
  auto rms = rmsprop(original->flat);
  const torch::Tensor grads = torch::ones_like(original->flat);
  for (int i = 0; i < 3; ++i) apply_gradients(*original, *rms, grads);

  checkpoint_meta meta;
  meta.env_steps = 1234;
  meta.episodes = 56;
  meta.updates = 3;
  meta.wall_seconds = 7.5;
  meta.segment = 2;
  meta.config_yaml = "run:\n  name: x\n";
  const std::string path = troupe::tests::temp_file("troupe_checkpoint_test", "roundtrip.pt");
  CHECK(save_checkpoint(path, *original, rms.get(), meta) == 3);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));

  auto restored = make_shared_model(mlp_spec(4, 2, {8}), 99);  // other initial weights
  REQUIRE_FALSE(same_parameters(*original, *restored));
  auto rms2 = rmsprop(restored->flat);
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
  const std::string good = troupe::tests::temp_file("troupe_checkpoint_test", "good.pt");
  save_checkpoint(good, *model, nullptr, {});
  const std::string bytes = read_checkpoint_file(good);
  REQUIRE(bytes.size() > checkpoint_header_bytes);
  auto write = [](const std::string& name, const std::string& content) {
    const std::string path = troupe::tests::temp_file("troupe_checkpoint_test", name);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    return path;
  };
  struct damage {
    std::string name, content, says;
  };
  std::string flipped = bytes;
  for (size_t k = 0; k < 4; ++k) flipped[bytes.size() / 3 + k] ^= 0x5a;  // inside a tensor
  std::string longer = bytes + "x";
  const std::vector<damage> cases = {
      {"truncated.pt", bytes.substr(0, bytes.size() / 2), "truncated checkpoint"},
      {"header_only.pt", bytes.substr(0, 20), "shorter than its 56-byte header"},
      {"empty.pt", "", "empty file"},
      {"flipped.pt", flipped, "does not match its checksum"},
      {"longer.pt", longer, "bytes follow its end"},
      {"garbage.pt", "this is not a checkpoint", "not a Troupe checkpoint"},
      // The content without its header (or a LibTorch archive, as Troupe
      // wrote before checksums).
      {"headless.pt", bytes.substr(checkpoint_header_bytes), "not a Troupe checkpoint"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const std::string path = write(c.name, c.content);
    CHECK_THROWS_WITH_AS(read_checkpoint_meta(path), doctest::Contains(c.says.c_str()), checkpoint_error);
    CHECK_THROWS_WITH_AS(load_checkpoint(path, *model, nullptr), doctest::Contains(path.c_str()),
                         checkpoint_error);
  }
  // Another format version is named as such.
  std::string future = bytes;
  future[8] = 3;
  CHECK_THROWS_WITH_AS(read_checkpoint_meta(write("future.pt", future)),
                       doctest::Contains("checkpoint format 3"), checkpoint_error);
  std::string format1 = bytes;
  format1[8] = 1;
  CHECK_THROWS_WITH_AS(read_checkpoint_meta(write("format1.pt", format1)),
                       doctest::Contains("format 1, a LibTorch archive, is no longer read"),
                       checkpoint_error);

  CHECK_THROWS_WITH_AS(read_checkpoint_meta(troupe::tests::temp_file("troupe_checkpoint_test", "missing.pt")),
                       doctest::Contains("no such checkpoint"), checkpoint_error);
  CHECK_THROWS_WITH_AS(read_checkpoint_meta(std::filesystem::temp_directory_path().string()),
                       doctest::Contains("not a regular file"), checkpoint_error);

  auto other = make_shared_model(mlp_spec(4, 3, {16}), 1);  // another architecture
  CHECK_THROWS_WITH_AS(load_checkpoint(good, *other, nullptr),
                       doctest::Contains("does not fit"), checkpoint_error);
}

TEST_CASE("a bit flipped anywhere in a checkpoint is caught") {
  auto model = make_shared_model(mlp_spec(4, 2, {8}), 1);
  const std::string good = troupe::tests::temp_file("troupe_checkpoint_test", "every_bit.pt");
  save_checkpoint(good, *model, nullptr, {});
  const std::string bytes = read_checkpoint_file(good);
  // Every 97th byte (all of the header, then a stride through the archive).
  for (size_t at = 0; at < bytes.size(); at += at < checkpoint_header_bytes ? 1 : 97) {
    std::string changed = bytes;
    changed[at] ^= 0x01;
    CAPTURE(at);
    CHECK_THROWS_AS(unseal_checkpoint(changed, "x.pt"), checkpoint_error);
  }
  CHECK(unseal_checkpoint(bytes, "x.pt").size() == bytes.size() - checkpoint_header_bytes);
}

TEST_CASE("a checkpoint that cannot be written leaves the older file and no temporary") {
  auto model = make_shared_model(mlp_spec(4, 2, {8}), 1);
  const std::string dir = troupe::tests::temp_file("troupe_checkpoint_test", "readonly_dir");
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/ckpt.pt";
  save_checkpoint(path, *model, nullptr, {});
  const std::string before = read_checkpoint_file(path);
  // A directory of that temporary name cannot be opened for writing: the
  // same failure path a full disk takes (tests/e2e: the full disk itself).
  std::filesystem::create_directories(path + ".tmp");
  CHECK_THROWS_WITH_AS(save_checkpoint(path, *model, nullptr, {}),
                       doctest::Contains("cannot be created"), checkpoint_error);
  std::filesystem::remove(path + ".tmp");
  CHECK(read_checkpoint_file(path) == before);
}
}

TEST_SUITE("model") {
TEST_CASE("Adam's state comes back too") {
  auto original = make_shared_model(mlp_spec(4, 2, {8}), 1);
  auto adam = std::make_unique<torch::optim::Adam>(std::vector<torch::Tensor>{original->flat},
                                                   torch::optim::AdamOptions(0.01));
  const torch::Tensor grads = torch::full_like(original->flat, 0.3);
  for (int i = 0; i < 4; ++i) apply_gradients(*original, *adam, grads);
  const std::string path = troupe::tests::temp_file("troupe_checkpoint_test", "adam.pt");
  save_checkpoint(path, *original, adam.get(), {});
  auto restored = make_shared_model(mlp_spec(4, 2, {8}), 5);
  auto adam2 = std::make_unique<torch::optim::Adam>(std::vector<torch::Tensor>{restored->flat},
                                                    torch::optim::AdamOptions(0.01));
  load_checkpoint(path, *restored, adam2.get());
  // Adam's step count and moments: a fresh Adam's next step would differ.
  apply_gradients(*original, *adam, grads);
  apply_gradients(*restored, *adam2, grads);
  CHECK(same_parameters(*original, *restored));
  // RMSprop's run cannot resume from Adam's state.
  auto rms = rmsprop(restored->flat);
  CHECK_THROWS_WITH_AS(load_checkpoint(path, *restored, rms.get()),
                       doctest::Contains("holds the state of adam, not of this run's rmsprop"),
                       checkpoint_error);
}

TEST_CASE("a checkpoint whose checksum holds but whose content is malformed is refused") {
  auto model = make_shared_model(mlp_spec(4, 2, {8}), 1);
  auto rms = rmsprop(model->flat);
  const std::string good = troupe::tests::temp_file("troupe_checkpoint_test", "content.pt");
  save_checkpoint(good, *model, rms.get(), {});
  const std::string content(unseal_checkpoint(read_checkpoint_file(good), good));
  const std::uint64_t length = [&] {
    std::uint64_t n = 0;
    for (int i = 0; i < 8; ++i) n |= std::uint64_t(static_cast<unsigned char>(content[i])) << (8 * i);
    return n;
  }();
  const std::string directory = content.substr(8, length), values = content.substr(8 + length);
  auto with_directory = [&](const std::string& d) {
    std::string out;
    for (int i = 0; i < 8; ++i) out.push_back(char((d.size() >> (8 * i)) & 0xff));
    return out + d + values;
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string d = directory;
    const size_t at = d.find(from);
    REQUIRE(at != std::string::npos);
    return with_directory(d.replace(at, from.size(), to));
  };
  struct damage {
    std::string name, content, says;
  };
  const std::vector<damage> cases = {
      {"short", content.substr(0, 5), "no directory"},
      {"past-end", with_directory(directory).substr(0, 20), "past the end"},
      {"not-json", with_directory("{\"info\": [1, 2"), "not JSON"},
      {"no-tensors", with_directory("{\"info\": {}}"), "lacks info or tensors"},
      {"huge-shape", replaced("[8,4]", "[8,4000000000000]"), "larger than the file"},
      {"negative-shape", replaced("[8,4]", "[-8,4]"), "larger than the file"},
      {"shape-text", replaced("[8,4]", "[\"8\",4]"), "not integers"},
      {"twice", replaced("parameters/trunk.0.bias", "parameters/trunk.0.weight"), "appears twice"},
      {"trailing", with_directory(directory) + "xyzw", "4 bytes follow its last tensor"},
      {"renamed", replaced("parameters/trunk.0.bias", "parameters/trunk.0.biaz"), "parameter 'trunk.0.bias' is missing"},
      {"meta", replaced("\"env_steps\"", "\"env_stepz\""), "corrupt checkpoint metadata"},
      {"optimizer", replaced("\"rmsprop\"", "7"), "corrupt optimiser state"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const std::string path = troupe::tests::temp_file("troupe_checkpoint_test", c.name + ".pt");
    write_file_atomically(path, seal_checkpoint(c.content));
    CHECK_THROWS_WITH_AS(load_checkpoint(path, *model, rms.get()), doctest::Contains(c.says.c_str()),
                         checkpoint_error);
  }
}
}
