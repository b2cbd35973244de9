#pragma once
// A trained policy as a self-contained TorchScript module, which PyTorch
// (torch.jit.load) and LibTorch (torch::jit::load, or include/troupe/
// policy.hpp) load with no Troupe code. The module takes the environment's
// raw observations, [batch, *observation_shape] float32: it keeps the
// env.observe elements and normalises them as training did, inside.
//
//   forward(obs) -> (policy, value)                        feed-forward
//   forward(obs, state) -> (policy, value, next_state)     LSTM or GRU
//   initial_state(batch) -> zeros [batch, state_size]      every policy
//
// `policy` is [batch, actions]: logits (Discrete), or the Gaussian's mean
// (Box), whose log-std is the module's `log_std` parameter. `value` is
// [batch]. What a user needs of the task is in attributes (env_id,
// observation_shape, action_space "discrete" | "box", action_count,
// action_low, action_high, action_labels, state_size, recurrent,
// parameter_version, troupe_version) and, the same as JSON, in the
// archive's extra file "troupe.json".
#include <cstdint>
#include <string>
#include <vector>

#include "model/shared_model.hpp"

namespace troupe::model {

struct policy_metadata {
  std::string env_id;
  std::vector<int> observation_shape;  // the environment's own, before env.observe
  std::vector<int> observe;            // env.observe: flat indices kept (empty: all)
  std::vector<double> action_low, action_high;  // Box bounds (empty for Discrete)
  std::vector<std::string> action_labels;
  std::uint64_t parameter_version = 0;
  std::string troupe_version;
};

// The module's metadata as the archive's "troupe.json" holds it.
std::string policy_metadata_json(const shared_model& model, const policy_metadata& meta);

// Writes `model` (one consistent version, read inside its critical section)
// as a TorchScript archive at `path`, atomically (a temporary file, then a
// rename). Throws std::runtime_error naming the file when it cannot be
// written, and std::invalid_argument for a network it cannot express.
void export_torchscript(shared_model& model, const policy_metadata& meta, const std::string& path);

}  // namespace troupe::model
