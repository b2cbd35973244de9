#pragma once
// The recurrent state of a policy that plays seats other than the
// learning one (another policy, a self-play snapshot, a trained opponent):
// one per game and per agent it moves for, carried across everything that
// happens between that agent's moves (the learning seat's, the other
// agents'), zeros again when its game begins an episode. Plain C++: the
// players keep one each and pass its rows to their forward passes.
#include <map>
#include <utility>
#include <vector>

namespace troupe::agents {

class opponent_states {
 public:
  // `state_size`: the policy's state per row (0: feed-forward, nothing kept).
  explicit opponent_states(int state_size = 0) : size_(state_size) {}
  int state_size() const { return size_; }

  // Game `game` begins an episode.
  void start(int game);
  // The states of rows 0 .. n-1 (row r moves for agent agents[r] of game
  // games[r]), one after another into `out`; zeros for an agent that has
  // not moved in this episode. Empty for a feed-forward policy.
  void gather(const int* games, const int* agents, int n, std::vector<float>& out) const;
  // Their states after those moves (n x state_size floats).
  void keep(const int* games, const int* agents, int n, const float* states);
  // The same of the listed rows only, in their order.
  void gather(const int* games, const int* agents, const std::vector<int>& rows, std::vector<float>& out) const;
  void keep(const int* games, const int* agents, const std::vector<int>& rows, const float* states);

 private:
  // Row i of the batch is row row(i) of games and agents.
  template <class Row>
  void gather_rows(const int* games, const int* agents, size_t n, Row row, std::vector<float>& out) const;
  template <class Row>
  void keep_rows(const int* games, const int* agents, size_t n, Row row, const float* states);

  int size_;
  std::map<std::pair<int, int>, std::vector<float>> states_;  // (game, agent)
};

}  // namespace troupe::agents
