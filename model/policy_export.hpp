#pragma once
// A trained policy as a self-contained TorchScript module, which PyTorch
// (torch.jit.load) and LibTorch (torch::jit::load, or include/troupe/
// policy.hpp) load with no Troupe code. The module takes the environment's
// raw observations, [batch, *observation_shape] float32: it keeps the
// env.observe elements and normalises them as training did, inside. A
// structured observation (Dict, Tuple, MultiDiscrete, MultiBinary) is a
// Dict[str, Tensor] of its leaves, keyed by their paths ("a.0"; a leaf
// alone is "obs"), each [batch, *its shape] of its own values (a Discrete
// one [batch]); the module one-hot encodes the discrete ones, as training
// did.
//
//   forward(obs, mask=None) -> (policy, value)                      feed-forward
//   forward(obs, state, mask=None) -> (policy, value, next_state)   LSTM or GRU
//   initial_state(batch) -> zeros [batch, state_size]               every policy
//
// `policy` is [batch, action_count]: logits (Discrete; a MultiDiscrete
// action's components' logits in turn, action_heads giving their sizes), or
// the Gaussian's mean (Box), whose log-std is the module's `log_std`
// parameter; a hybrid action (a Tuple or Dict of discrete and Box parts):
// its components' logits, then its Box part's means (action_count less the
// sum of action_heads of them). `mask` ([batch, the logits], nonzero where
// legal), or a Dict observation's mask key when `mask` is None, sets the
// masked logits to -1e9. `value` is [batch]. What a user needs of the task
// is in attributes (env_id, observation_shape, observation_keys, mask_key,
// action_space "discrete" | "box" | "hybrid", action_count, action_heads,
// action_low, action_high (a Box's or a hybrid's Box part's),
// action_labels, state_size, recurrent, parameter_version, troupe_version)
// and, the same as JSON, in the archive's extra file "troupe.json".
#include <cstdint>
#include <string>
#include <vector>

#include "model/shared_model.hpp"

namespace troupe::model {

// One leaf of a structured observation, as the module takes and encodes it
// (the environment's envs::space_leaf, which this floor cannot include).
struct observation_input {
  std::string key;          // the Dict key the module reads it from
  std::string kind;         // box | discrete | multi_discrete | multi_binary
  std::vector<int> nvec;    // discrete kinds: each element's number of choices
  std::vector<int> start;   // discrete kinds: each element's first value
  int size = 0;             // its floats in the network's input
};

struct policy_metadata {
  std::string env_id;
  std::vector<int> observation_shape;  // the environment's own, before env.observe
  std::vector<observation_input> inputs;  // a structured observation's leaves; empty: a Tensor
  std::string mask_key;  // the observation Dict's key that holds the action mask; empty: none
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
