#pragma once
// Example/Courier-v0: the example of a native environment with a structured
// observation, several action components and an action mask. It observes a
// Dict of two leaves, which its spec declares (env_spec.observation.leaves)
// the way the Python bridge declares a Python environment's:
//   map:    Box(5x5x1), dark but for one lit cell in column 0, 1, 3 or 4
//           (an image: the network reads it with a convolution of its own);
//   parcel: Discrete(3), the parcel's kind (one-hot in the encoded row).
// It acts in MultiDiscrete([2 3]): a side (0: the lit cell is left of the
// middle, 1: right of it) and a kind. Each right component earns 0.5. The
// mask hides one wrong kind at every step; a masked kind throws (a failing
// environment). An episode lasts max_steps steps: a random legal policy
// scores about 5, the best policy 10.
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/draw.hpp"
#include "envs/episode_env.hpp"

namespace troupe::envs::examples {

struct courier_state {
  int row = 0, column = 0;  // the lit cell
  int parcel = 0;           // the right kind
  int hidden = 0;           // the wrong kind the mask hides
};

class courier final : public episode_env<courier_state> {
 public:
  static constexpr int side = 5, kinds = 3, max_steps = 10;
  static constexpr int map_size = side * side, obs_size = map_size + kinds;
  static constexpr int cell_pixels = 24;

  courier()
      : episode_env([] {
          env_spec s{"Example/Courier-v0",
                     space::box_space({obs_size}, std::vector<double>(obs_size, 0.0),
                                      std::vector<double>(obs_size, 1.0)),
                     space::multi_discrete_space({2, kinds}), max_steps};
          s.observation.declared = "Dict(map: Box(5x5x1), parcel: Discrete(3))";
          s.observation.leaves = {{"map", "box", {side, side, 1}, {}, {}, 0, map_size},
                                  {"parcel", "discrete", {}, {kinds}, {0}, map_size, kinds}};
          s.has_action_mask = true;
          return s;
        }()) {}

  // Both sides are always legal; of the kinds, all but the hidden one.
  void action_mask(std::uint8_t* legal) const override {
    legal[0] = legal[1] = 1;
    for (int k = 0; k < kinds; ++k) legal[2 + k] = std::uint8_t(k != state_.hidden);
  }

  // The map, the lit cell white; under it the parcel's kind as a coloured bar.
  void render(rgb_frame& frame) const override {
    constexpr draw::color background{30, 30, 30}, lit{240, 240, 240};
    constexpr draw::color kind_colors[kinds] = {{200, 80, 80}, {80, 200, 80}, {80, 80, 200}};
    frame.resize(side * cell_pixels, (side + 1) * cell_pixels);
    draw::clear(frame, background);
    draw::fill_rect(frame, state_.column * cell_pixels + 1, state_.row * cell_pixels + 1,
                    (state_.column + 1) * cell_pixels - 1, (state_.row + 1) * cell_pixels - 1, lit);
    draw::fill_rect(frame, 0, side * cell_pixels + 2, side * cell_pixels, (side + 1) * cell_pixels - 2,
                    kind_colors[state_.parcel]);
  }

 private:
  static courier_state draw_state(std::mt19937_64& rng) {
    static constexpr int columns[4] = {0, 1, 3, 4};
    courier_state s;
    s.row = std::uniform_int_distribution<int>(0, side - 1)(rng);
    s.column = columns[std::uniform_int_distribution<int>(0, 3)(rng)];
    s.parcel = std::uniform_int_distribution<int>(0, kinds - 1)(rng);
    s.hidden = (s.parcel + std::uniform_int_distribution<int>(1, kinds - 1)(rng)) % kinds;
    return s;
  }

  courier_state initial_state(std::mt19937_64& rng) override { return draw_state(rng); }

  step_result advance(const float* action) override {
    const int side_chosen = static_cast<int>(action[0]), kind = static_cast<int>(action[1]);
    if (side_chosen < 0 || side_chosen > 1 || kind < 0 || kind >= kinds || kind == state_.hidden)
      throw std::logic_error("Example/Courier-v0: action (" + std::to_string(side_chosen) + ", " +
                             std::to_string(kind) + ") is not legal in this state");
    const double reward = 0.5 * (side_chosen == (state_.column > side / 2 ? 1 : 0)) +
                          0.5 * (kind == state_.parcel);
    state_ = draw_state(rng());
    return {reward, false, false};
  }

  void write_observation(float* observation) const override {
    std::fill(observation, observation + obs_size, 0.f);
    observation[state_.row * side + state_.column] = 1.f;  // [y][x][c], one channel
    observation[map_size + state_.parcel] = 1.f;
  }
};

}  // namespace troupe::envs::examples
