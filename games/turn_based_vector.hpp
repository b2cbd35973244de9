#pragma once
// k turn-based games (games/turn_based_env.hpp) stepped together: what a
// seat (games/seat_vector.hpp) plays. Resets and moves come in batches of
// listed games, so a vector whose games live elsewhere (a Python process,
// bridges/python/python_game_vector.hpp) answers a batch in one round trip;
// what the games show between moves (whose move, each agent's view, the
// mover's mask) is read from the vector without a call out.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envs/render.hpp"
#include "games/turn_based_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::rgb_frame;

class turn_based_vector {
 public:
  virtual ~turn_based_vector() = default;
  // What the games are and what agent 0 observes and does.
  virtual const env_spec& spec() const = 0;
  // What `agent` observes and does, in every game (turn_based_env's).
  virtual const env_spec& agent_spec(int agent) const { return spec(); }
  virtual int size() const = 0;
  virtual int agent_count() const = 0;
  virtual std::string agent_name(int agent) const = 0;

  // Game games[i] begins anew with seeds[i], for i < n.
  virtual void reset(const int* games, int n, const std::uint64_t* seeds) = 0;
  // Game games[i]'s mover plays row i of `actions` (the movers' agent_spec()
  // .action.flat_size() floats a row: the movers of one call have the same
  // spaces); results[i] is what that move brought. Throws on an action a
  // game refuses.
  virtual void step(const int* games, int n, const float* actions, turn_result* results) = 0;
  // Game g's mover; meaningful while it goes on.
  virtual int to_move(int game) const = 0;
  virtual void observe(int game, int agent, float* observation) const = 0;
  // With the mover's agent_spec().has_action_mask: game g's mover's legal
  // actions.
  virtual void action_mask(int game, std::uint8_t* legal) const {}
  virtual bool can_render() const { return false; }
  virtual bool render(int game, rgb_frame& frame) { return false; }
  virtual int action_at(int game, double u, double v) const { return -1; }

  // Whether search_moves can look ahead in these games.
  virtual bool can_search() const { return false; }
  // The built-in searching player's moves (alphabeta:DEPTH) for the listed
  // games' movers: a minimax search of each mover's own rewards over `depth`
  // moves, ties broken with the seeds' draws; rows of `actions`.
  virtual void search_moves(const int* games, int n, int depth, const std::uint64_t* seeds, float* actions);
};

// Games of this process, one object each.
class native_turn_vector final : public turn_based_vector {
 public:
  // Games of one kind (one spec id), with one number of agents.
  explicit native_turn_vector(std::vector<std::unique_ptr<turn_based_env>> games);

  const env_spec& spec() const override { return games_.front()->spec(); }
  const env_spec& agent_spec(int agent) const override { return games_.front()->agent_spec(agent); }
  int size() const override { return int(games_.size()); }
  int agent_count() const override { return games_.front()->agent_count(); }
  std::string agent_name(int agent) const override { return games_.front()->agent_name(agent); }
  void reset(const int* games, int n, const std::uint64_t* seeds) override;
  void step(const int* games, int n, const float* actions, turn_result* results) override;
  int to_move(int game) const override { return games_[size_t(game)]->to_move(); }
  void observe(int game, int agent, float* observation) const override {
    games_[size_t(game)]->observe(agent, observation);
  }
  void action_mask(int game, std::uint8_t* legal) const override { games_[size_t(game)]->action_mask(legal); }
  bool can_render() const override;
  bool render(int game, rgb_frame& frame) override;
  int action_at(int game, double u, double v) const override;

  const turn_based_env& game(int g) const { return *games_[size_t(g)]; }

 private:
  std::vector<std::unique_ptr<turn_based_env>> games_;
};

}  // namespace troupe::games
