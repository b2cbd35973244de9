#pragma once
// Example/LegalMoves-v0: the example of an environment with an action mask.
// At every step a random, non-empty set of the num_actions actions is legal,
// and the observation shows which (1: legal, 0: not). Taking the highest
// legal action earns +1, any other legal action 0. An illegal action never
// reaches it when the caller honours the mask; if one does, the step throws
// (a failing environment, which a run counts as an agent failure). An
// episode lasts max_steps steps.
//
// A random legal policy scores about 9.5 (the mean of 1 / (legal actions)
// over the 31 non-empty sets, times 20); the best policy scores 20.
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/draw.hpp"
#include "envs/episode_env.hpp"

namespace troupe::envs::examples {

// The state is the set of legal actions, one bit each.
class legal_moves final : public episode_env<std::uint32_t> {
 public:
  static constexpr int num_actions = 5;
  static constexpr int max_steps = 20;
  static constexpr int cell_pixels = 40;

  legal_moves()
      : episode_env([] {
          env_spec s{"Example/LegalMoves-v0",
                     space::box_space({num_actions}, std::vector<double>(num_actions, 0.0),
                                      std::vector<double>(num_actions, 1.0)),
                     space::discrete_space(num_actions), max_steps};
          s.has_action_mask = true;
          return s;
        }()) {}

  void action_mask(std::uint8_t* legal) const override {
    for (int a = 0; a < num_actions; ++a) legal[a] = std::uint8_t((state_ >> a) & 1u);
  }

  // A row of cells: the legal ones green, the others grey.
  void render(rgb_frame& frame) const override {
    constexpr draw::color background{40, 40, 40}, illegal{120, 120, 120}, legal{80, 180, 80};
    frame.resize(num_actions * cell_pixels, cell_pixels);
    draw::clear(frame, background);
    for (int a = 0; a < num_actions; ++a)
      draw::fill_rect(frame, a * cell_pixels + 2, 2, (a + 1) * cell_pixels - 2, cell_pixels - 2,
                      (state_ >> a) & 1u ? legal : illegal);
  }

 private:
  // Uniform over the non-empty sets.
  static std::uint32_t draw_legal(std::mt19937_64& rng) {
    return std::uniform_int_distribution<std::uint32_t>(1, (1u << num_actions) - 1)(rng);
  }

  std::uint32_t initial_state(std::mt19937_64& rng) override { return draw_legal(rng); }

  step_result advance(const float* action) override {
    const int a = static_cast<int>(action[0]);
    if (a < 0 || a >= num_actions || !((state_ >> a) & 1u))
      throw std::logic_error("Example/LegalMoves-v0: action " + std::to_string(a) +
                             " is not legal in this state");
    int highest = num_actions - 1;
    while (!((state_ >> highest) & 1u)) --highest;
    const double reward = a == highest ? 1.0 : 0.0;
    state_ = draw_legal(rng());
    return {reward, false, false};
  }

  void write_observation(float* observation) const override {
    for (int a = 0; a < num_actions; ++a) observation[a] = float((state_ >> a) & 1u);
  }
};

}  // namespace troupe::envs::examples
