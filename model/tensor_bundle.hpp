#pragma once
// The content of a checkpoint file (format 2; the sealed header around it is
// model/checkpoint_file.hpp): named float32 tensors and a JSON document, in
// a layout simple enough to read with bounds checks at every step.
//
//   offset  size  what
//        0     8  n: length of the directory, little-endian
//        8     n  the directory, JSON: {"info": {...}, "tensors":
//                 [{"name": "parameters/trunk.0.weight", "shape": [64, 4]}, ...]}
//      8+n     -  each tensor's values in directory order, float32, little-endian
//
// LibTorch's own archive reader (torch::jit::load, behind InputArchive) was
// fuzzed here and crashed on a crafted archive inside a correctly sealed file
// (tests/fuzz/regressions/checkpoint/): reading checkpoints no longer goes
// through it. Plain C++, no LibTorch: the fuzz target reaches all of it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace troupe::model {

struct bundle_tensor {
  std::string name;
  std::vector<std::int64_t> shape;
  std::vector<float> values;  // as many as the shape holds
};

struct tensor_bundle {
  nlohmann::json info = nlohmann::json::object();
  std::vector<bundle_tensor> tensors;

  // The tensor of that name, or null.
  const bundle_tensor* find(const std::string& name) const;
};

std::string write_tensor_bundle(const tensor_bundle& bundle);

// Throws checkpoint_error (model/checkpoint.hpp) naming `path` and what is
// wrong when `bytes` are not a well-formed bundle: every length, shape and
// name is checked before anything is read.
tensor_bundle read_tensor_bundle(std::string_view bytes, const std::string& path);

}  // namespace troupe::model
