#include "games/side_vector.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

namespace troupe::games {

side_vector::side_vector(std::unique_ptr<simultaneous_vector> games, seat_choice sides,
                         std::unique_ptr<opponents> others, std::vector<int> team)
    : games_(std::move(games)), choice_(sides), others_(std::move(others)), team_(std::move(team)) {
  if (!games_ || games_->size() < 1 || !others_)
    throw std::invalid_argument("side_vector: games and their opponents expected");
  agents_ = games_->agent_count();
  if (agents_ < 2)
    throw std::invalid_argument("side_vector: games of two or more agents expected (" + games_->spec().id +
                                " has " + std::to_string(agents_) + ")");
  std::vector<const env_spec*> specs;
  std::vector<std::string> names;
  for (int a = 0; a < agents_; ++a) {
    specs.push_back(&games_->agent_spec(a));
    names.push_back(games_->agent_name(a));
    action_at_.push_back(joint_width_);
    joint_width_ += size_t(specs.back()->action.flat_size());
  }
  team_ = checked_team(std::move(team_), agents_, sides, "side_vector");
  specs_ = specs_of_side(specs, names, sides, team_);
  own_ = side_sizes(*specs_.own);
  other_ = side_sizes(*specs_.other);
  per_game_ = sides == seat_choice::all ? int(team_.size()) : 1;
  const size_t k = size_t(games_->size()), n = size_t(agents_);
  rows_agent_.assign(k * size_t(per_game_), 0);
  in_side_.assign(k * n, 0);
  gone_.assign(k * n, 0);
  returns_.assign(rows_agent_.size(), 0.0);
  over_.assign(k, 0);
  moved_.assign(k, 0);
  all_.resize(k);
  for (size_t g = 0; g < k; ++g) all_[g] = int(g);
  other_actions_.assign(k * n * size_t(other_.action), 0.f);
  other_masks_.assign(k * n * size_t(other_.mask), 0);
  joint_.resize(k * joint_width_);
  results_.resize(k);
}

side_vector::side_vector(std::vector<std::unique_ptr<simultaneous_env>> games, seat_choice sides,
                         std::unique_ptr<opponents> others, std::vector<int> team)
    : side_vector(games.empty() ? nullptr : std::make_unique<native_simultaneous_vector>(std::move(games)), sides,
                  std::move(others), std::move(team)) {}

void side_vector::begin(const std::vector<int>& games, const std::uint64_t* seeds) {
  // As seat_vector: the side, the game and the opponent each draw from the
  // episode's seed.
  std::vector<std::uint64_t> player_seeds(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    std::mt19937_64 rng(seeds[i]);
    const std::uint64_t side_draw = rng();
    player_seeds[i] = rng();
    const int g = games[i];
    const size_t first_row = size_t(g) * size_t(per_game_);
    if (choice_ == seat_choice::all) {
      for (int j = 0; j < per_game_; ++j) rows_agent_[first_row + size_t(j)] = team_[size_t(j)];
    } else {
      const int fixed = seat_agent(choice_);
      rows_agent_[first_row] = fixed >= 0 ? fixed : team_[size_t(side_draw % std::uint64_t(team_.size()))];
    }
    for (int a = 0; a < agents_; ++a) in_side_[size_t(g * agents_ + a)] = gone_[size_t(g * agents_ + a)] = 0;
    for (int j = 0; j < per_game_; ++j) {
      in_side_[size_t(g * agents_ + agent_of_row(int(first_row) + j))] = 1;
      returns_[first_row + size_t(j)] = 0.0;
    }
    over_[size_t(g)] = moved_[size_t(g)] = 0;
  }
  if (games.empty()) return;
  games_->reset(games.data(), int(games.size()), seeds);
  for (size_t i = 0; i < games.size(); ++i) others_->start_episode(games[i], player_seeds[i]);
}

void side_vector::observe_rows(float* observations) const {
  for (int r = 0; r < size(); ++r)
    games_->observe(r / per_game_, agent_of_row(r), observations + size_t(r) * size_t(own_.obs));
}

void side_vector::reset(const std::uint64_t* seeds, float* observations) {
  std::vector<std::uint64_t> game_seeds(all_.size());
  for (size_t g = 0; g < all_.size(); ++g) game_seeds[g] = seeds[g * size_t(per_game_)];
  begin(all_, game_seeds.data());
  observe_rows(observations);
}

void side_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  if (per_game_ != 1)
    throw std::logic_error(spec().id + ": row " + std::to_string(i) +
                           " is one agent of a game the policy plays several agents of; it cannot start alone");
  begin({i}, &seed);
  games_->observe(i, side(i), observation);
}

void side_vector::step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
                       step_result* results, float* final_observations) {
  // Every agent outside the side still in its game moves from the state the
  // policy saw; their rows are packed for one call.
  asked_games_.clear();
  asked_agents_.clear();
  const size_t obs = size_t(other_.obs), choices = size_t(other_.mask), theirs = size_t(other_.action),
               mine = size_t(own_.action), n = size_t(agents_);
  for (int g = 0; g < games_->size(); ++g) {
    if (over_[size_t(g)])
      throw std::logic_error(spec().id + ": game " + std::to_string(g) + " stepped after its end without a reset");
    for (int a = 0; a < agents_; ++a)
      if (!in_side(g, a) && !gone_[size_t(g) * n + size_t(a)]) {
        asked_games_.push_back(g);
        asked_agents_.push_back(a);
      }
  }
  const size_t asked = asked_games_.size();
  asked_obs_.resize(asked * obs);
  asked_masks_.resize(asked * choices);
  answers_.resize(asked * theirs);
  for (size_t r = 0; r < asked; ++r) {
    const int g = asked_games_[r], a = asked_agents_[r];
    games_->observe(g, a, &asked_obs_[r * obs]);
    if (choices > 0) {
      std::uint8_t* mask = &other_masks_[(size_t(g) * n + size_t(a)) * choices];
      games_->action_mask(g, a, mask);
      std::copy_n(mask, choices, &asked_masks_[r * choices]);
    }
  }
  if (asked > 0)
    others_->act(asked_games_.data(), asked_agents_.data(), int(asked), asked_obs_.data(),
                     choices > 0 ? asked_masks_.data() : nullptr, answers_.data());
  for (size_t r = 0; r < asked; ++r) {
    const size_t g = size_t(asked_games_[r]), a = size_t(asked_agents_[r]);
    std::copy_n(&answers_[r * theirs], theirs, &other_actions_[(g * n + a) * theirs]);
    moved_[g] = 1;  // other_actions_ holds their last moves
  }
  // A game's joint row is every agent's action in agent order; a departed
  // agent's is ignored by the game, and zero.
  for (int g = 0; g < games_->size(); ++g) {
    float* row = &joint_[size_t(g) * joint_width_];
    for (int a = 0; a < agents_; ++a) {
      const size_t slot = size_t(g) * n + size_t(a);
      if (!in_side(g, a))
        std::copy_n(&other_actions_[slot * theirs], theirs, row + action_at_[size_t(a)]);
      if (gone_[slot]) std::fill_n(row + action_at_[size_t(a)], theirs, 0.f);
    }
    for (int j = 0; j < per_game_; ++j) {
      const int r = g * per_game_ + j;
      std::copy_n(actions + size_t(r) * mine, mine, row + action_at_[size_t(agent_of_row(r))]);
    }
  }
  games_->step(all_.data(), games_->size(), joint_.data(), results_.data());
  std::vector<int> restarted;
  std::vector<std::uint64_t> restart_seeds;
  for (int g = 0; g < games_->size(); ++g) {
    const joint_result& res = results_[size_t(g)];
    // The side's episode in this game ends with the game, or when one of
    // its agents leaves (the others of a team cut there).
    bool side_left = false;
    for (int j = 0; j < per_game_; ++j) side_left = side_left || res.end_of(agent_of_row(g * per_game_ + j)) != 0;
    const bool ends = side_left || res.terminated || res.truncated;
    double game_return = 0.0;
    for (int j = 0; j < per_game_; ++j) {
      const int r = g * per_game_ + j, a = agent_of_row(r);
      step_result& out = results[r];
      out.reward = res.rewards.at(size_t(a));
      if (const std::uint8_t mine_left = res.end_of(a)) {
        out.terminated = mine_left == joint_result::agent_terminated;
        out.truncated = mine_left == joint_result::agent_truncated;
      } else if (res.terminated || res.truncated) {
        out.terminated = res.terminated;
        out.truncated = !res.terminated;
      } else {
        out.terminated = false;
        out.truncated = side_left;
      }
      returns_[size_t(r)] += out.reward;
      game_return += returns_[size_t(r)] / per_game_;
    }
    for (int a = 0; a < agents_; ++a)
      if (!in_side(g, a) && res.end_of(a)) gone_[size_t(g) * n + size_t(a)] = 1;
    if (!ends) continue;
    over_[size_t(g)] = 1;
    for (int j = 0; j < per_game_; ++j) {
      const int r = g * per_game_ + j;
      games_->observe(g, agent_of_row(r), final_observations + size_t(r) * size_t(own_.obs));
    }
    others_->end_episode(g, game_return);
    if (reset_seeds) {
      restarted.push_back(g);
      restart_seeds.push_back(reset_seeds[size_t(g) * size_t(per_game_)]);
    }
  }
  begin(restarted, restart_seeds.data());
  observe_rows(observations);
}

void side_vector::action_masks(std::uint8_t* masks) const {
  for (int r = 0; r < size(); ++r)
    games_->action_mask(r / per_game_, agent_of_row(r), masks + size_t(r) * size_t(own_.mask));
}

bool side_vector::other_seat(int i, other_seat_view& view) const {
  const int g = i / per_game_;
  const size_t a = size_t(other_.action), m = size_t(other_.mask), n = size_t(agents_);
  view = {};
  view.learner_seat = agent_of_row(i);
  view.action_space = specs_.other->action;
  if (per_game_ == agents_) return false;  // no agent outside the side
  int first_other = 0;
  while (in_side(g, first_other)) ++first_other;
  const size_t slot = size_t(g) * n + size_t(first_other);
  if (moved_[size_t(g)]) {
    view.action.assign(other_actions_.begin() + long(slot * a), other_actions_.begin() + long((slot + 1) * a));
    view.legal.assign(other_masks_.begin() + long(slot * m), other_masks_.begin() + long((slot + 1) * m));
  }
  others_->describe(g, view);
  return true;
}

}  // namespace troupe::games
