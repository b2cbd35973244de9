#pragma once
// Example/Corridor-v0: a walk along a row of cells, the example of adding an
// environment (README, "Adding an environment"). The agent starts in one of
// the first few cells and walks left or right; reaching the last cell ends the
// episode with a reward of +1, every other step costs 0.01, and walking into
// the left wall leaves the agent where it is. The observation is the agent's
// cell, one-hot.
//
// An environment is its dynamics; envs/episode_env.hpp keeps the spec, the
// state, the step count with the time limit, and the reset generator. Here:
// named constants, the spec, how an episode starts, what a step does, what is
// observed, and (optionally) render. One line in envs/examples/example_envs.cpp's
// table makes it known to every runner.
#include <algorithm>
#include <random>

#include "envs/draw.hpp"
#include "envs/episode_env.hpp"

namespace troupe::envs::examples {

// The state is the agent's cell.
class corridor final : public episode_env<int> {
 public:
  static constexpr int num_cells = 8;
  static constexpr int goal_cell = num_cells - 1;
  static constexpr int start_cells = 3;  // the start is uniform over cells [0, 3)
  static constexpr int left = 0, right = 1;
  static constexpr double step_reward = -0.01;
  static constexpr double goal_reward = 1.0;
  static constexpr int max_steps = 100;  // then the episode is truncated
  static constexpr int cell_pixels = 40;  // rendered size of one cell

  corridor()
      : episode_env({"Example/Corridor-v0",
                     space::box_space({num_cells}, std::vector<double>(num_cells, 0.0),
                                      std::vector<double>(num_cells, 1.0)),
                     space::discrete_space(2), max_steps}) {}

  // A row of grey cells, the goal green, the agent a blue disc.
  void render(rgb_frame& frame) const override {
    constexpr draw::color wall{40, 40, 40}, floor{200, 200, 200};
    constexpr draw::color goal{80, 180, 80}, agent{60, 90, 220};
    frame.resize(num_cells * cell_pixels, cell_pixels);
    draw::clear(frame, wall);
    for (int c = 0; c < num_cells; ++c)
      draw::fill_rect(frame, c * cell_pixels + 2, 2, (c + 1) * cell_pixels - 2, cell_pixels - 2,
                      c == goal_cell ? goal : floor);
    draw::fill_circle(frame, {(state() + 0.5) * cell_pixels, 0.5 * cell_pixels},
                      0.35 * cell_pixels, agent);
  }

  int position() const { return state(); }

 private:
  int initial_state(std::mt19937_64& rng) override {
    return std::uniform_int_distribution<int>(0, start_cells - 1)(rng);
  }

  // A discrete action arrives as its index in a float.
  step_result advance(const float* action) override {
    const int move = static_cast<int>(action[0]) == right ? 1 : -1;
    state_ = std::clamp(state_ + move, 0, goal_cell);
    const bool at_goal = state_ == goal_cell;
    return {at_goal ? goal_reward : step_reward, at_goal, false};
  }

  // One-hot of the agent's cell.
  void write_observation(float* observation) const override {
    std::fill(observation, observation + num_cells, 0.0f);
    observation[state_] = 1.0f;
  }
};

}  // namespace troupe::envs::examples
