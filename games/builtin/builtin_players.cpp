#include "games/builtin/builtin_players.hpp"

#include <cmath>
#include <cstdlib>

#include <random>
#include <stdexcept>
#include <vector>

#include "envs/uniform_action.hpp"
#include "games/builtin/connect_four.hpp"
#include "games/builtin/connect_four_alphabeta.hpp"
#include "games/builtin/connect_four_game.hpp"
#include "games/builtin/contest_game.hpp"
#include "games/builtin/duel_pong.hpp"

namespace troupe::games {

using envs::draw_uniform_action;
using envs::other_seat_view;

namespace {

// A uniformly drawn legal move (of each component, for several).
class player_streams : public opponents {
 public:
  explicit player_streams(int games) : rngs_(size_t(games)) {}
  void start_episode(int game, std::uint64_t seed) override { rngs_[size_t(game)].seed(seed); }

 protected:
  std::vector<std::mt19937_64> rngs_;
};

class uniform_player final : public player_streams {
 public:
  uniform_player(int games, const env_spec& spec)
      : player_streams(games),
        categories_(spec.action.categories()),
        width_(spec.action.flat_size()),
        mask_size_(spec.has_action_mask ? spec.action.choice_count() : 0) {
    if (categories_.empty() || spec.action.continuous_size() > 0)
      throw std::invalid_argument("the random opponent plays discrete actions; " + spec.id + " has " +
                                  spec.action.describe());
  }
  void act(const int* games, const int*, int rows, const float*, const std::uint8_t* masks, float* actions) override {
    for (int r = 0; r < rows; ++r)
      draw_uniform_action(categories_, masks ? masks + size_t(r) * size_t(mask_size_) : nullptr,
                          rngs_[size_t(games[r])], actions + size_t(r) * size_t(width_));
  }

 private:
  std::vector<int> categories_;
  int width_, mask_size_;
};

class connect_four_searcher final : public player_streams {
 public:
  connect_four_searcher(int games, int depth) : player_streams(games), depth_(depth) {}
  void act(const int* games, const int*, int rows, const float* observations, const std::uint8_t*, float* actions) override {
    for (int r = 0; r < rows; ++r) {
      connect_four game = connect_four::from_observation(observations + size_t(r) * connect_four::observation_size);
      actions[r] = float(alphabeta_move(game, depth_, &rngs_[size_t(games[r])]));
    }
  }

 private:
  int depth_;
};

// alphabeta:DEPTH of a game that is not Connect Four: the games search
// themselves (game_vector::search_moves).
class game_searcher final : public player_streams {
 public:
  game_searcher(int games, int depth, std::string game) : player_streams(games), depth_(depth), game_(std::move(game)) {}
  void play_in(game_vector& games) override {
    if (!games.turn_based())
      throw std::invalid_argument("alphabeta:" + std::to_string(depth_) + " searches turn-based games; " + game_ +
                                  " is played by simultaneous moves");
    if (!games.can_search())
      throw std::invalid_argument("alphabeta:" + std::to_string(depth_) + ": " + game_ + "'s games cannot be searched");
    games_ = &games;
  }
  void act(const int* games, const int*, int rows, const float*, const std::uint8_t*, float* actions) override {
    if (!games_)
      throw std::invalid_argument("alphabeta:" + std::to_string(depth_) + " searches turn-based games; " + game_ +
                                  " is played by simultaneous moves");
    seeds_.resize(size_t(rows));
    for (int r = 0; r < rows; ++r) seeds_[size_t(r)] = rngs_[size_t(games[r])]();
    games_->search_moves(games, rows, depth_, seeds_.data(), actions);
  }

 private:
  int depth_;
  std::string game_;
  game_vector* games_ = nullptr;
  std::vector<std::uint64_t> seeds_;
};

// DuelPong-v0's scripted player: its paddle follows the ball while the ball
// comes its way, and goes back to the middle while it goes away. It reads
// the observation from its side: [its y, the other's, ball x, ball y, ball
// vx, ball vy].
class ball_tracker final : public opponents {
 public:
  void start_episode(int, std::uint64_t) override {}
  void act(const int*, const int*, int rows, const float* observations, const std::uint8_t*, float* actions) override {
    for (int r = 0; r < rows; ++r) {
      const float* o = observations + size_t(r) * 6;
      const double target = o[4] < 0 ? o[3] : 0.5;
      const double gap = target - o[0];
      actions[r] = gap < -0.02 ? 1.f : gap > 0.02 ? 2.f : 0.f;
    }
  }
};

// Contest-v0's scripted team: each agent takes one of the two landmarks,
// the pairing of least total distance for it and its teammate (ties: the
// team's first agent takes landmark 0), and walks there, x first. It reads
// one agent's view: [its cell, the landmarks' offsets, its teammate's
// offset, the other team's offsets, which of its team it is], offsets over 4.
class landmark_splitter final : public opponents {
 public:
  void start_episode(int, std::uint64_t) override {}
  void act(const int*, const int*, int rows, const float* observations, const std::uint8_t*, float* actions) override {
    constexpr int view = contest_game::observation_size;
    for (int r = 0; r < rows; ++r) {
      const float* o = observations + size_t(r) * view;
      const auto cells = [](float x) { return int(std::lround(x * contest_game::view_scale)); };
      // Offsets from me: landmark l at (lx[l], ly[l]); my teammate at (mx, my).
      const int lx[2] = {cells(o[2]), cells(o[4])}, ly[2] = {cells(o[3]), cells(o[5])};
      const int mx = cells(o[6]), my = cells(o[7]);
      const auto mine = [&](int l) { return std::abs(lx[l]) + std::abs(ly[l]); };
      const auto mate = [&](int l) { return std::abs(lx[l] - mx) + std::abs(ly[l] - my); };
      const int straight = mine(0) + mate(1), crossed = mine(1) + mate(0);
      const int l = straight < crossed || (straight == crossed && o[12] > 0.5f) ? 0 : 1;
      actions[r] = lx[l] < 0 ? 3.f : lx[l] > 0 ? 4.f : ly[l] < 0 ? 1.f : ly[l] > 0 ? 2.f : 0.f;
    }
  }
};

// A player that says its name to a viewer.
class player_with_name final : public opponents {
 public:
  player_with_name(std::string name, std::unique_ptr<opponents> player) : name_(std::move(name)), player_(std::move(player)) {}
  void play_in(game_vector& games) override { player_->play_in(games); }
  void start_episode(int game, std::uint64_t seed) override { player_->start_episode(game, seed); }
  void act(const int* games, const int* agents, int rows, const float* observations, const std::uint8_t* masks,
           float* actions) override {
    player_->act(games, agents, rows, observations, masks, actions);
  }
  void end_episode(int game, double learner_return) override { player_->end_episode(game, learner_return); }
  void describe(int, other_seat_view& view) const override { view.who = name_; }

 private:
  std::string name_;
  std::unique_ptr<opponents> player_;
};

}  // namespace

std::unique_ptr<opponents> random_player(int games, const env_spec& spec) {
  return std::make_unique<uniform_player>(games, spec);
}

std::unique_ptr<opponents> alphabeta_player(int games, int depth) {
  return std::make_unique<connect_four_searcher>(games, depth);
}

std::unique_ptr<opponents> search_player(int games, int depth, std::string game) {
  return std::make_unique<game_searcher>(games, depth, std::move(game));
}

std::unique_ptr<opponents> tracking_player() { return std::make_unique<ball_tracker>(); }

std::unique_ptr<opponents> splitting_team() { return std::make_unique<landmark_splitter>(); }

std::unique_ptr<opponents> named_player(std::string name, std::unique_ptr<opponents> player) {
  return std::make_unique<player_with_name>(std::move(name), std::move(player));
}

}  // namespace troupe::games
