#pragma once
// Self-play's pool on the learner's node: the league (agents/league/league.hpp)
// and a model-owner per snapshot. A snapshot is a frozen copy of the
// learner's parameters (copied inside their critical section, so it is one
// version; frozen, so no update ever reaches it), served by a model-owner
// of its own through a lane, and written to RUN/selfplay/snapshots/ID.pt
// (a checkpoint file, so `troupe eval RUN --opponent snapshot:ID` loads it;
// the file goes when the snapshot leaves the pool); RUN/selfplay/league.json
// holds the pool and the ratings, written at every snapshot and checkpoint,
// and a resumed run restores both.
//
// Agents take their opponents from it (opponents_from): each episode draws
// its opponent from the league (the learning policy itself, served by the
// learner's own model-owner, or a snapshot), each round of the other
// seat's moves asks every opponent in play with one request, and each
// game's result moves the Elo ratings. A snapshot that leaves the pool
// stops serving once no game in play uses it.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "actors/predict_client.hpp"
#include "agents/league/league.hpp"
#include "games/opponents.hpp"
#include "model/shared_model.hpp"
#include "run/run_config.hpp"

namespace troupe::actors {

struct selfplay_setup {
  run::selfplay_config selfplay;
  run::batching_config batching;
  std::uint64_t seed = 1;     // the snapshots' owners' sampling
  std::string dir;            // RUN/selfplay; empty: no files
  std::string config_yaml;    // the resolved config, kept in snapshot files
  int seats = 2;              // the ratings' seats (agents::league_settings::seats): the game's agents, 2 for a team
};

class selfplay_pool {
 public:
  // One opponent's parameters and the model-owner that serves them.
  struct server {
    std::uint64_t id = 0;  // agents::league::latest: the learning policy
    std::shared_ptr<model::shared_model> model;
    predict_service owner;
    std::shared_ptr<predict_lane> lane;
    bool owned = false;  // a snapshot's owner, stopped with the server
    ~server();
  };

  // `learning_owner` (with its lane, or null) serves the learning policy.
  selfplay_pool(caf::actor_system& sys, std::shared_ptr<model::shared_model> learning,
                predict_service learning_owner, std::shared_ptr<predict_lane> learning_lane,
                selfplay_setup setup);

  agents::league& league() { return *league_; }
  std::shared_ptr<const agents::league> shared_league() const { return league_; }

  // The learner trained `updates` more updates (called on its thread): a
  // snapshot joins every selfplay.snapshot_every_updates.
  void on_updates(std::int64_t updates);
  // Freezes the learner's parameters now as a snapshot; returns its id.
  // Throws std::runtime_error when its file cannot be written.
  std::uint64_t add_snapshot();
  // The server of opponent `id`, or null once it has left the pool.
  std::shared_ptr<server> server_of(std::uint64_t id) const;
  // The recurrent state per row of every policy in the pool (0: feed-forward).
  int state_size() const;

  // Stops every snapshot's owner (the run's end).
  void stop();

  // RUN/selfplay/league.json, atomically (at a checkpoint, and as a
  // snapshot joins); safe from any thread.
  void save() const;
  // A resumed run: league.json and the snapshots it lists, from `dir`.
  // Throws run::config_error naming the file that is missing or damaged.
  void restore();

 private:
  std::shared_ptr<server> serve(std::uint64_t id, std::shared_ptr<model::shared_model> frozen);
  std::string snapshot_file(std::uint64_t id) const;
  std::string league_file() const;

  caf::actor_system& sys_;
  std::shared_ptr<model::shared_model> learning_;
  selfplay_setup setup_;
  std::shared_ptr<agents::league> league_;
  std::shared_ptr<server> latest_;
  mutable std::mutex lock_;       // servers_
  mutable std::mutex file_lock_;  // league.json
  std::unordered_map<std::uint64_t, std::shared_ptr<server>> servers_;
  std::int64_t since_snapshot_ = 0;  // updates
};

// What plays the other seat of an agent's `games` games of `spec` (made
// from `env`, whose interpreter and path a Python player uses), from
// `pool` (which it keeps alive). Asks on the calling thread (an agent's).
std::unique_ptr<games::opponents> opponents_from(caf::actor_system& sys, std::shared_ptr<selfplay_pool> pool,
                                                int games, const envs::env_config& env, const envs::env_spec& spec);

// The seats a league's ratings count (agents::league_settings::seats) in a
// game of `game_agents` that the learning side plays from `versus`: a
// seat against the rest of the game's agents (each other seat the
// opponent's), or a team (env.seat all) against the agents outside it, two
// sides.
int rating_seats(const envs::opponent_options& versus, int game_agents);

// The learner's score in a finished game from its return there: 1 for a
// win (> 0), 0.5 for a draw (0), 0 for a loss.
double game_score(double learner_return);

}  // namespace troupe::actors
