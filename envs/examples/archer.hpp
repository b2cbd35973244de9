#pragma once
// Example/Archer-v0: the example of a native environment with a hybrid
// action (a parameterised one: which bow, and how far to draw it), declared
// as hybrid_space({3}, {-1}, {1}), and an action mask. Each step shows a
// target at distance d in [0, 3) and a wind w in [-1, 1], and one of the
// three bows is broken (masked; the observation says which). Bow b drawn
// by p in [-1, 1] lands at b + (p + 1) / 2 + w / 4: in still air the short
// bow covers [0, 1], the medium [1, 2], the long [2, 3]. A shot earns
// max(0, 1 - |landing - d|), so where the right bow is broken the best is
// a neighbour drawn to its limit, and how far to draw depends on the bow
// chosen. A broken bow or a draw outside [-1, 1] throws (a failing
// environment). An episode lasts max_steps shots: a random legal policy
// scores about 2.9 of 10, the best policy about 8.6.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/draw.hpp"
#include "envs/episode_env.hpp"

namespace troupe::envs::examples {

struct archer_state {
  double distance = 0;  // the target's, in [0, 3)
  double wind = 0;      // in [-1, 1]: shots land wind / 4 further
  int broken = 0;       // the bow the mask hides
};

class archer final : public episode_env<archer_state> {
 public:
  static constexpr int bows = 3, max_steps = 10, obs_size = 2 + bows;
  static constexpr int width = 240, height = 80;

  archer()
      : episode_env([] {
          env_spec s{"Example/Archer-v0",
                     space::box_space({obs_size}, {0, -1, 0, 0, 0}, {1, 1, 1, 1, 1}),
                     space::hybrid_space({bows}, {-1.0}, {1.0}), max_steps};
          s.action.declared = "Tuple(Discrete(3), Box(1))";
          s.action_labels = {"short", "medium", "long"};
          s.has_action_mask = true;
          return s;
        }()) {}

  // Where bow `bow` drawn by `draw` lands in `wind`.
  static double landing(int bow, double draw, double wind) { return bow + (draw + 1) / 2 + wind / 4; }

  void action_mask(std::uint8_t* legal) const override {
    for (int b = 0; b < bows; ++b) legal[b] = std::uint8_t(b != state_.broken);
  }

  // The range as a strip: the target red, the three bows' reaches in still
  // air as bars under it (the broken one grey), the wind as a blue bar from
  // the middle.
  void render(rgb_frame& frame) const override {
    constexpr draw::color background{30, 30, 30}, target{220, 60, 60}, wind{80, 120, 220},
        working{200, 200, 200}, broken{70, 70, 70};
    frame.resize(width, height);
    draw::clear(frame, background);
    const double x = state_.distance / 3.0 * width;
    draw::fill_rect(frame, x - 2, 4, x + 2, 36, target);
    for (int b = 0; b < bows; ++b)
      draw::fill_rect(frame, b * width / 3.0 + 2, 44, (b + 1) * width / 3.0 - 2, 56,
                      b == state_.broken ? broken : working);
    const double mid = width / 2.0, tip = mid + state_.wind * width / 4.0;
    draw::fill_rect(frame, std::min(mid, tip), 64, std::max(mid, tip) + 1, 74, wind);
  }

 private:
  static archer_state draw_state(std::mt19937_64& rng) {
    archer_state s;
    s.distance = std::uniform_real_distribution<double>(0.0, 3.0)(rng);
    s.wind = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
    s.broken = std::uniform_int_distribution<int>(0, bows - 1)(rng);
    return s;
  }

  archer_state initial_state(std::mt19937_64& rng) override { return draw_state(rng); }

  step_result advance(const float* action) override {
    const int bow = static_cast<int>(action[0]);
    const double draw = action[1];
    if (bow < 0 || bow >= bows || bow == state_.broken || !(draw >= -1.0 && draw <= 1.0))
      throw std::logic_error("Example/Archer-v0: action (" + std::to_string(bow) + ", " + std::to_string(draw) +
                             ") is not legal in this state");
    const double reward = std::max(0.0, 1.0 - std::fabs(landing(bow, draw, state_.wind) - state_.distance));
    state_ = draw_state(rng());
    return {reward, false, false};
  }

  void write_observation(float* observation) const override {
    observation[0] = static_cast<float>(state_.distance / 3.0);
    observation[1] = static_cast<float>(state_.wind);
    for (int b = 0; b < bows; ++b) observation[2 + b] = b == state_.broken ? 1.f : 0.f;
  }
};

}  // namespace troupe::envs::examples
