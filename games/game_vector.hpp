#pragma once
// k games of several agents stepped together, turn-based or simultaneous:
// what a policy's seats (games/seat_vector.hpp) play. A turn-based game is
// one where a single agent, its mover, acts at each step; in a simultaneous
// game every agent does. Resets and steps come in batches of listed games,
// so a vector whose games live elsewhere (Python processes,
// bridges/python/python_game_vector.hpp) answers a batch in one round trip;
// what the games show between steps (who acts, each agent's view and mask)
// is read from the vector without a call out.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envs/render.hpp"
#include "games/simultaneous_env.hpp"
#include "games/turn_based_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::rgb_frame;

class game_vector {
 public:
  virtual ~game_vector() = default;
  // What the games are and what agent 0 observes and does.
  virtual const env_spec& spec() const = 0;
  // What `agent` observes and does, in every game.
  virtual const env_spec& agent_spec(int agent) const { return spec(); }
  virtual int size() const = 0;
  virtual int agent_count() const = 0;
  virtual std::string agent_name(int agent) const = 0;
  // Whether one agent acts at a time (else every agent at every step).
  virtual bool turn_based() const = 0;

  // Game games[i] begins anew with seeds[i], for i < n.
  virtual void reset(const int* games, int n, const std::uint64_t* seeds) = 0;
  // Game games[i] takes its step; results[i] is what it gave each agent.
  // `actions` holds the listed games' actions one game after another, each
  // game's as wide as its actors' (acts_in): in a turn-based game its
  // mover's action, in a simultaneous one every agent's, agent after agent
  // (an agent that has left gives zeros, which the game ignores). Throws on
  // an action a game refuses.
  virtual void step(const int* games, int n, const float* actions, game_result* results) = 0;
  // In a turn-based game, the agent to move (-1 once the game is over); in a
  // simultaneous game, -1 (every agent acts).
  virtual int to_move(int game) const = 0;
  virtual void observe(int game, int agent, float* observation) const = 0;
  // With agent_spec(agent).has_action_mask: `agent`'s legal actions in game
  // g (in a turn-based game, asked of its mover).
  virtual void action_mask(int game, int agent, std::uint8_t* legal) const {}
  virtual bool can_render() const { return false; }
  virtual bool render(int game, rgb_frame& frame) { return false; }
  virtual int action_at(int game, double u, double v) const { return -1; }

  // Whether search_moves can look ahead in these games (turn-based ones).
  virtual bool can_search() const { return false; }
  // The built-in searching player's moves (alphabeta:DEPTH) for the listed
  // games' movers: a minimax search of each mover's own rewards over `depth`
  // moves, ties broken with the seeds' draws; rows of `actions`.
  virtual void search_moves(const int* games, int n, int depth, const std::uint64_t* seeds, float* actions);

  // Whether `agent` acts at game g's next step: its mover in a turn-based
  // game, every agent in a simultaneous one.
  bool acts_in(int game, int agent) const { return !turn_based() || to_move(game) == agent; }
  // The floats game g's next step takes (step's layout).
  size_t step_width(int game) const;
};

// Games of this process, one object each: turn-based or simultaneous ones,
// of one kind (one spec id) and one number of agents.
class native_game_vector final : public game_vector {
 public:
  explicit native_game_vector(std::vector<std::unique_ptr<turn_based_env>> games);
  explicit native_game_vector(std::vector<std::unique_ptr<simultaneous_env>> games);

  const env_spec& spec() const override { return turns_.empty() ? joint_.front()->spec() : turns_.front()->spec(); }
  const env_spec& agent_spec(int agent) const override {
    return turns_.empty() ? joint_.front()->agent_spec(agent) : turns_.front()->agent_spec(agent);
  }
  int size() const override { return int(turns_.empty() ? joint_.size() : turns_.size()); }
  int agent_count() const override {
    return turns_.empty() ? joint_.front()->agent_count() : turns_.front()->agent_count();
  }
  std::string agent_name(int agent) const override {
    return turns_.empty() ? joint_.front()->agent_name(agent) : turns_.front()->agent_name(agent);
  }
  bool turn_based() const override { return !turns_.empty(); }
  void reset(const int* games, int n, const std::uint64_t* seeds) override;
  void step(const int* games, int n, const float* actions, game_result* results) override;
  int to_move(int game) const override { return turns_.empty() ? -1 : turns_.at(size_t(game))->to_move(); }
  void observe(int game, int agent, float* observation) const override;
  void action_mask(int game, int agent, std::uint8_t* legal) const override;
  bool can_render() const override;
  bool render(int game, rgb_frame& frame) override;
  int action_at(int game, double u, double v) const override;

  // Game g, of a turn-based vector.
  const turn_based_env& game(int g) const { return *turns_.at(size_t(g)); }

 private:
  // The game as what it may be drawn or clicked as (null if not).
  const envs::renderable* drawn(int game) const;

  // One of the two is empty.
  std::vector<std::unique_ptr<turn_based_env>> turns_;
  std::vector<std::unique_ptr<simultaneous_env>> joint_;
};

}  // namespace troupe::games
