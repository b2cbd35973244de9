#include "envs/side_vector.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace troupe::envs {

side_vector::side_vector(std::unique_ptr<simultaneous_vector> games, seat_choice sides,
                         std::unique_ptr<opponents> others)
    : games_(std::move(games)), choice_(sides), others_(std::move(others)) {
  if (!games_ || games_->size() < 1 || !others_)
    throw std::invalid_argument("side_vector: games and their opponents expected");
  if (games_->agent_count() != 2)
    throw std::invalid_argument("side_vector: two-agent games expected (" + spec().id + " has " +
                                std::to_string(games_->agent_count()) + " agents)");
  const env_spec& s = spec();
  obs_size_ = s.observation.flat_size();
  action_size_ = s.action.flat_size();
  mask_size_ = s.has_action_mask ? s.action.choice_count() : 0;
  const size_t k = size_t(size());
  sides_.assign(k, 0);
  returns_.assign(k, 0.0);
  over_.assign(k, 0);
  moved_.assign(k, 0);
  other_left_.assign(k, 0);
  all_.resize(k);
  for (size_t g = 0; g < k; ++g) all_[g] = int(g);
  other_obs_.resize(k * size_t(obs_size_));
  other_actions_.resize(k * size_t(action_size_));
  other_masks_.resize(k * size_t(mask_size_));
  asked_masks_.resize(k * size_t(mask_size_));
  answers_.resize(k * size_t(action_size_));
  joint_.resize(k * 2 * size_t(action_size_));
  results_.resize(k);
}

side_vector::side_vector(std::vector<std::unique_ptr<simultaneous_env>> games, seat_choice sides,
                         std::unique_ptr<opponents> others)
    : side_vector(games.empty() ? nullptr : std::make_unique<native_simultaneous_vector>(std::move(games)), sides,
                  std::move(others)) {}

void side_vector::begin(const std::vector<int>& games, const std::uint64_t* seeds) {
  // As seat_vector: the side, the game and the opponent each draw from the
  // episode's seed.
  std::vector<std::uint64_t> player_seeds(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    std::mt19937_64 rng(seeds[i]);
    const std::uint64_t side_draw = rng();
    player_seeds[i] = rng();
    const size_t g = size_t(games[i]);
    sides_[g] = choice_ == seat_choice::first ? 0 : choice_ == seat_choice::second ? 1 : int(side_draw % 2);
    returns_[g] = 0.0;
    over_[g] = moved_[g] = other_left_[g] = 0;
  }
  if (games.empty()) return;
  games_->reset(games.data(), int(games.size()), seeds);
  for (size_t i = 0; i < games.size(); ++i) others_->start_episode(games[i], player_seeds[i]);
}

void side_vector::reset(const std::uint64_t* seeds, float* observations) {
  begin(all_, seeds);
  for (int g = 0; g < size(); ++g) games_->observe(g, side(g), observations + size_t(g) * obs_size_);
}

void side_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  begin({i}, &seed);
  games_->observe(i, side(i), observation);
}

void side_vector::step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
                       step_result* results, float* final_observations) {
  // The other side of every game it has not left moves from the state the
  // policy saw; their rows are packed for one call.
  asked_.clear();
  for (int g = 0; g < size(); ++g) {
    if (over_[size_t(g)])
      throw std::logic_error(spec().id + ": game " + std::to_string(g) + " stepped after its end without a reset");
    if (other_left_[size_t(g)]) continue;
    const size_t r = asked_.size();
    asked_.push_back(g);
    games_->observe(g, 1 - side(g), &other_obs_[r * obs_size_]);
    if (mask_size_ > 0) {
      games_->action_mask(g, 1 - side(g), &other_masks_[size_t(g) * mask_size_]);
      std::copy_n(&other_masks_[size_t(g) * mask_size_], mask_size_, &asked_masks_[r * mask_size_]);
    }
  }
  const size_t a = size_t(action_size_);
  if (!asked_.empty())
    others_->act(asked_.data(), int(asked_.size()), other_obs_.data(), mask_size_ > 0 ? asked_masks_.data() : nullptr,
                 answers_.data());
  for (size_t r = 0; r < asked_.size(); ++r) {
    const size_t g = size_t(asked_[r]);
    std::copy_n(&answers_[r * a], a, &other_actions_[g * a]);
    moved_[g] = 1;  // other_actions_ holds its last move
  }
  for (int g = 0; g < size(); ++g) {
    const float* mine = actions + size_t(g) * a;
    float* row = &joint_[size_t(g) * 2 * a];
    float* theirs_in_row = row + (side(g) == 0 ? a : 0);
    std::copy_n(mine, a, row + (side(g) == 0 ? 0 : a));
    if (other_left_[size_t(g)])
      std::fill_n(theirs_in_row, a, 0.f);  // a departed agent's row is ignored
    else
      std::copy_n(&other_actions_[size_t(g) * a], a, theirs_in_row);
  }
  games_->step(all_.data(), size(), joint_.data(), results_.data());
  std::vector<int> restarted;
  std::vector<std::uint64_t> restart_seeds;
  for (int g = 0; g < size(); ++g) {
    const joint_result& r = results_[size_t(g)];
    step_result& out = results[g];
    out.reward = r.rewards.at(size_t(side(g)));
    // The policy's side ends when its agent leaves, or with the game.
    const std::uint8_t mine_left = r.left.empty() ? 0 : r.left.at(size_t(side(g)));
    const std::uint8_t theirs_left = r.left.empty() ? 0 : r.left.at(size_t(1 - side(g)));
    out.terminated = mine_left ? mine_left == joint_result::agent_terminated : r.terminated;
    out.truncated = mine_left ? mine_left == joint_result::agent_truncated : r.truncated && !r.terminated;
    if (theirs_left) other_left_[size_t(g)] = 1;
    returns_[size_t(g)] += out.reward;
    if (!out.terminated && !out.truncated) continue;
    over_[size_t(g)] = 1;
    games_->observe(g, side(g), final_observations + size_t(g) * obs_size_);
    others_->end_episode(g, returns_[size_t(g)]);
    if (reset_seeds) {
      restarted.push_back(g);
      restart_seeds.push_back(reset_seeds[g]);
    }
  }
  begin(restarted, restart_seeds.data());
  for (int g = 0; g < size(); ++g) games_->observe(g, side(g), observations + size_t(g) * obs_size_);
}

void side_vector::action_masks(std::uint8_t* masks) const {
  for (int g = 0; g < size(); ++g) games_->action_mask(g, side(g), masks + size_t(g) * mask_size_);
}

bool side_vector::other_seat(int i, other_seat_view& view) const {
  const size_t g = size_t(i), a = size_t(action_size_), m = size_t(mask_size_);
  view = {};
  view.learner_seat = sides_[g];
  if (moved_[g]) {
    view.action.assign(other_actions_.begin() + long(g * a), other_actions_.begin() + long((g + 1) * a));
    if (other_masks_.size() >= (g + 1) * m)
      view.legal.assign(other_masks_.begin() + long(g * m), other_masks_.begin() + long((g + 1) * m));
  }
  others_->describe(i, view);
  return true;
}

}  // namespace troupe::envs
