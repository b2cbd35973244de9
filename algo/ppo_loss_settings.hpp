#pragma once
// PPO's loss settings (algo/ppo_loss.hpp computes the loss on LibTorch's
// tensors, algo/ppo_loss_by_hand.hpp by hand).

namespace troupe::algo {

struct ppo_loss_settings {
  double clip = 0.2;
  double value_clip = 0.0;  // > 0: clip the value's change from old_values to +-this
  double value_coef = 0.5;
  double entropy_coef = 0.0;
  bool normalize_advantages = true;  // to mean 0, std 1 over these samples
};

}  // namespace troupe::algo
