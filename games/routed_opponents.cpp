#include "games/routed_opponents.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace troupe::games {

using envs::other_seat_view;

namespace {

class routed final : public opponents {
 public:
  routed(std::vector<std::unique_ptr<opponents>> players, const std::vector<std::vector<int>>& agents_of_player,
         const env_spec& spec)
      : players_(std::move(players)), share_(spec) {
    if (agents_of_player.size() != players_.size())
      throw std::invalid_argument("route_by_agent: " + std::to_string(players_.size()) + " players, agents for " +
                                  std::to_string(agents_of_player.size()));
    for (size_t p = 0; p < players_.size(); ++p) {
      if (!players_[p] || agents_of_player[p].empty())
        throw std::invalid_argument("route_by_agent: player " + std::to_string(p) + " plays no agent");
      for (int a : agents_of_player[p]) {
        if (a < 0) throw std::invalid_argument("route_by_agent: agent " + std::to_string(a));
        if (size_t(a) >= player_of_agent_.size()) player_of_agent_.resize(size_t(a) + 1, -1);
        if (player_of_agent_[size_t(a)] >= 0)
          throw std::invalid_argument("route_by_agent: agent " + std::to_string(a) + " has two players");
        player_of_agent_[size_t(a)] = int(p);
      }
    }
  }

  void play_in(game_vector& games) override {
    for (auto& p : players_) p->play_in(games);
  }
  void start_episode(int game, std::uint64_t seed) override {
    // A seed of its own each, so that two players that draw do not draw alike.
    for (size_t p = 0; p < players_.size(); ++p) players_[p]->start_episode(game, seed + 0x9e3779b97f4a7c15ULL * p);
  }
  void end_episode(int game, double learner_return) override {
    for (auto& p : players_) p->end_episode(game, learner_return);
  }
  // The player of the watched game's last move (the first player before one).
  void describe(int game, other_seat_view& view) const override { players_[watched_player_]->describe(game, view); }

  void act(const int* games, const int* agents, int rows, const float* observations, const std::uint8_t* masks,
           float* actions) override {
    for (size_t p = 0; p < players_.size(); ++p) {
      picked_.clear();
      for (int r = 0; r < rows; ++r) {
        const int a = agents[r];
        if (a < 0 || a >= int(player_of_agent_.size()) || player_of_agent_[size_t(a)] < 0)
          throw std::logic_error("routed opponents: no player for agent " + std::to_string(a));
        if (player_of_agent_[size_t(a)] != int(p)) continue;
        picked_.push_back(r);
        if (games[r] == watched_game) watched_player_ = p;
      }
      if (!picked_.empty()) share_.act(*players_[p], picked_, games, agents, observations, masks, actions);
    }
  }

 private:
  std::vector<std::unique_ptr<opponents>> players_;
  std::vector<int> player_of_agent_;
  size_t watched_player_ = 0;
  std::vector<int> picked_;  // one player's rows of a round, reused
  row_share share_;
};

}  // namespace

row_share::row_share(const env_spec& spec) : sizes_(spec) {}

void row_share::act(opponents& player, const std::vector<int>& picked, const int* games, const int* agents,
                    const float* observations, const std::uint8_t* masks, float* actions) {
  const size_t obs = size_t(sizes_.obs), width = size_t(sizes_.action), choices = size_t(sizes_.mask);
  const size_t n = picked.size();
  games_.resize(n);
  agents_.resize(n);
  obs_.resize(n * obs);
  masks_.resize(n * choices);
  actions_.resize(n * width);
  for (size_t i = 0; i < n; ++i) {
    const size_t r = size_t(picked[i]);
    games_[i] = games[r];
    agents_[i] = agents[r];
    std::copy_n(observations + r * obs, obs, &obs_[i * obs]);
    if (masks) std::copy_n(masks + r * choices, choices, &masks_[i * choices]);
  }
  player.act(games_.data(), agents_.data(), int(n), obs_.data(), masks ? masks_.data() : nullptr, actions_.data());
  for (size_t i = 0; i < n; ++i) std::copy_n(&actions_[i * width], width, actions + size_t(picked[i]) * width);
}

std::unique_ptr<opponents> route_by_agent(std::vector<std::unique_ptr<opponents>> players,
                                          const std::vector<std::vector<int>>& agents_of_player,
                                          const env_spec& spec) {
  return std::make_unique<routed>(std::move(players), agents_of_player, spec);
}

}  // namespace troupe::games
