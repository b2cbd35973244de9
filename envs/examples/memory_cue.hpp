#pragma once
// Example/MemoryCue-v0: a task only a policy with memory can solve. The first
// observation shows a cue (one of two); then `delay` blank steps; then a
// step that says "now" and the agent must name the cue: +1 when right, -1
// when wrong, and the episode ends. Nothing else is rewarded. A feed-forward
// policy sees the same "now" observation either way, so it can only guess
// (expected return 0); a recurrent one can carry the cue (return 1).
//
// Observation: [cue is A, cue is B, now], each 0 or 1. Actions: 0 (A), 1 (B).
#include <random>

#include "envs/episode_env.hpp"

namespace troupe::envs::examples {

// The state: which cue (0 or 1) and how many steps have passed.
struct memory_cue_state {
  int cue = 0;
  int t = 0;
};

class memory_cue final : public episode_env<memory_cue_state> {
 public:
  static constexpr int delay = 4;       // blank steps between the cue and the question
  static constexpr int answer_step = delay + 1;

  memory_cue()
      : episode_env({"Example/MemoryCue-v0",
                     space::box_space({3}, {0, 0, 0}, {1, 1, 1}), space::discrete_space(2),
                     answer_step + 1}) {}

  // A lamp that shows the cue (red or blue) at the first step and white when
  // the answer is asked, grey in between; ticks below count the steps.
  void render(rgb_frame& frame) const override {
    constexpr int width = 120, height = 80;
    frame.resize(width, height);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) frame.set(x, y, 30, 30, 40);
    const int t = state().t;
    std::uint8_t lamp[3] = {110, 110, 110};
    if (t == 0) {
      lamp[0] = state().cue == 0 ? 220 : 40;
      lamp[2] = state().cue == 1 ? 220 : 40;
      lamp[1] = 40;
    } else if (t == answer_step) {
      lamp[0] = lamp[1] = lamp[2] = 250;
    }
    for (int y = 10; y < 50; ++y)
      for (int x = 40; x < 80; ++x) frame.set(x, y, lamp[0], lamp[1], lamp[2]);
    for (int k = 0; k <= t; ++k)
      for (int y = 60; y < 70; ++y)
        for (int x = 10 + 18 * k; x < 22 + 18 * k; ++x) frame.set(x, y, 200, 200, 200);
  }

 private:
  memory_cue_state initial_state(std::mt19937_64& rng) override {
    return {std::uniform_int_distribution<int>(0, 1)(rng), 0};
  }

  step_result advance(const float* action) override {
    if (state_.t < answer_step) {  // the answer is not asked for yet
      ++state_.t;
      return {0.0, false, false};
    }
    return {static_cast<int>(action[0]) == state_.cue ? 1.0 : -1.0, true, false};
  }

  void write_observation(float* observation) const override {
    observation[0] = state_.t == 0 && state_.cue == 0 ? 1.f : 0.f;
    observation[1] = state_.t == 0 && state_.cue == 1 ? 1.f : 0.f;
    observation[2] = state_.t == answer_step ? 1.f : 0.f;
  }
};

}  // namespace troupe::envs::examples
