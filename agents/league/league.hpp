#pragma once
// Self-play's league, without actors: the pool of frozen snapshots of the
// learning policy that its opponents are drawn from, and the Elo ratings of
// the learner and every snapshot from the games they played. Agents draw
// an opponent per episode and record each game's result from their own
// threads while the learner adds snapshots: every call takes the league's
// lock, so no result is lost and no draw sees a half-added snapshot.
#include <cstdint>
#include <deque>
#include <mutex>
#include <random>
#include <string>
#include <vector>

namespace troupe::agents {

struct league_settings {
  int pool_size = 8;               // snapshots kept; the oldest leaves first
  // Built-in players (by name) beside the snapshots, drawn for this share
  // of episodes; the rest go to the learner itself and its snapshots.
  std::vector<std::string> builtins = {};
  double builtin_probability = 0.0;
  double latest_probability = 0.5; // of the other episodes: against the learning policy itself
  bool prioritized = false;        // pfsp: snapshots the learner beats less are drawn more
  double elo_k = 16;               // Elo's step per game
  double initial_rating = 1000;
  // The game's agents: the learner's seat, and seats - 1 played by its
  // opponent. With more than two, a game is won by one of them, so an even
  // opponent leaves the learner 1 / seats of the wins (expected scores
  // below).
  int seats = 2;
};

// Elo's expected score of a player rated `rating` against one rated `other`,
// in a game of `seats` agents where the other plays every seat but one:
// the chance that the one seat wins, each seat's strength 10^(rating / 400)
// (Bradley-Terry-Luce, of which two-player Elo is the case of two seats):
// 1 / (1 + (seats - 1) 10^((other - rating) / 400)).
double elo_expected(double rating, double other, int seats = 2);

class league {
 public:
  // Opponent id of the learning policy itself; snapshots count from 1;
  // built-in player i is first_builtin + i.
  static constexpr std::uint64_t latest = 0;
  static constexpr std::uint64_t first_builtin = std::uint64_t(1) << 62;
  static bool is_builtin(std::uint64_t id) { return id >= first_builtin; }

  struct snapshot {
    std::uint64_t id = 0;
    std::string builtin = {};   // a built-in player's name; empty for a snapshot
    std::uint64_t version = 0;  // the learner's parameter version it froze
    double rating = 0;
    std::int64_t games = 0;     // against the learner
    double learner_score = 0;   // the learner's points in them (1 a win, 0.5 a draw)
  };
  // Everything a checkpoint keeps.
  struct state {
    double learner_rating = 0;
    std::uint64_t next_id = 1;
    std::int64_t games = 0, self_games = 0;
    std::vector<snapshot> pool;
    std::vector<snapshot> builtins;  // settings.builtins' players, in order
  };

  explicit league(const league_settings& settings);

  // A snapshot of the learner at `version`, rated as the learner is now;
  // returns its id. Snapshots beyond the pool's size leave, oldest first:
  // their ids are appended to `evicted`.
  std::uint64_t add(std::uint64_t version, std::vector<std::uint64_t>& evicted);
  // An opponent for one episode: a built-in player with
  // builtin_probability (uniformly among them); else `latest` with
  // latest_probability (always, while the pool is empty), else a snapshot,
  // uniformly or, prioritized, with weight (1 - p)^2, p the learner's mean
  // score against it (a game's worth of prior at 0.5, so an unplayed
  // snapshot weighs 0.25).
  std::uint64_t draw(std::mt19937_64& rng) const;
  // One game of the learner against `opponent`, `score` the learner's (1 a
  // win, 0.5 a draw, 0 a loss): both ratings move by Elo's rule, the
  // expectation elo_expected's for settings.seats (a
  // built-in player's as a snapshot's). A game
  // against `latest` is counted, no rating moves; one against a snapshot
  // no longer in the pool is counted in games() alone.
  void record(std::uint64_t opponent, double score);

  double learner_rating() const;
  // The learner's mean score in its last games against snapshots (at most
  // `recent_games` of them), or a negative number before the first.
  double recent_score() const;
  static constexpr int recent_games = 500;
  std::vector<snapshot> pool() const;
  state saved() const;
  // Fixed at construction, so read without the lock.
  const league_settings& settings() const { return settings_; }
  // Restores `s`; built-in players are settings.builtins, each with its
  // rating and games from `s` where it names the same player.
  void restore(const state& s);

 private:
  std::vector<snapshot> builtin_players() const;  // unplayed, at the initial rating

  league_settings settings_;
  mutable std::mutex lock_;
  state state_;
  std::deque<double> recent_;  // scores against snapshots, newest last
};

// A league's state as JSON and back (the run directory's league.json);
// from_json throws std::runtime_error naming what is missing or malformed.
std::string league_json(const league::state& s);
league::state league_from_json(const std::string& text, const std::string& where);

}  // namespace troupe::agents
