#pragma once
// Example/Corridor-v0: a walk along a row of cells, the example of adding an
// environment (README, "Adding an environment"). The agent starts in one of
// the first few cells and walks left or right; reaching the last cell ends the
// episode with a reward of +1, every other step costs 0.01, and walking into
// the left wall leaves the agent where it is. The observation is the agent's
// cell, one-hot.
//
// Everything an environment needs is here: named constants, a spec, reset
// with a seed, step returning a step_result, and (optionally) render. One
// line in envs/registry.cpp's table makes it known to every runner.
#include <algorithm>
#include <random>

#include "envs/draw.hpp"
#include "envs/env.hpp"
#include "envs/render.hpp"

namespace troupe::envs::examples {

class corridor final : public env, public renderable {
 public:
  static constexpr int num_cells = 8;
  static constexpr int goal_cell = num_cells - 1;
  static constexpr int start_cells = 3;  // the start is uniform over cells [0, 3)
  static constexpr int left = 0, right = 1;
  static constexpr double step_reward = -0.01;
  static constexpr double goal_reward = 1.0;
  static constexpr int max_steps = 100;
  static constexpr int cell_pixels = 40;  // rendered size of one cell

  corridor() {
    spec_.id = "Example/Corridor-v0";
    spec_.observation = space::box_space({num_cells}, std::vector<double>(num_cells, 0.0),
                                         std::vector<double>(num_cells, 1.0));
    spec_.action = space::discrete_space(2);
    spec_.max_episode_steps = max_steps;
  }

  const env_spec& spec() const override { return spec_; }

  void reset(std::uint64_t seed, float* observation) override {
    rng_.seed(seed);
    position_ = std::uniform_int_distribution<int>(0, start_cells - 1)(rng_);
    steps_ = 0;
    write_observation(observation);
  }

  step_result step(const float* action, float* observation) override {
    const int move = static_cast<int>(action[0]) == right ? 1 : -1;
    position_ = std::clamp(position_ + move, 0, goal_cell);
    ++steps_;
    step_result result;
    result.terminated = position_ == goal_cell;
    result.reward = result.terminated ? goal_reward : step_reward;
    result.truncated = !result.terminated && steps_ >= max_steps;  // the episode limit
    write_observation(observation);
    return result;
  }

  // A row of grey cells, the goal green, the agent a blue disc.
  void render(rgb_frame& frame) const override {
    constexpr draw::color wall{40, 40, 40}, floor{200, 200, 200};
    constexpr draw::color goal{80, 180, 80}, agent{60, 90, 220};
    frame.resize(num_cells * cell_pixels, cell_pixels);
    draw::clear(frame, wall);
    for (int c = 0; c < num_cells; ++c)
      draw::fill_rect(frame, c * cell_pixels + 2, 2, (c + 1) * cell_pixels - 2, cell_pixels - 2,
                      c == goal_cell ? goal : floor);
    draw::fill_circle(frame, {(position_ + 0.5) * cell_pixels, 0.5 * cell_pixels},
                      0.35 * cell_pixels, agent);
  }

  int position() const { return position_; }

 private:
  void write_observation(float* observation) const {
    std::fill(observation, observation + num_cells, 0.0f);
    observation[position_] = 1.0f;
  }

  env_spec spec_;
  int position_ = 0;
  int steps_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace troupe::envs::examples
