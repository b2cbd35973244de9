// Seats played by different players (games/routed_opponents.hpp): in a
// turn-based game of three agents each other agent's moves come from its
// own player, the rows of a round split by the agent they move for; and a
// policy of two of the three agents draws its seat among those two only.
#include <doctest/doctest.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "catalog/players.hpp"
#include "games/builtin/nim_game.hpp"
#include "games/routed_opponents.hpp"
#include "games/seat_vector.hpp"

using namespace troupe;

namespace {

// Takes `take` counters every move, and writes down what it was asked.
class fixed_taker final : public games::opponents {
 public:
  fixed_taker(int take, std::vector<int>& games, std::vector<int>& agents)
      : take_(take), games_(games), agents_(agents) {}
  void start_episode(int, std::uint64_t) override { ++episodes; }
  void act(const int* games, const int* agents, int rows, const float*, const std::uint8_t* masks,
           float* actions) override {
    for (int r = 0; r < rows; ++r) {
      games_.push_back(games[r]);
      agents_.push_back(agents[r]);
      CHECK(masks[r * 3 + take_ - 1] == 1);  // its take is legal there
      actions[r] = float(take_ - 1);         // action k takes k + 1
    }
  }
  int episodes = 0;

 private:
  int take_;
  std::vector<int>& games_;
  std::vector<int>& agents_;
};

// The counters left, read off agent's one-hot view.
int counters_seen(const float* observation) {
  for (int n = 0; n <= 15; ++n)
    if (observation[n] == 1.0f) return n;
  return -1;
}

}  // namespace

TEST_SUITE("games") {
TEST_CASE("routed opponents: in Nim3 the second agent's moves come from one player, the third's from another") {
  envs::env_config config;
  config.id = games::nim_game::id;
  std::vector<int> games_a, agents_a, games_b, agents_b;
  fixed_taker* a = nullptr;
  fixed_taker* b = nullptr;
  const int k = 4;
  auto v = catalog::make_game_side(config, k, games::seat_choice::first, [&](const envs::env_spec& spec) {
    std::vector<std::unique_ptr<games::opponents>> players;
    players.push_back(std::make_unique<fixed_taker>(1, games_a, agents_a));
    players.push_back(std::make_unique<fixed_taker>(3, games_b, agents_b));
    a = static_cast<fixed_taker*>(players[0].get());
    b = static_cast<fixed_taker*>(players[1].get());
    return games::route_by_agent(std::move(players), {{1}, {2}}, spec);
  });
  std::vector<std::uint64_t> seeds = {1, 2, 3, 4};
  std::vector<float> obs(size_t(k) * 19), finals(size_t(k) * 19);
  v->reset(seeds.data(), obs.data());
  for (int g = 0; g < k; ++g) CHECK(counters_seen(&obs[size_t(g) * 19]) == 15);
  CHECK(a->episodes == k);
  CHECK(b->episodes == k);
  // The policy takes 2 in every game; then player_1 takes 1 and player_2
  // takes 3: 15 - 2 - 1 - 3 = 9 left at its next move.
  std::vector<float> actions(size_t(k), 1.0f);
  std::vector<envs::step_result> results(static_cast<size_t>(k));
  v->step(actions.data(), seeds.data(), obs.data(), results.data(), finals.data());
  for (int g = 0; g < k; ++g) CHECK(counters_seen(&obs[size_t(g) * 19]) == 9);
  // Each player was asked for its own agent only, every game once, in one batch.
  CHECK(agents_a == std::vector<int>(size_t(k), 1));
  CHECK(agents_b == std::vector<int>(size_t(k), 2));
  CHECK(games_a == std::vector<int>{0, 1, 2, 3});
  CHECK(games_b == std::vector<int>{0, 1, 2, 3});

  // A player of no agent, an agent of two players, a negative agent, or
  // agents for another number of players, is refused.
  std::vector<int> unused_games, unused_agents;
  const envs::env_spec spec = catalog::game_spec_of(config);
  const auto refused = [&](std::vector<std::vector<int>> agents_of_player) {
    std::vector<std::unique_ptr<games::opponents>> players;
    players.push_back(std::make_unique<fixed_taker>(1, unused_games, unused_agents));
    players.push_back(std::make_unique<fixed_taker>(1, unused_games, unused_agents));
    return games::route_by_agent(std::move(players), agents_of_player, spec);
  };
  CHECK_THROWS_WITH_AS(refused({{1, 2}, {}}), doctest::Contains("player 1 plays no agent"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(refused({{1, 2}, {2}}), doctest::Contains("agent 2 has two players"), std::invalid_argument);
  CHECK_THROWS_AS(refused({{1}, {-1}}), std::invalid_argument);
  CHECK_THROWS_AS(refused({{1}}), std::invalid_argument);
  CHECK_NOTHROW(refused({{1}, {2}}));
}

TEST_CASE("a seat drawn among env.team's agents: Nim3's second and third, never the first") {
  envs::env_config config;
  config.id = games::nim_game::id;
  config.versus.team = {"player_1", "player_2"};
  const auto random = [&](const envs::env_spec& spec) {
    return catalog::builtin_opponents("random", 1, config, spec, "env.opponent");
  };
  auto v = catalog::make_game_side(config, 1, games::seat_choice::alternate, random);
  auto* seats = dynamic_cast<games::seat_vector*>(v.get());
  REQUIRE(seats);
  std::array<int, 3> drawn{};
  std::vector<float> obs(19);
  for (std::uint64_t s = 0; s < 300; ++s) {
    v->reset(&s, obs.data());
    drawn[size_t(seats->seat(0))]++;
  }
  CHECK(drawn[0] == 0);
  CHECK(drawn[1] > 110);
  CHECK(drawn[2] > 110);
}
}
