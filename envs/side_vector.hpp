#pragma once
// One policy's side of k simultaneous-move games (envs/simultaneous_vector.hpp),
// seen as the vector of environments an agent steps: row g is game g from
// the side the learning policy plays there, and the other side is played by
// `opponents` (envs/seat_vector.hpp's: a built-in player, or the snapshots of
// self-play), whose moves of all k games are asked for together, from the
// same state the policy saw. A step is one step of every game with both
// sides' actions, the games stepped in one batch; its reward is what the
// policy's side got. When the other side's agent leaves a game first
// (joint_result::left) the policy plays on alone there, the opponent no
// longer asked; when the policy's agent leaves, its episode ends, and the
// game with it.
#include <cstdint>
#include <memory>
#include <vector>

#include "envs/env_vector.hpp"
#include "envs/seat_vector.hpp"
#include "envs/simultaneous_vector.hpp"

namespace troupe::envs {

class side_vector final : public env_vector {
 public:
  // Two-agent games; `sides`: first is agent 0's side, second agent 1's,
  // alternate drawn per episode from its seed (when the agents' spaces are
  // the same: specs_of_sides).
  side_vector(std::unique_ptr<simultaneous_vector> games, seat_choice sides, std::unique_ptr<opponents> others);
  // Games of this process (a native_simultaneous_vector of them).
  side_vector(std::vector<std::unique_ptr<simultaneous_env>> games, seat_choice sides,
              std::unique_ptr<opponents> others);

  // The learning side's spaces.
  const env_spec& spec() const override { return *specs_.own; }
  int size() const override { return games_->size(); }
  void reset(const std::uint64_t* seeds, float* observations) override;
  void reset_one(int i, std::uint64_t seed, float* observation) override;
  void step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
            step_result* results, float* final_observations) override;
  void action_masks(std::uint8_t* masks) const override;
  bool can_render() const override { return games_->can_render(); }
  bool render(int i, rgb_frame& frame) override { return games_->render(i, frame); }
  bool other_seat(int i, other_seat_view& view) const override;

  // The side the learning policy plays in game g this episode (0 or 1).
  int side(int g) const { return sides_[size_t(g)]; }

 private:
  // Resets the listed games (seeds[i] for games[i]).
  void begin(const std::vector<int>& games, const std::uint64_t* seeds);

  std::unique_ptr<simultaneous_vector> games_;
  seat_choice choice_;
  std::unique_ptr<opponents> others_;
  side_specs specs_;
  side_sizes own_, other_;  // the learning side's, the other side's
  std::vector<int> sides_;
  std::vector<double> returns_;  // the policy's side's return this episode
  std::vector<std::uint8_t> over_;
  std::vector<std::uint8_t> moved_;       // the other side has moved this episode
  std::vector<std::uint8_t> other_left_;  // the other side's agent has left the game
  // The batches, reused: other_actions_ and other_masks_ by game, the rows
  // asked of the opponents (other_obs_, asked_masks_, answers_) packed.
  std::vector<int> all_, asked_;
  std::vector<float> other_obs_, other_actions_, answers_, joint_;
  std::vector<std::uint8_t> other_masks_, asked_masks_;
  std::vector<joint_result> results_;
};

}  // namespace troupe::envs
