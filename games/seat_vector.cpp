#include "games/seat_vector.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "envs/env_error.hpp"
#include "envs/uniform_action.hpp"

namespace troupe::games {

using envs::draw_uniform_action;
using envs::env_key_error;
using envs::space;

seat_vector::seat_vector(std::unique_ptr<game_vector> games, seat_choice seats, std::unique_ptr<opponents> others,
                         std::vector<int> team, opening_options opening)
    : games_(std::move(games)),
      choice_(seats),
      others_(std::move(others)),
      team_(std::move(team)),
      opening_(opening) {
  if (!games_ || games_->size() < 1 || !others_)
    throw std::invalid_argument("seat_vector: games and their opponents expected");
  agents_ = games_->agent_count();
  if (agents_ < 2)
    throw std::invalid_argument("seat_vector: games of two or more agents expected (" + games_->spec().id + " has " +
                                std::to_string(agents_) + ")");
  if (seats == seat_choice::all && games_->turn_based())
    throw env_key_error("env.seat", games_->spec().id +
                                        " is turn-based: one agent moves at a time, so a policy plays one seat of "
                                        "it (first, second, ... or alternate); all is for simultaneous games");
  std::vector<const env_spec*> specs;
  std::vector<std::string> names;
  size_t joint_width = 0;  // a simultaneous step's: every agent's action
  for (int a = 0; a < agents_; ++a) {
    specs.push_back(&games_->agent_spec(a));
    names.push_back(games_->agent_name(a));
    joint_width += size_t(specs.back()->action.flat_size());
    const space& action = specs.back()->action;
    categories_.push_back(action.categories());
    if (opening_.probability > 0 && (action.categories().empty() || action.continuous_size() > 0))
      throw env_key_error("selfplay.random_opening.probability",
                          games_->spec().id + ": " + names.back() + "'s actions (" + action.describe() +
                              ") are not discrete, so no move of it can be drawn at random");
  }
  team_ = checked_team(std::move(team_), agents_, seats, "seat_vector");
  sides_ = specs_of_side(specs, names, seats, team_);
  own_ = side_sizes(*sides_.own);
  other_ = side_sizes(*sides_.other);
  per_game_ = seats == seat_choice::all ? int(team_.size()) : 1;
  const size_t k = size_t(games_->size()), n = size_t(agents_), rows = k * size_t(per_game_);
  rows_agent_.assign(rows, 0);
  pending_.assign(rows, 0.0);
  returns_.assign(rows, 0.0);
  truncated_.assign(rows, 0);
  in_side_.assign(k * n, 0);
  gone_.assign(k * n, 0);
  over_.assign(k, 0);
  shown_.assign(k, -1);
  other_actions_.assign(k * n * size_t(other_.action), 0.f);
  other_masks_.assign(k * n * size_t(other_.mask), 0);
  joint_.reserve(k * joint_width);
  others_->play_in(*games_);
}

seat_vector::seat_vector(std::vector<std::unique_ptr<turn_based_env>> games, seat_choice seats,
                         std::unique_ptr<opponents> others, std::vector<int> team, opening_options opening)
    : seat_vector(games.empty() ? nullptr : std::make_unique<native_game_vector>(std::move(games)), seats,
                  std::move(others), std::move(team), opening) {}

seat_vector::seat_vector(std::vector<std::unique_ptr<simultaneous_env>> games, seat_choice seats,
                         std::unique_ptr<opponents> others, std::vector<int> team)
    : seat_vector(games.empty() ? nullptr : std::make_unique<native_game_vector>(std::move(games)), seats,
                  std::move(others), std::move(team)) {}

void seat_vector::begin(const std::vector<int>& games, const std::uint64_t* seeds) {
  std::vector<std::uint64_t> player_seeds(games.size()), opening_draws(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    // The seat, the opponents and the opening each draw from the episode's
    // seed; the game is reset with the seed itself.
    std::mt19937_64 rng(seeds[i]);
    const std::uint64_t seat_draw = rng();
    player_seeds[i] = rng();
    opening_draws[i] = rng();
    const int g = games[i];
    const size_t first_row = size_t(g) * size_t(per_game_);
    if (choice_ == seat_choice::all) {
      for (int j = 0; j < per_game_; ++j) rows_agent_[first_row + size_t(j)] = team_[size_t(j)];
    } else {
      const int fixed = seat_agent(choice_);
      rows_agent_[first_row] = fixed >= 0 ? fixed : team_[size_t(seat_draw % std::uint64_t(team_.size()))];
    }
    for (int a = 0; a < agents_; ++a) in_side_[slot(g, a)] = gone_[slot(g, a)] = 0;
    for (int j = 0; j < per_game_; ++j) {
      const size_t r = first_row + size_t(j);
      in_side_[slot(g, agent_of_row(int(r)))] = 1;
      pending_[r] = returns_[r] = 0.0;
      truncated_[r] = 0;
    }
    over_[size_t(g)] = 0;
    shown_[size_t(g)] = -1;
  }
  if (games.empty()) return;
  games_->reset(games.data(), int(games.size()), seeds);
  for (size_t i = 0; i < games.size(); ++i) others_->start_episode(games[i], player_seeds[i]);
  if (opening_.probability > 0) play_openings(games, opening_draws);
}

void seat_vector::play_openings(const std::vector<int>& games, const std::vector<std::uint64_t>& draws) {
  // Per listed game (by its place in `games`): random steps still to take.
  std::vector<int> left(games.size(), 0);
  std::vector<std::mt19937_64> rngs(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    rngs[i].seed(draws[i]);
    if (std::uniform_real_distribution<double>(0.0, 1.0)(rngs[i]) < opening_.probability)
      left[i] = std::uniform_int_distribution<int>(1, opening_.max_moves)(rngs[i]);
  }
  // Round by round, each round's steps in one batch: every acting agent's
  // action drawn among its legal ones (a departed agent's zeros).
  std::vector<std::uint8_t> mask;
  for (;;) {
    movers_.clear();
    joint_.clear();
    for (size_t i = 0; i < games.size(); ++i) {
      const int g = games[i];
      if (left[i] <= 0 || over_[size_t(g)]) continue;
      movers_.push_back(g);
      --left[i];
      for (int a = 0; a < agents_; ++a) {
        if (!games_->acts_in(g, a)) continue;
        const env_spec& spec = games_->agent_spec(a);
        const side_sizes sizes(spec);
        const size_t at = joint_.size();
        joint_.resize(at + size_t(sizes.action), 0.f);
        if (gone_[slot(g, a)]) continue;
        mask.resize(size_t(sizes.mask));
        if (sizes.mask > 0) games_->action_mask(g, a, mask.data());
        draw_uniform_action(categories_[size_t(a)], sizes.mask > 0 ? mask.data() : nullptr, rngs[i], &joint_[at]);
      }
    }
    if (movers_.empty()) break;
    results_.resize(movers_.size());
    games_->step(movers_.data(), int(movers_.size()), joint_.data(), results_.data());
    for (size_t m = 0; m < movers_.size(); ++m) take(movers_[m], results_[m]);
  }
  // The episode begins after them: nothing is owed to the side yet. A game
  // they ended starts again (start()).
  for (int g : games)
    for (int j = 0; j < per_game_; ++j) pending_[size_t(g * per_game_ + j)] = returns_[size_t(g * per_game_ + j)] = 0.0;
}

void seat_vector::take(int g, const game_result& result) {
  // The side's episode in this game ends with the game, or when one of its
  // agents leaves (a team's others are cut there).
  bool side_left = false;
  for (int j = 0; j < per_game_; ++j) side_left = side_left || result.end_of(agent_of_row(g * per_game_ + j)) != 0;
  const bool ends = side_left || result.terminated || result.truncated;
  for (int j = 0; j < per_game_; ++j) {
    const size_t r = size_t(g * per_game_ + j);
    const int a = agent_of_row(int(r));
    const double reward = result.rewards.at(size_t(a));
    pending_[r] += reward;
    returns_[r] += reward;
    if (!ends) continue;
    if (const std::uint8_t mine = result.end_of(a))
      truncated_[r] = mine == game_result::agent_truncated;
    else
      truncated_[r] = !result.terminated;  // the game was cut, or the row's team-mate left
  }
  for (int a = 0; a < agents_; ++a)
    if (!in_side(g, a) && result.end_of(a)) gone_[slot(g, a)] = 1;
  if (ends) over_[size_t(g)] = 1;
}

void seat_vector::step_games(const std::vector<int>& games, const float* own) {
  // The others that act now, every game's rows packed for one call.
  asked_games_.clear();
  asked_agents_.clear();
  for (int g : games)
    for (int a = 0; a < agents_; ++a)
      if (games_->acts_in(g, a) && !in_side(g, a) && !gone_[slot(g, a)]) {
        asked_games_.push_back(g);
        asked_agents_.push_back(a);
      }
  const size_t asked = asked_games_.size(), obs = size_t(other_.obs), choices = size_t(other_.mask),
               theirs = size_t(other_.action), mine = size_t(own_.action);
  asked_obs_.resize(asked * obs);
  asked_masks_.resize(asked * choices);
  answers_.resize(asked * theirs);
  for (size_t r = 0; r < asked; ++r) {
    const int g = asked_games_[r], a = asked_agents_[r];
    games_->observe(g, a, &asked_obs_[r * obs]);
    if (choices > 0) games_->action_mask(g, a, &asked_masks_[r * choices]);
  }
  if (asked > 0)
    others_->act(asked_games_.data(), asked_agents_.data(), int(asked), asked_obs_.data(),
                 choices > 0 ? asked_masks_.data() : nullptr, answers_.data());
  for (size_t r = asked; r-- > 0;) {  // kept for a viewer; backwards, so a game shows its first
    const int g = asked_games_[r], a = asked_agents_[r];
    std::copy_n(&answers_[r * theirs], theirs, &other_actions_[slot(g, a) * theirs]);
    std::copy_n(asked_masks_.data() + r * choices, choices, other_masks_.data() + slot(g, a) * choices);
    shown_[size_t(g)] = a;
  }
  // Each game's step: its acting agents' actions in agent order, the
  // side's from its rows, the others' as answered, a departed agent's zero.
  joint_.clear();
  size_t answer = 0;
  for (int g : games) {
    for (int a = 0; a < agents_; ++a) {
      if (!games_->acts_in(g, a)) continue;
      const size_t at = joint_.size();
      if (in_side(g, a)) {
        int j = 0;
        while (agent_of_row(g * per_game_ + j) != a) ++j;
        joint_.insert(joint_.end(), own + size_t(g * per_game_ + j) * mine, own + size_t(g * per_game_ + j + 1) * mine);
      } else if (gone_[slot(g, a)]) {
        joint_.resize(at + theirs, 0.f);
      } else {
        joint_.insert(joint_.end(), &answers_[answer * theirs], &answers_[(answer + 1) * theirs]);
        ++answer;
      }
    }
  }
  results_.resize(games.size());
  games_->step(games.data(), int(games.size()), joint_.data(), results_.data());
  for (size_t i = 0; i < games.size(); ++i) take(games[i], results_[i]);
}

void seat_vector::play_others(const std::vector<int>& games) {
  for (;;) {
    movers_.clear();
    for (int g : games) {
      if (over_[size_t(g)]) continue;
      bool side_acts = false;
      for (int j = 0; j < per_game_; ++j) side_acts = side_acts || games_->acts_in(g, agent_of_row(g * per_game_ + j));
      if (!side_acts) movers_.push_back(g);
    }
    if (movers_.empty()) return;
    step_games(movers_, nullptr);
  }
}

void seat_vector::start(std::vector<int> games, std::vector<std::uint64_t> seeds) {
  // A game of more than two agents may end before the side's first step
  // (the others eliminate it, or each other): an episode in which the
  // policy never acted has no step, so that game starts again, from a seed
  // drawn from its own.
  for (int attempt = 0; !games.empty(); ++attempt) {
    if (attempt == max_restarts)
      throw std::runtime_error(spec().id + ": game " + std::to_string(games[0]) + " ended " +
                               std::to_string(max_restarts) + " times before the learning seat's first move");
    begin(games, seeds.data());
    play_others(games);
    std::vector<int> again;
    std::vector<std::uint64_t> again_seeds;
    for (size_t i = 0; i < games.size(); ++i)
      if (over_[size_t(games[i])]) {
        again.push_back(games[i]);
        again_seeds.push_back(std::mt19937_64(seeds[i] ^ 0x9e3779b97f4a7c15ULL)());
      }
    games = std::move(again);
    seeds = std::move(again_seeds);
  }
}

void seat_vector::observe_rows(float* observations) const {
  for (int r = 0; r < size(); ++r)
    games_->observe(r / per_game_, agent_of_row(r), observations + size_t(r) * size_t(own_.obs));
}

void seat_vector::reset(const std::uint64_t* seeds, float* observations) {
  std::vector<int> all(static_cast<size_t>(games_->size()));
  std::vector<std::uint64_t> game_seeds(all.size());
  for (size_t g = 0; g < all.size(); ++g) {
    all[g] = int(g);
    game_seeds[g] = seeds[g * size_t(per_game_)];
  }
  start(std::move(all), std::move(game_seeds));
  observe_rows(observations);
}

void seat_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  if (per_game_ != 1)
    throw std::logic_error(spec().id + ": row " + std::to_string(i) +
                           " is one agent of a game the policy plays several agents of; it cannot start alone");
  start({i}, {seed});
  games_->observe(i, agent_of_row(i), observation);
}

void seat_vector::step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
                       step_result* results, float* final_observations) {
  const int k = games_->size();
  std::vector<int> all(static_cast<size_t>(k)), playing;
  for (int g = 0; g < k; ++g) {
    if (over_[size_t(g)])
      throw std::logic_error(spec().id + ": game " + std::to_string(g) + " stepped after its end without a reset");
    all[size_t(g)] = g;
  }
  step_games(all, actions);
  for (int g = 0; g < k; ++g)
    if (!over_[size_t(g)]) playing.push_back(g);
  play_others(playing);
  std::vector<int> restarted;
  std::vector<std::uint64_t> restart_seeds;
  for (int g = 0; g < k; ++g) {
    double game_return = 0.0;
    for (int j = 0; j < per_game_; ++j) {
      const size_t r = size_t(g * per_game_ + j);
      step_result& out = results[r];
      out.reward = pending_[r];
      out.truncated = over_[size_t(g)] && truncated_[r];
      out.terminated = over_[size_t(g)] && !truncated_[r];
      pending_[r] = 0.0;
      game_return += returns_[r] / per_game_;
    }
    if (!over_[size_t(g)]) continue;
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
  start(std::move(restarted), std::move(restart_seeds));
  observe_rows(observations);
}

void seat_vector::action_masks(std::uint8_t* masks) const {
  for (int r = 0; r < size(); ++r)
    games_->action_mask(r / per_game_, agent_of_row(r), masks + size_t(r) * size_t(own_.mask));
}

bool seat_vector::other_seat(int i, other_seat_view& view) const {
  const int g = i / per_game_;
  const size_t width = size_t(other_.action), choices = size_t(other_.mask);
  view = {};
  view.learner_seat = agent_of_row(i);
  view.action_space = sides_.other->action;
  if (per_game_ == agents_) return false;  // no agent outside the side
  if (shown_[size_t(g)] >= 0) {
    const size_t at = slot(g, shown_[size_t(g)]);
    view.action.assign(other_actions_.begin() + long(at * width), other_actions_.begin() + long((at + 1) * width));
    view.legal.assign(other_masks_.begin() + long(at * choices), other_masks_.begin() + long((at + 1) * choices));
  }
  others_->describe(g, view);
  return true;
}

}  // namespace troupe::games
