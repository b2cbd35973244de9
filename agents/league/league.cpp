#include "agents/league/league.hpp"

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace troupe::agents {

double elo_expected(double rating, double other, int seats) {
  return 1.0 / (1.0 + (seats - 1) * std::pow(10.0, (other - rating) / 400.0));
}

league::league(const league_settings& settings) : settings_(settings) {
  if (settings_.pool_size < 1) throw std::invalid_argument("league: a pool of at least one snapshot expected");
  if (settings_.seats < 2) throw std::invalid_argument("league: a game of at least two seats expected");
  state_.learner_rating = settings_.initial_rating;
  state_.builtins = builtin_players();
}

std::vector<league::snapshot> league::builtin_players() const {
  std::vector<snapshot> players;
  for (size_t i = 0; i < settings_.builtins.size(); ++i) {
    snapshot b;
    b.id = first_builtin + i;
    b.builtin = settings_.builtins[i];
    b.rating = settings_.initial_rating;
    players.push_back(b);
  }
  return players;
}

std::uint64_t league::add(std::uint64_t version, std::vector<std::uint64_t>& evicted) {
  std::lock_guard<std::mutex> guard(lock_);
  snapshot s;
  s.id = state_.next_id++;
  s.version = version;
  s.rating = state_.learner_rating;
  state_.pool.push_back(s);
  while (int(state_.pool.size()) > settings_.pool_size) {
    evicted.push_back(state_.pool.front().id);
    state_.pool.erase(state_.pool.begin());
  }
  return s.id;
}

std::uint64_t league::draw(std::mt19937_64& rng) const {
  std::lock_guard<std::mutex> guard(lock_);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  if (!state_.builtins.empty() && unit(rng) < settings_.builtin_probability)
    return state_.builtins[std::uniform_int_distribution<size_t>(0, state_.builtins.size() - 1)(rng)].id;
  if (state_.pool.empty() || unit(rng) < settings_.latest_probability) return latest;
  if (!settings_.prioritized)
    return state_.pool[std::uniform_int_distribution<size_t>(0, state_.pool.size() - 1)(rng)].id;
  std::vector<double> weights;
  for (const snapshot& s : state_.pool) {
    const double p = (s.learner_score + 0.5) / double(s.games + 1);
    weights.push_back((1.0 - p) * (1.0 - p));
  }
  std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
  return state_.pool[pick(rng)].id;
}

void league::record(std::uint64_t opponent, double score) {
  std::lock_guard<std::mutex> guard(lock_);
  ++state_.games;
  if (opponent == latest) {
    ++state_.self_games;
    return;
  }
  for (snapshot& s : is_builtin(opponent) ? state_.builtins : state_.pool)
    if (s.id == opponent) {
      const double delta = settings_.elo_k * (score - elo_expected(state_.learner_rating, s.rating, settings_.seats));
      state_.learner_rating += delta;
      s.rating -= delta;
      ++s.games;
      s.learner_score += score;
      if (!is_builtin(opponent)) {
        recent_.push_back(score);
        if (int(recent_.size()) > recent_games) recent_.pop_front();
      }
      return;
    }
}

double league::learner_rating() const {
  std::lock_guard<std::mutex> guard(lock_);
  return state_.learner_rating;
}

double league::recent_score() const {
  std::lock_guard<std::mutex> guard(lock_);
  if (recent_.empty()) return -1;
  double sum = 0;
  for (double s : recent_) sum += s;
  return sum / double(recent_.size());
}

std::vector<league::snapshot> league::pool() const {
  std::lock_guard<std::mutex> guard(lock_);
  return state_.pool;
}

league::state league::saved() const {
  std::lock_guard<std::mutex> guard(lock_);
  return state_;
}

void league::restore(const state& s) {
  std::vector<snapshot> builtins = builtin_players();
  for (snapshot& b : builtins)
    for (const snapshot& saved : s.builtins)
      if (saved.builtin == b.builtin) {
        b.rating = saved.rating;
        b.games = saved.games;
        b.learner_score = saved.learner_score;
      }
  std::lock_guard<std::mutex> guard(lock_);
  state_ = s;
  state_.builtins = std::move(builtins);
  while (int(state_.pool.size()) > settings_.pool_size) state_.pool.erase(state_.pool.begin());
}

std::string league_json(const league::state& s) {
  nlohmann::json j;
  j["learner_rating"] = s.learner_rating;
  j["next_id"] = s.next_id;
  j["games"] = s.games;
  j["self_games"] = s.self_games;
  j["pool"] = nlohmann::json::array();
  for (const league::snapshot& p : s.pool)
    j["pool"].push_back({{"id", p.id}, {"version", p.version}, {"rating", p.rating}, {"games", p.games},
                         {"learner_score", p.learner_score}});
  j["builtins"] = nlohmann::json::array();
  for (const league::snapshot& b : s.builtins)
    j["builtins"].push_back(
        {{"name", b.builtin}, {"rating", b.rating}, {"games", b.games}, {"learner_score", b.learner_score}});
  return j.dump(2) + "\n";
}

league::state league_from_json(const std::string& text, const std::string& where) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    league::state s;
    s.learner_rating = j.at("learner_rating").get<double>();
    s.next_id = j.at("next_id").get<std::uint64_t>();
    s.games = j.at("games").get<std::int64_t>();
    s.self_games = j.at("self_games").get<std::int64_t>();
    for (const auto& p : j.at("pool")) {
      league::snapshot e;
      e.id = p.at("id").get<std::uint64_t>();
      e.version = p.at("version").get<std::uint64_t>();
      e.rating = p.at("rating").get<double>();
      e.games = p.at("games").get<std::int64_t>();
      e.learner_score = p.at("learner_score").get<double>();
      if (e.id == league::latest || e.id >= s.next_id)
        throw std::runtime_error("snapshot id " + std::to_string(e.id) + " outside 1.." + std::to_string(s.next_id - 1));
      s.pool.push_back(e);
    }
    if (j.contains("builtins"))
      for (const auto& b : j.at("builtins")) {
        league::snapshot e;
        e.builtin = b.at("name").get<std::string>();
        e.rating = b.at("rating").get<double>();
        e.games = b.at("games").get<std::int64_t>();
        e.learner_score = b.at("learner_score").get<double>();
        s.builtins.push_back(e);
      }
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(where + ": not a league's state: " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
}

}  // namespace troupe::agents
