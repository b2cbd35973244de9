#pragma once
// The parameters a model-owner guards, seen from code that must not include
// LibTorch (actors, the command line). The definition lives in
// shared_model_impl.hpp.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/net_spec.hpp"

namespace troupe::model {

struct shared_model;

// `device`: "cpu", or "cuda:N" in a CUDA build (std::invalid_argument
// otherwise, or when that device is not there).
std::shared_ptr<shared_model> make_shared_model(const net_spec& spec, std::uint64_t seed,
                                                const std::string& device = "cpu");

// Makes `to` an exact replica of `from`: every parameter, buffer and the
// version (each model inside its own critical section). The devices may differ.
void copy_parameters(shared_model& from, shared_model& to);

// Adds another replica's update to the parameters: `delta` is the change it
// made to every parameter, flattened in parameters() order. Inside the
// critical section, as one atomic update: the version moves forward by
// exactly one. Returns the new version, or nothing when the parameters are
// frozen and the update was refused.
std::optional<std::uint64_t> apply_delta(shared_model& model, const std::vector<float>& delta);

// Every parameter, flattened in parameters() order (one consistent version).
std::vector<float> flat_parameters(shared_model& model);

struct prediction {
  std::vector<float> policy;   // batch x action_size: logits, or Gaussian means
  std::vector<float> log_std;  // the Gaussian part's dimensions (net_spec::gaussian_dims); else empty
  std::vector<float> values;   // batch
  std::vector<float> states;   // batch x state_size: each row's next recurrent state; else empty
  std::uint64_t version = 0;  // the one parameter version all rows were computed with
};

// Pinned host buffers and a copy stream through which one thread moves its
// batches onto a GPU model's device; a CPU model needs none (null).
struct input_staging;
struct input_staging_deleter {
  void operator()(input_staging* staging) const;
};
using input_staging_ptr = std::unique_ptr<input_staging, input_staging_deleter>;
input_staging_ptr make_input_staging(const shared_model& model);

// One forward pass over `batch` observations, inside the parameters' critical
// section (shared), so it sees exactly one parameter version. A recurrent
// network reads each row's state from `states` (batch x state_size; null:
// zeros) and returns the next ones in out.states. On a GPU the inputs go
// through `staging` when given (a model-owner's own), else they are copied
// plainly.
void predict(shared_model& model, const float* observations, const float* states, int batch,
             prediction& out, input_staging* staging = nullptr);

std::uint64_t current_version(shared_model& model);

// With observation normalisation (net_spec::normalize): folds `rows`
// observations into the running statistics the network normalises with, as
// one atomic change inside the parameters' critical section. The version
// stays: the statistics are not learned, and a prediction sees them whole,
// before or after. Does nothing without normalisation.
void fold_observations(shared_model& model, const float* rows, std::int64_t row_count);

// Runs `judge` on a private copy of the parameters (same version) while
// holding the parameters' critical section shared: updates wait until it
// returns, and with them, behind the waiting update, new forward passes.
// When judge returns true the parameters freeze: every later update is
// refused, so they stay exactly the ones judged. Returns judge's verdict.
bool judge_parameters(shared_model& model, const std::function<bool(shared_model&)>& judge);
// Refuses every later update, as a passing judge_parameters does (for the
// other replicas of judged parameters).
void freeze(shared_model& model);
const net_spec& spec_of(const shared_model& model);
std::int64_t parameter_bytes(const shared_model& model);

// Runs forward passes of the batch sizes the owner will see, so that the
// first agents do not pay for allocation and kernel selection.
void warm_up(shared_model& model, int max_batch);

}  // namespace troupe::model
