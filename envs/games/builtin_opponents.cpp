#include "envs/games/builtin_opponents.hpp"

#include <random>
#include <stdexcept>
#include <vector>

#include "envs/games/connect_four.hpp"
#include "envs/games/connect_four_alphabeta.hpp"

namespace troupe::envs::games {

namespace {

// A uniformly drawn legal move; a game's observation and mask rows are
// Connect Four's (one choice per column).
class player_streams : public opponents {
 public:
  explicit player_streams(int games) : rngs_(size_t(games)) {}
  void start_episode(int game, std::uint64_t seed) override { rngs_[size_t(game)].seed(seed); }

 protected:
  std::vector<std::mt19937_64> rngs_;
};

class random_player final : public player_streams {
 public:
  using player_streams::player_streams;
  void act(const int* games, int rows, const float*, const std::uint8_t* masks, float* actions) override {
    constexpr int n = connect_four::columns;
    for (int r = 0; r < rows; ++r) {
      const std::uint8_t* legal = masks + size_t(r) * n;
      int open = 0;
      for (int c = 0; c < n; ++c) open += legal[c] != 0;
      if (open == 0) throw std::logic_error("random opponent: no legal move");
      int k = std::uniform_int_distribution<int>(0, open - 1)(rngs_[size_t(games[r])]);
      for (int c = 0; c < n; ++c)
        if (legal[c] && k-- == 0) actions[r] = float(c);
    }
  }
};

class alphabeta_player final : public player_streams {
 public:
  alphabeta_player(int games, int depth) : player_streams(games), depth_(depth) {}
  void act(const int* games, int rows, const float* observations, const std::uint8_t*, float* actions) override {
    for (int r = 0; r < rows; ++r) {
      connect_four game = connect_four::from_observation(observations + size_t(r) * connect_four::observation_size);
      actions[r] = float(alphabeta_move(game, depth_, &rngs_[size_t(games[r])]));
    }
  }

 private:
  int depth_;
};

}  // namespace

std::unique_ptr<opponents> builtin_opponents(const std::string& name, int games, const std::string& key) {
  const std::string prefix = "alphabeta:";
  if (name == "random") return std::make_unique<random_player>(games);
  if (name.compare(0, prefix.size(), prefix) == 0 && name.size() == prefix.size() + 1 && name.back() >= '1' &&
      name.back() <= '8')
    return std::make_unique<alphabeta_player>(games, name.back() - '0');
  throw std::invalid_argument(key + ": '" + name + "' is not an opponent (expected random or alphabeta:1 to alphabeta:8)");
}

}  // namespace troupe::envs::games
