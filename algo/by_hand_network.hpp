#pragma once
// Whether the learners' steps by hand (algo/mlp_ppo_step.hpp,
// algo/mlp_a3c_step.hpp) compute a model's network and policy: a
// feed-forward MLP on the CPU whose spec allows it (model.by_hand), under
// one categorical or a diagonal Gaussian.
#include <optional>

#include "model/shared_model_impl.hpp"

namespace troupe::algo {

struct by_hand_network {
  model::mlp_layout layout;
  bool gaussian = false;  // else one categorical
};

// Nothing when the passes by hand do not compute it (a cnn, images, a
// recurrent core, parameters off the CPU, several categorical components or
// a hybrid policy) or its spec says by_hand: false.
inline std::optional<by_hand_network> by_hand_network_of(const model::shared_model& model) {
  const model::net_spec& spec = model.spec;
  const bool one_categorical = !spec.continuous && spec.action_heads.empty() && !spec.hybrid();
  if ((!spec.continuous && !one_categorical) || !model.by_hand) return std::nullopt;
  return by_hand_network{*model.by_hand, spec.continuous};
}

}  // namespace troupe::algo
