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
    throw std::invalid_argument("side_vector: two-agent games expected (" + games_->spec().id + " has " +
                                std::to_string(games_->agent_count()) + " agents)");
  specs_ = specs_of_sides(games_->agent_spec(0), games_->agent_spec(1), sides, games_->agent_name(0),
                          games_->agent_name(1));
  own_ = side_sizes(*specs_.own);
  other_ = side_sizes(*specs_.other);
  const size_t k = size_t(size());
  sides_.assign(k, 0);
  returns_.assign(k, 0.0);
  over_.assign(k, 0);
  moved_.assign(k, 0);
  other_left_.assign(k, 0);
  all_.resize(k);
  for (size_t g = 0; g < k; ++g) all_[g] = int(g);
  other_obs_.resize(k * size_t(other_.obs));
  other_actions_.resize(k * size_t(other_.action));
  other_masks_.resize(k * size_t(other_.mask));
  asked_masks_.resize(k * size_t(other_.mask));
  answers_.resize(k * size_t(other_.action));
  joint_.resize(k * size_t(own_.action + other_.action));
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
  for (int g = 0; g < size(); ++g) games_->observe(g, side(g), observations + size_t(g) * own_.obs);
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
  const size_t obs = size_t(other_.obs), choices = size_t(other_.mask);
  for (int g = 0; g < size(); ++g) {
    if (over_[size_t(g)])
      throw std::logic_error(spec().id + ": game " + std::to_string(g) + " stepped after its end without a reset");
    if (other_left_[size_t(g)]) continue;
    const size_t r = asked_.size();
    asked_.push_back(g);
    games_->observe(g, 1 - side(g), &other_obs_[r * obs]);
    if (choices > 0) {
      games_->action_mask(g, 1 - side(g), &other_masks_[size_t(g) * choices]);
      std::copy_n(&other_masks_[size_t(g) * choices], choices, &asked_masks_[r * choices]);
    }
  }
  // A game's joint row is agent 0's action, then agent 1's.
  const size_t mine_width = size_t(own_.action), theirs_width = size_t(other_.action),
               row_width = mine_width + theirs_width;
  if (!asked_.empty())
    others_->act(asked_.data(), int(asked_.size()), other_obs_.data(), choices > 0 ? asked_masks_.data() : nullptr,
                 answers_.data());
  for (size_t r = 0; r < asked_.size(); ++r) {
    const size_t g = size_t(asked_[r]);
    std::copy_n(&answers_[r * theirs_width], theirs_width, &other_actions_[g * theirs_width]);
    moved_[g] = 1;  // other_actions_ holds its last move
  }
  for (int g = 0; g < size(); ++g) {
    const float* mine = actions + size_t(g) * mine_width;
    float* row = &joint_[size_t(g) * row_width];
    float* mine_in_row = row + (side(g) == 0 ? 0 : theirs_width);
    float* theirs_in_row = row + (side(g) == 0 ? mine_width : 0);
    std::copy_n(mine, mine_width, mine_in_row);
    if (other_left_[size_t(g)])
      std::fill_n(theirs_in_row, theirs_width, 0.f);  // a departed agent's row is ignored
    else
      std::copy_n(&other_actions_[size_t(g) * theirs_width], theirs_width, theirs_in_row);
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
    games_->observe(g, side(g), final_observations + size_t(g) * own_.obs);
    others_->end_episode(g, returns_[size_t(g)]);
    if (reset_seeds) {
      restarted.push_back(g);
      restart_seeds.push_back(reset_seeds[g]);
    }
  }
  begin(restarted, restart_seeds.data());
  for (int g = 0; g < size(); ++g) games_->observe(g, side(g), observations + size_t(g) * own_.obs);
}

void side_vector::action_masks(std::uint8_t* masks) const {
  for (int g = 0; g < size(); ++g) games_->action_mask(g, side(g), masks + size_t(g) * own_.mask);
}

bool side_vector::other_seat(int i, other_seat_view& view) const {
  const size_t g = size_t(i), a = size_t(other_.action), m = size_t(other_.mask);
  view = {};
  view.learner_seat = sides_[g];
  view.action_space = specs_.other->action;
  if (moved_[g]) {
    view.action.assign(other_actions_.begin() + long(g * a), other_actions_.begin() + long((g + 1) * a));
    if (other_masks_.size() >= (g + 1) * m)
      view.legal.assign(other_masks_.begin() + long(g * m), other_masks_.begin() + long((g + 1) * m));
  }
  others_->describe(i, view);
  return true;
}

}  // namespace troupe::envs
