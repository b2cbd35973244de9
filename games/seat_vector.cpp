#include "games/seat_vector.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "envs/env_error.hpp"
#include "envs/uniform_action.hpp"

namespace troupe::games {

using envs::draw_uniform_action;
using envs::env_key_error;
using envs::same_spaces;
using envs::space;

namespace {
std::string spaces_text(const env_spec& s) {
  return s.observation.describe() + " -> " + s.action.describe() + (s.has_action_mask ? " (masked)" : "");
}
}  // namespace

side_sizes::side_sizes(const env_spec& s)
    : obs(s.observation.flat_size()),
      action(s.action.flat_size()),
      mask(s.has_action_mask ? s.action.choice_count() : 0) {}

side_specs specs_of_side(const std::vector<const env_spec*>& agents, const std::vector<std::string>& names,
                         seat_choice seats, const std::vector<int>& team) {
  const size_t n = agents.size();
  if (n < 2 || names.size() != n) throw std::invalid_argument("specs_of_side: two or more agents and their names expected");
  const env_spec& first = *agents[0];
  const auto described = [&](size_t a) { return names[a] + " (" + spaces_text(*agents[a]) + ")"; };
  // Which agents the side plays.
  std::vector<std::uint8_t> mine(n, 0);
  if (seats == seat_choice::all || seats == seat_choice::alternate) {
    // Every agent of the team (all of them, episode by episode, with alternate).
    for (size_t a = 0; a < n; ++a) mine[a] = team.empty();
    for (int a : team) mine.at(size_t(a)) = 1;
  } else {
    const size_t fixed = size_t(seat_agent(seats));
    if (fixed >= n)
      throw env_key_error("env.seat", first.id + " has " + std::to_string(n) + " agents (" + names[0] + " to " +
                                          names[n - 1] + "): it has no " + seat_name(int(fixed)) + " seat");
    mine[fixed] = 1;
  }
  // The side's agents share their spaces (one policy plays them), and so
  // do the others (one player plays them).
  const env_spec* own = nullptr;
  const env_spec* other = nullptr;
  size_t own_agent = 0, other_agent = 0;
  for (size_t a = 0; a < n; ++a) {
    const env_spec*& kept = mine[a] ? own : other;
    size_t& kept_agent = mine[a] ? own_agent : other_agent;
    if (!kept) {
      kept = agents[a], kept_agent = a;
      continue;
    }
    if (same_spaces(*kept, *agents[a])) continue;
    if (mine[a])
      throw env_key_error(
          "env.seat", first.id + ": the agents " + described(kept_agent) + " and " + described(a) +
                          " have different spaces, so one policy cannot " +
                          (seats == seat_choice::all ? "play them both (env.seat all)" : "alternate between their seats") +
                          ": set env.seat to first or second, or give each agent a policy of its own (policies:)");
    throw env_key_error("env.seat", first.id + ": the agents outside the learning side, " + described(kept_agent) +
                                        " and " + described(a) + ", have different spaces, and one player plays them all");
  }
  return {own, other ? other : own};
}

std::vector<int> checked_team(std::vector<int> team, int agents, seat_choice seats, const std::string& who) {
  if ((seats == seat_choice::all || seats == seat_choice::alternate) && team.empty())
    for (int a = 0; a < agents; ++a) team.push_back(a);
  for (size_t i = 0; i < team.size(); ++i)
    if (team[i] < 0 || team[i] >= agents || std::count(team.begin(), team.begin() + long(i), team[i]))
      throw std::invalid_argument(who + ": team agent " + std::to_string(team[i]) + " is not one of " +
                                  std::to_string(agents) + ", or is listed twice");
  return team;
}

namespace {
const char* const seat_names[] = {"first", "second", "third",   "fourth", "fifth",
                                  "sixth", "seventh", "eighth", "ninth",  "tenth"};
constexpr int named_seats = int(sizeof seat_names / sizeof seat_names[0]);
}  // namespace

seat_choice seat_at(int agent) {
  if (agent < 0) throw std::invalid_argument("seat_at: agent " + std::to_string(agent));
  return seat_choice(agent);
}

int seat_agent(seat_choice seat) { return int(seat) >= 0 ? int(seat) : -1; }

std::string seat_name(int agent) {
  return agent >= 0 && agent < named_seats ? seat_names[agent] : "seat " + std::to_string(agent);
}

seat_choice parse_seat(const std::string& text) {
  if (text == "alternate") return seat_choice::alternate;
  if (text == "all") return seat_choice::all;
  for (int a = 0; a < named_seats; ++a)
    if (text == seat_names[a]) return seat_at(a);
  throw std::invalid_argument("env.seat: '" + text +
                              "' is not a seat (expected alternate, all, or a seat: first, second, third, ... tenth)");
}

seat_vector::seat_vector(std::unique_ptr<turn_based_vector> games, seat_choice seats,
                         std::unique_ptr<opponents> others, std::vector<int> team, opening_options opening)
    : games_(std::move(games)),
      choice_(seats),
      others_(std::move(others)),
      team_(std::move(team)),
      opening_(opening) {
  if (!games_ || games_->size() < 1 || !others_)
    throw std::invalid_argument("seat_vector: games and their opponents expected");
  if (games_->agent_count() < 2)
    throw std::invalid_argument("seat_vector: games of two or more agents expected (" + games_->spec().id + " has " +
                                std::to_string(games_->agent_count()) + ")");
  if (seats == seat_choice::all)
    throw env_key_error("env.seat", games_->spec().id +
                                        " is turn-based: one agent moves at a time, so a policy plays one seat of "
                                        "it (first, second, ... or alternate); all is for simultaneous games");
  std::vector<const env_spec*> specs;
  std::vector<std::string> names;
  for (int a = 0; a < games_->agent_count(); ++a) {
    specs.push_back(&games_->agent_spec(a));
    names.push_back(games_->agent_name(a));
    const space& action = specs.back()->action;
    if (opening_.probability > 0 && (action.categories().empty() || action.continuous_size() > 0))
      throw env_key_error("selfplay.random_opening.probability",
                          games_->spec().id + ": " + names.back() + "'s actions (" + action.describe() +
                              ") are not discrete, so no move of it can be drawn at random");
  }
  team_ = checked_team(std::move(team_), games_->agent_count(), seats, "seat_vector");
  sides_ = specs_of_side(specs, names, seats, team_);
  own_ = side_sizes(*sides_.own);
  other_ = side_sizes(*sides_.other);
  const size_t k = size_t(size());
  seats_.assign(k, 0);
  pending_.assign(k, 0.0);
  returns_.assign(k, 0.0);
  over_.assign(k, 0);
  truncated_.assign(k, 0);
  last_moves_.assign(k * size_t(other_.action), 0.0f);
  last_masks_.assign(k * size_t(other_.mask), 0);
  moved_.assign(k, 0);
  mover_kinds_.resize(size_t(games_->agent_count()));
  for (int a = 0; a < games_->agent_count(); ++a)
    for (mover_kinds_[size_t(a)] = 0; !same_spaces(games_->agent_spec(mover_kinds_[size_t(a)]), games_->agent_spec(a));)
      ++mover_kinds_[size_t(a)];
  others_->play_in(*games_);
}

seat_vector::seat_vector(std::vector<std::unique_ptr<turn_based_env>> games, seat_choice seats,
                         std::unique_ptr<opponents> others, std::vector<int> team, opening_options opening)
    : seat_vector(games.empty() ? nullptr : std::make_unique<native_turn_vector>(std::move(games)), seats,
                  std::move(others), std::move(team), opening) {}

void seat_vector::begin(const std::vector<int>& games, const std::uint64_t* seeds) {
  std::vector<std::uint64_t> game_seeds(games.size()), episode_seeds(games.size()), opening_draws(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    // The seat, the game, the opponents and the opening each draw from the
    // episode's seed.
    std::mt19937_64 rng(seeds[i]);
    const std::uint64_t seat_draw = rng();
    episode_seeds[i] = rng();
    opening_draws[i] = rng();
    game_seeds[i] = seeds[i];
    const size_t g = size_t(games[i]);
    const int fixed = seat_agent(choice_);
    seats_[g] = fixed >= 0 ? fixed : team_[size_t(seat_draw % std::uint64_t(team_.size()))];
    pending_[g] = returns_[g] = 0.0;
    over_[g] = truncated_[g] = moved_[g] = 0;
  }
  if (games.empty()) return;
  games_->reset(games.data(), int(games.size()), game_seeds.data());
  for (size_t i = 0; i < games.size(); ++i) others_->start_episode(games[i], episode_seeds[i]);
  if (opening_.probability > 0) play_openings(games, opening_draws);
}

void seat_vector::play_openings(const std::vector<int>& games, const std::vector<std::uint64_t>& draws) {
  // Per listed game (by its place in `games`): random moves still to play.
  std::vector<int> left(games.size(), 0);
  std::vector<std::mt19937_64> rngs(games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    rngs[i].seed(draws[i]);
    if (std::uniform_real_distribution<double>(0.0, 1.0)(rngs[i]) < opening_.probability)
      left[i] = std::uniform_int_distribution<int>(1, opening_.max_moves)(rngs[i]);
  }
  // Round by round, each round's moves in one batch per kind of mover (a
  // batch's movers share their spaces): one for a game whose agents are alike.
  const int agents = games_->agent_count();
  std::vector<int> movers;
  std::vector<size_t> places;  // each mover's place in `games`
  std::vector<float> actions;
  std::vector<std::uint8_t> mask;
  for (;;) {
    bool moved = false;
    for (int agent = 0; agent < agents; ++agent) {
      if (mover_kinds_[size_t(agent)] != agent) continue;
      movers.clear();
      places.clear();
      for (size_t i = 0; i < games.size(); ++i) {
        const int g = games[i];
        if (left[i] > 0 && !over_[size_t(g)] && mover_kinds_[size_t(games_->to_move(g))] == agent) {
          movers.push_back(g);
          places.push_back(i);
        }
      }
      if (movers.empty()) continue;
      const env_spec& spec = games_->agent_spec(agent);
      const side_sizes sizes(spec);
      const std::vector<int> categories = spec.action.categories();
      actions.assign(movers.size() * size_t(sizes.action), 0.0f);
      mask.resize(size_t(sizes.mask));
      for (size_t r = 0; r < movers.size(); ++r) {
        if (sizes.mask > 0) games_->action_mask(movers[r], mask.data());
        draw_uniform_action(categories, sizes.mask > 0 ? mask.data() : nullptr, rngs[places[r]],
                            &actions[r * size_t(sizes.action)]);
        --left[places[r]];
      }
      batch_results_.resize(movers.size());
      games_->step(movers.data(), int(movers.size()), actions.data(), batch_results_.data());
      for (size_t r = 0; r < movers.size(); ++r) take(movers[r], batch_results_[r]);
      moved = true;
    }
    if (!moved) break;
  }
  // The episode begins after them: nothing is owed to the learning seat
  // yet. A game they ended starts again (start()).
  for (int g : games) pending_[size_t(g)] = returns_[size_t(g)] = 0.0;
}

void seat_vector::take(int g, const turn_result& result) {
  const int seat = seats_[size_t(g)];
  const double r = result.rewards.at(size_t(seat));
  pending_[size_t(g)] += r;
  returns_[size_t(g)] += r;
  if (const std::uint8_t end = result.end_of(seat)) {
    // The learning seat's agent left (eliminated, say): its episode ends
    // here, as its agent's did, though the others might play on.
    over_[size_t(g)] = 1;
    truncated_[size_t(g)] = end == turn_result::agent_truncated;
  } else if (result.terminated || result.truncated) {
    over_[size_t(g)] = 1;
    truncated_[size_t(g)] = !result.terminated;
  }
}

void seat_vector::play_others(const std::vector<int>& games) {
  for (;;) {
    movers_.clear();
    mover_agents_.clear();
    for (int g : games)
      if (!over_[size_t(g)] && games_->to_move(g) != seats_[size_t(g)]) {
        movers_.push_back(g);
        mover_agents_.push_back(games_->to_move(g));
      }
    if (movers_.empty()) return;
    const size_t rows = movers_.size(), obs = size_t(other_.obs), width = size_t(other_.action),
                 choices = size_t(other_.mask);
    batch_obs_.resize(rows * obs);
    batch_masks_.resize(rows * choices);
    batch_actions_.resize(rows * width);
    batch_results_.resize(rows);
    for (size_t r = 0; r < rows; ++r) {
      const int g = movers_[r];
      games_->observe(g, mover_agents_[r], &batch_obs_[r * obs]);
      if (choices > 0) games_->action_mask(g, &batch_masks_[r * choices]);
    }
    others_->act(movers_.data(), mover_agents_.data(), int(rows), batch_obs_.data(),
                     choices > 0 ? batch_masks_.data() : nullptr, batch_actions_.data());
    for (size_t r = 0; r < rows; ++r) {  // kept for a viewer
      const size_t g = size_t(movers_[r]);
      std::copy_n(&batch_actions_[r * width], width, &last_moves_[g * width]);
      std::copy_n(batch_masks_.data() + r * choices, choices, last_masks_.data() + g * choices);
      moved_[g] = 1;
    }
    games_->step(movers_.data(), int(rows), batch_actions_.data(), batch_results_.data());
    for (size_t r = 0; r < rows; ++r) take(movers_[r], batch_results_[r]);
  }
}

void seat_vector::start(std::vector<int> games, std::vector<std::uint64_t> seeds) {
  // A game of more than two agents may end before the learning seat's first
  // move (the others eliminate it, or each other): an episode in which the
  // policy never moved has no step, so that game starts again, from a seed
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

void seat_vector::reset(const std::uint64_t* seeds, float* observations) {
  std::vector<int> all(static_cast<size_t>(size()));
  for (int g = 0; g < size(); ++g) all[size_t(g)] = g;
  start(all, std::vector<std::uint64_t>(seeds, seeds + size()));
  for (int g = 0; g < size(); ++g) games_->observe(g, seats_[size_t(g)], observations + size_t(g) * own_.obs);
}

void seat_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  start({i}, {seed});
  games_->observe(i, seats_[size_t(i)], observation);
}

void seat_vector::step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
                       step_result* results, float* final_observations) {
  std::vector<int> all(static_cast<size_t>(size())), playing;
  for (int g = 0; g < size(); ++g) {
    if (over_[size_t(g)])
      throw std::logic_error(spec().id + ": game " + std::to_string(g) + " stepped after its end without a reset");
    all[size_t(g)] = g;
  }
  batch_results_.resize(all.size());
  games_->step(all.data(), size(), actions, batch_results_.data());
  for (int g = 0; g < size(); ++g) {
    take(g, batch_results_[size_t(g)]);
    if (!over_[size_t(g)]) playing.push_back(g);
  }
  play_others(playing);
  std::vector<int> restarted;
  std::vector<std::uint64_t> restart_seeds;
  for (int g = 0; g < size(); ++g) {
    step_result& out = results[g];
    out.reward = pending_[size_t(g)];
    out.truncated = over_[size_t(g)] && truncated_[size_t(g)];
    out.terminated = over_[size_t(g)] && !truncated_[size_t(g)];
    pending_[size_t(g)] = 0.0;
    if (!over_[size_t(g)]) continue;
    games_->observe(g, seats_[size_t(g)], final_observations + size_t(g) * own_.obs);
    others_->end_episode(g, returns_[size_t(g)]);
    if (reset_seeds) {
      restarted.push_back(g);
      restart_seeds.push_back(reset_seeds[g]);
    }
  }
  start(std::move(restarted), std::move(restart_seeds));
  for (int g = 0; g < size(); ++g) games_->observe(g, seats_[size_t(g)], observations + size_t(g) * own_.obs);
}

void seat_vector::action_masks(std::uint8_t* masks) const {
  for (int g = 0; g < size(); ++g) games_->action_mask(g, masks + size_t(g) * own_.mask);
}

bool seat_vector::other_seat(int i, other_seat_view& view) const {
  const size_t g = size_t(i), width = size_t(other_.action), choices = size_t(other_.mask);
  view = {};
  view.learner_seat = seats_[g];
  view.action_space = sides_.other->action;
  if (moved_[g]) {
    view.action.assign(last_moves_.begin() + long(g * width), last_moves_.begin() + long((g + 1) * width));
    view.legal.assign(last_masks_.begin() + long(g * choices), last_masks_.begin() + long((g + 1) * choices));
  }
  others_->describe(i, view);
  return true;
}

bool seat_vector::can_render() const { return games_->can_render(); }

bool seat_vector::render(int i, rgb_frame& frame) { return games_->render(i, frame); }

}  // namespace troupe::games
