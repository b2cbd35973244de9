// The checkpoint loader, as `eval`, `play` and `train --resume` use it: any
// bytes under a checkpoint's name load or give checkpoint_error (which the
// commands turn into exit code 2 naming the file), never a crash or another
// exception. Inputs that start with the checkpoint magic are files; any
// other input is taken as the content inside a correctly sealed file
// (model/tensor_bundle.hpp), so that the fuzzer reaches past the checksum
// into the directory, the tensors, the metadata and the optimiser state.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "algo/learner.hpp"
#include "model/checkpoint_file.hpp"
#include "tests/fuzz/fuzz_targets.hpp"

namespace troupe::fuzz {

namespace {

// A small model with an optimiser, as a resumed run has; made once.
struct loader {
  std::shared_ptr<model::shared_model> model;
  std::unique_ptr<algo::learner> learner;
  std::string path;

  loader() {
    model::model_config config;
    config.hidden = {8};
    model = model::make_shared_model(model::make_net_spec(config, {4}, false, 2), 1);
    learner = std::make_unique<algo::learner>(model, algo::algo_config{});
    path = (std::filesystem::temp_directory_path() /
            ("troupe-fuzz-checkpoint-" + std::to_string(getpid()) + ".pt"))
               .string();
  }
  ~loader() { std::filesystem::remove(path); }
};

}  // namespace

bool checkpoint_input(const std::uint8_t* data, size_t size) {
  static loader l;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const bool whole_file = input.substr(0, model::checkpoint_magic.size()) == model::checkpoint_magic;
  {
    std::ofstream out(l.path, std::ios::binary | std::ios::trunc);
    const std::string file = whole_file ? std::string(input) : model::seal_checkpoint(input);
    out.write(file.data(), std::streamsize(file.size()));
  }
  try {
    const model::checkpoint_meta meta = model::read_checkpoint_meta(l.path);
    const model::checkpoint_meta loaded = l.learner->restore(l.path);
    if (loaded.version != meta.version || loaded.config_yaml != meta.config_yaml)
      throw fuzz_finding("the metadata read alone differs from the metadata loaded");
    model::prediction out;
    const float observation[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    model::predict(*l.model, observation, nullptr, 1, out);
    if (out.policy.size() != 2 || out.values.size() != 1 || out.version != meta.version)
      throw fuzz_finding("a loaded checkpoint predicts with the wrong shapes or version");
    return true;
  } catch (const model::checkpoint_error&) {
    return false;  // refused, naming the file: what a damaged or foreign checkpoint gets
  }
}

}  // namespace troupe::fuzz
