#pragma once
// A policy exported by `troupe export`, in any C++ program: LibTorch's
// TorchScript loader and nothing of Troupe (no actor system, no config).
//
//   troupe::policy pi("cartpole.pt");
//   std::vector<float> action = pi.act(observation);          // the most likely
//   std::vector<float> sampled = pi.act(observation, false);  // drawn (seeded)
//   std::vector<float> legal = pi.act(observation, true, mask);  // masked actions never
//   pi.reset();                                               // a new episode
//
//   troupe::policy router("routing.pt");                       // a Dict observation
//   router.act({{"target", torch::tensor({2})}, {"flags", torch::tensor({{1, 0, 1}})},
//               {"noise", torch::zeros({1, 2})}, {"action_mask", mask_rows}});
//
// Observations are the environment's raw ones, flattened (the module keeps
// the env.observe elements and normalises as training did), or, for a
// structured observation (observation_keys() not empty), a tensor per key
// of [rows, *the leaf's shape] raw values, the action mask's key included.
// An action is the discrete action's index as one float (one per component
// of a MultiDiscrete action), or a Box action's floats clipped to its
// bounds, or for a hybrid action (a Tuple or Dict of discrete and Box parts)
// its components' indices then its Box part's clipped floats, as Troupe's
// own agents give them; a masked action is never chosen. A recurrent
// policy keeps each environment's state in this instance, from act() to
// act(), until reset(). Header-only: link LibTorch (find_package(Troupe)
// gives the target Troupe::policy that does).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/script.h>

namespace troupe {

class policy {
 public:
  // Throws std::runtime_error naming `path` when it cannot be loaded or is
  // not an exported Troupe policy.
  explicit policy(const std::string& path, std::uint64_t seed = 0) : rng_(seed) {
    try {
      module_ = torch::jit::load(path, torch::kCPU);
      module_.eval();
      env_id_ = module_.attr("env_id").toStringRef();
      for (auto d : module_.attr("observation_shape").toIntList()) observation_shape_.push_back(d);
      const std::string kind = module_.attr("action_space").toStringRef();
      discrete_ = kind == "discrete";
      hybrid_ = kind == "hybrid";
      action_count_ = static_cast<int>(module_.attr("action_count").toInt());
      for (double v : module_.attr("action_low").toDoubleList()) low_.push_back(v);
      for (double v : module_.attr("action_high").toDoubleList()) high_.push_back(v);
      const c10::List<c10::IValue> labels = module_.attr("action_labels").toList();
      for (size_t i = 0; i < labels.size(); ++i) labels_.push_back(labels.get(i).toStringRef());
      state_size_ = static_cast<int>(module_.attr("state_size").toInt());
      version_ = static_cast<std::uint64_t>(module_.attr("parameter_version").toInt());
      if (!discrete_) log_std_ = module_.attr("log_std").toTensor().contiguous();
      gaussian_size_ = discrete_ ? 0 : static_cast<int>(log_std_.numel());
      // Exports before action masks and structured spaces lack these.
      if (module_.hasattr("action_heads"))
        for (auto n : module_.attr("action_heads").toIntList()) heads_.push_back(static_cast<int>(n));
      if (discrete_ && heads_.empty()) heads_.push_back(action_count_);
      if (module_.hasattr("observation_keys")) {
        const c10::List<c10::IValue> keys = module_.attr("observation_keys").toList();
        for (size_t i = 0; i < keys.size(); ++i) keys_.push_back(keys.get(i).toStringRef());
      }
    } catch (const c10::Error& e) {
      throw std::runtime_error(path + ": not a policy exported by troupe export (" +
                               e.what_without_backtrace() + ")");
    }
  }

  const std::string& env_id() const { return env_id_; }
  const std::vector<std::int64_t>& observation_shape() const { return observation_shape_; }
  std::int64_t observation_size() const {
    std::int64_t n = 1;
    for (auto d : observation_shape_) n *= d;
    return n;
  }
  bool discrete() const { return discrete_; }
  bool hybrid() const { return hybrid_; }  // discrete components and a Box part
  // The policy's outputs: actions (their logits), a Box's dimensions, or a
  // hybrid's logits and then its Box part's dimensions.
  int action_count() const { return action_count_; }
  // Floats per action: an index per component, then any Box values.
  int action_width() const { return static_cast<int>(heads_.size()) + gaussian_size_; }
  // The entries of an action mask row: every component's choices.
  int mask_size() const { return action_count_ - gaussian_size_; }
  // A discrete or hybrid action's components' numbers of choices ({action_count()} for a Discrete one).
  const std::vector<int>& action_heads() const { return heads_; }
  // A structured observation's keys (act's map); empty: rows of floats.
  const std::vector<std::string>& observation_keys() const { return keys_; }
  const std::vector<double>& action_low() const { return low_; }
  const std::vector<double>& action_high() const { return high_; }
  const std::vector<std::string>& action_labels() const { return labels_; }
  bool recurrent() const { return state_size_ > 0; }
  std::uint64_t parameter_version() const { return version_; }

  // Actions for `observations`: rows of observation_size() floats, one per
  // environment (the same environments, in the same order, from call to
  // call for a recurrent policy). `greedy`: the most likely action (a
  // Gaussian's mean); else drawn from the policy with this instance's seed.
  // `masks`: each row's action mask (mask_size() bytes, 1 where legal), or empty.
  std::vector<float> act(const std::vector<float>& observations, bool greedy = true,
                         const std::vector<std::uint8_t>& masks = {}) {
    const std::int64_t size = observation_size();
    if (observations.empty() || observations.size() % size != 0)
      throw std::invalid_argument("policy::act: " + std::to_string(observations.size()) +
                                  " floats are not rows of " + std::to_string(size));
    const std::int64_t rows = static_cast<std::int64_t>(observations.size()) / size;
    std::vector<std::int64_t> shape{rows};
    shape.insert(shape.end(), observation_shape_.begin(), observation_shape_.end());
    const torch::Tensor obs =
        torch::from_blob(const_cast<float*>(observations.data()), shape, torch::kFloat32);
    c10::IValue mask;  // None
    if (!masks.empty()) {
      if (masks.size() != static_cast<size_t>(rows * mask_size()))
        throw std::invalid_argument("policy::act: " + std::to_string(masks.size()) +
                                    " mask bytes for " + std::to_string(rows) + " rows of " +
                                    std::to_string(mask_size()) + " actions");
      mask = torch::from_blob(const_cast<std::uint8_t*>(masks.data()), {rows, mask_size()}, torch::kUInt8);
    }
    return act_on(obs, rows, mask, greedy);
  }

  // Actions for a structured observation: observation_keys()'s tensors,
  // each [rows, *its leaf's shape] (a Discrete leaf's [rows]).
  std::vector<float> act(const std::map<std::string, torch::Tensor>& observation, bool greedy = true) {
    c10::Dict<std::string, torch::Tensor> obs;
    for (const std::string& key : keys_) {
      const auto found = observation.find(key);
      if (found == observation.end())
        throw std::invalid_argument("policy::act: the observation has no '" + key + "'");
      obs.insert(key, found->second);
    }
    if (keys_.empty() || observation.size() != keys_.size())
      throw std::invalid_argument("policy::act: this policy takes " +
                                  (keys_.empty() ? std::string("rows of floats") : "exactly the keys of observation_keys()"));
    return act_on(obs, observation.begin()->second.size(0), c10::IValue(), greedy);
  }

  // Forgets every environment's recurrent state: the next act() starts
  // episodes afresh. (No effect on a feed-forward policy.)
  void reset() { state_ = torch::Tensor(); }
  // Forgets environment `row`'s state only: its episode ended, the others go on.
  void reset(std::int64_t row) {
    if (state_.defined() && row >= 0 && row < state_.size(0)) state_[row].zero_();
  }

 private:
  std::vector<float> act_on(const c10::IValue& obs, std::int64_t rows, const c10::IValue& mask, bool greedy) {
    torch::NoGradGuard no_grad;
    torch::Tensor outputs;
    if (recurrent()) {
      if (!state_.defined() || state_.size(0) != rows)
        state_ = module_.run_method("initial_state", rows).toTensor();
      auto out = (mask.isNone() ? module_.forward({obs, state_}) : module_.forward({obs, state_, mask})).toTuple();
      outputs = out->elements()[0].toTensor();
      state_ = out->elements()[2].toTensor();
    } else {
      outputs = (mask.isNone() ? module_.forward({obs}) : module_.forward({obs, mask})).toTuple()->elements()[0].toTensor();
    }
    const torch::Tensor policy = outputs.contiguous();
    const float* p = policy.data_ptr<float>();
    std::vector<float> actions;
    for (std::int64_t r = 0; r < rows; ++r)
      choose(p + r * action_count_, greedy, actions);
    return actions;
  }

  // Appends the action for one row of policy outputs (masked logits are
  // -1e9 there: never the most likely, drawn with probability 0).
  void choose(const float* p, bool greedy, std::vector<float>& actions) {
    if (discrete_ || hybrid_) {
      for (int n : heads_) {
        int best = static_cast<int>(std::max_element(p, p + n) - p);
        if (!greedy) {
          const float top = p[best];
          std::vector<double> weights;
          for (int a = 0; a < n; ++a) weights.push_back(std::exp(double(p[a] - top)));
          best = std::discrete_distribution<int>(weights.begin(), weights.end())(rng_);
        }
        actions.push_back(static_cast<float>(best));
        p += n;
      }
      if (discrete_) return;
    }
    // A Box's values, or a hybrid's Box part's after its logits.
    const float* log_std = log_std_.data_ptr<float>();
    std::normal_distribution<double> normal;
    for (int j = 0; j < gaussian_size_; ++j) {
      double a = greedy ? p[j] : p[j] + std::exp(double(log_std[j])) * normal(rng_);
      if (j < static_cast<int>(low_.size())) a = std::clamp(a, low_[j], high_[j]);
      actions.push_back(static_cast<float>(a));
    }
  }

  torch::jit::Module module_;
  std::string env_id_;
  std::vector<std::int64_t> observation_shape_;
  bool discrete_ = true;
  bool hybrid_ = false;
  int action_count_ = 0;
  int gaussian_size_ = 0;
  std::vector<int> heads_;
  std::vector<std::string> keys_;
  std::vector<double> low_, high_;
  std::vector<std::string> labels_;
  int state_size_ = 0;
  std::uint64_t version_ = 0;
  torch::Tensor log_std_;
  torch::Tensor state_;
  std::mt19937_64 rng_;
};

}  // namespace troupe
