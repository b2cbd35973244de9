#include "games/builtin/nim_game.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "envs/draw.hpp"

namespace troupe::games {

using envs::space;

nim_game::nim_game()
    : spec_{id,
            space::box_space({observation_size}, std::vector<double>(observation_size, 0.0),
                             std::vector<double>(observation_size, 1.0)),
            space::discrete_space(most_taken), 0} {
  spec_.has_action_mask = true;
  spec_.action_labels = {"take 1", "take 2", "take 3"};
}

void nim_game::reset(std::uint64_t) { set(pile, 0); }

void nim_game::set(int counters, int mover) {
  if (counters < 1 || counters > pile || mover < 0 || mover >= players)
    throw std::invalid_argument(std::string(id) + ": no state of " + std::to_string(counters) +
                                " counters with player " + std::to_string(mover) + " to move");
  left_ = counters;
  mover_ = mover;
}

void nim_game::observe(int agent, float* observation) const {
  std::fill_n(observation, observation_size, 0.f);
  observation[left_] = 1.f;
  observation[pile + 1 + (mover_ - agent + players) % players] = 1.f;
}

void nim_game::action_mask(std::uint8_t* legal) const {
  for (int k = 0; k < most_taken; ++k) legal[k] = k + 1 <= left_;
}

turn_result nim_game::step(const float* action) {
  const float a = action[0];
  if (!(a >= 0 && a < most_taken && a == float(int(a))) || int(a) + 1 > left_)
    throw std::invalid_argument(std::string(id) + ": action " + std::to_string(a) + " takes no 1-3 of the " +
                                std::to_string(left_) + " counters left");
  left_ -= int(a) + 1;
  turn_result result;
  result.rewards.assign(players, 0.0);
  if (left_ == 0) {
    for (int p = 0; p < players; ++p) result.rewards[size_t(p)] = p == mover_ ? win : loss;
    result.terminated = true;
    return result;
  }
  mover_ = (mover_ + 1) % players;
  return result;
}

void nim_game::render(rgb_frame& frame) const {
  constexpr int cell = 32, width = pile * cell, height = 3 * cell;
  constexpr envs::draw::color background{25, 25, 35}, counter{230, 200, 90}, taken{55, 55, 70};
  constexpr envs::draw::color colours[players] = {{220, 60, 50}, {60, 170, 90}, {70, 120, 230}};
  frame.resize(width, height);
  envs::draw::clear(frame, background);
  for (int c = 0; c < pile; ++c)
    envs::draw::fill_circle(frame, {(c + 0.5) * cell, 1.0 * cell}, cell * 0.38, c < left_ ? counter : taken);
  // The players along the bottom, the one to move drawn larger.
  for (int p = 0; p < players; ++p) {
    const double x = (p + 0.5) * width / players;
    envs::draw::fill_circle(frame, {x, 2.3 * cell}, cell * (p == mover_ && left_ > 0 ? 0.45 : 0.25), colours[p]);
  }
}

}  // namespace troupe::games
