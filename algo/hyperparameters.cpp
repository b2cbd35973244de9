#include "algo/hyperparameters.hpp"

#include <functional>
#include <utility>

namespace troupe::algo {

namespace {

using slot = std::function<double&(algo_config&)>;

const std::vector<std::pair<std::string, slot>>& table() {
  static const std::vector<std::pair<std::string, slot>> keys = {
      {"algo.lr", [](algo_config& c) -> double& { return c.lr; }},
      {"algo.entropy_coef", [](algo_config& c) -> double& { return c.entropy_coef; }},
      {"algo.value_coef", [](algo_config& c) -> double& { return c.value_coef; }},
      {"algo.gamma", [](algo_config& c) -> double& { return c.gamma; }},
      {"algo.gae_lambda", [](algo_config& c) -> double& { return c.gae_lambda; }},
      {"algo.ppo.clip", [](algo_config& c) -> double& { return c.ppo.clip; }},
      {"algo.max_grad_norm", [](algo_config& c) -> double& { return c.max_grad_norm; }},
      {"algo.bounds_coef", [](algo_config& c) -> double& { return c.bounds_coef; }},
  };
  return keys;
}

}  // namespace

const std::vector<std::string>& changeable_hyperparameters() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const auto& [key, where] : table()) out.push_back(key);
    return out;
  }();
  return keys;
}

double* hyperparameter(algo_config& config, const std::string& key) {
  for (const auto& [name, where] : table())
    if (name == key) return &where(config);
  return nullptr;
}

const double* hyperparameter(const algo_config& config, const std::string& key) {
  return hyperparameter(const_cast<algo_config&>(config), key);  // the slots take a mutable config; this only reads
}

std::string why_not_changeable(const std::string& key) {
  algo_config probe;
  if (hyperparameter(probe, key)) return "";
  std::string list;
  for (const auto& k : changeable_hyperparameters()) list += (list.empty() ? "" : ", ") + k;
  std::string why;
  if (key == "algo.n_steps" || key == "algo.batch_rollouts" || key == "algo.max_rollouts_in_flight" ||
      key == "algo.rollout_budget")
    why = "it shapes the rollouts and batches agents and learner already exchange";
  else if (key == "algo.kind" || key == "algo.optimizer" || key == "algo.optimizer_eps" ||
           key == "algo.rmsprop_alpha" || key.rfind("algo.ppo.epochs", 0) == 0 || key == "algo.ppo.minibatches")
    why = "the learner and its optimiser are built with it";
  else if (key == "algo.lr_schedule")
    why = "the schedule anneals algo.lr over the run; population-based training sets algo.lr itself";
  else if (key.rfind("model.", 0) == 0 || key.rfind("env.", 0) == 0)
    why = "it is part of what the network or the environments are";
  else if (key.rfind("algo.", 0) != 0)
    why = "only the algorithm's numeric keys can change during a run";
  else
    why = "it is not read afresh by every update";
  return why + " (the keys that can change: " + list + ")";
}

}  // namespace troupe::algo
