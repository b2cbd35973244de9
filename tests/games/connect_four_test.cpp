// Connect Four's rules (games/builtin/connect_four.hpp) against a second
// implementation written here a different way, and the alpha-beta opponent
// on hand-made positions.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "games/builtin/connect_four.hpp"
#include "games/builtin/connect_four_alphabeta.hpp"

using troupe::games::connect_four;
namespace board_games = troupe::games;

namespace {

// The reference: a grid of 6 rows (0 at the top), a piece placed on the
// first empty cell scanning a column from the top down to the last empty
// one, and a win found by trying every window of four on the whole board.
struct reference_board {
  int grid[6][7];
  reference_board() {
    for (auto& row : grid)
      for (int& cell : row) cell = -1;
  }
  bool full(int c) const { return grid[0][c] != -1; }
  void drop(int c, int player) {
    int r = 0;
    while (r + 1 < 6 && grid[r + 1][c] == -1) ++r;
    grid[r][c] = player;
  }
  // The player with four in some window, or -1.
  int four() const {
    const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {-1, 1}};
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 7; ++c)
        for (const auto& s : steps) {
          bool inside = true, same = grid[r][c] != -1;
          for (int k = 1; k < 4 && inside; ++k) {
            const int rr = r + k * s[0], cc = c + k * s[1];
            inside = rr >= 0 && rr < 6 && cc >= 0 && cc < 7;
            same = same && inside && grid[rr][cc] == grid[r][c];
          }
          if (inside && same) return grid[r][c];
        }
    return -1;
  }
};

connect_four played(const std::vector<int>& moves) {
  connect_four game;
  for (int c : moves) game.play(c);
  return game;
}

}  // namespace

TEST_SUITE("games") {
TEST_CASE("connect four: 3000 random games agree with a second implementation at every move") {
  std::mt19937_64 rng(17);
  int wins[2] = {0, 0}, draws = 0;
  for (int g = 0; g < 3000; ++g) {
    connect_four game;
    reference_board ref;
    while (game.state() == connect_four::result::playing) {
      std::uint8_t mask[7];
      game.legal_moves(mask);
      std::vector<int> open;
      for (int c = 0; c < 7; ++c) {
        REQUIRE(mask[c] == (ref.full(c) ? 0 : 1));
        if (mask[c]) open.push_back(c);
      }
      const int c = open[rng() % open.size()];
      const int player = game.to_move();
      REQUIRE(player == game.moves() % 2);
      game.play(c);
      ref.drop(c, player);
      for (int r = 0; r < 6; ++r)
        for (int k = 0; k < 7; ++k) REQUIRE(game.cell(r, k) == ref.grid[r][k]);
      const int four = ref.four();
      if (four >= 0) {
        REQUIRE(game.state() == connect_four::result::won);
        REQUIRE(game.winner() == four);
        REQUIRE(four == player);  // only the mover can have made it
      } else if (game.moves() == 42) {
        REQUIRE(game.state() == connect_four::result::drawn);
        REQUIRE(game.winner() == -1);
      } else {
        REQUIRE(game.state() == connect_four::result::playing);
      }
    }
    if (game.state() == connect_four::result::drawn)
      ++draws;
    else
      ++wins[game.winner()];
  }
  // Random play: both players win often; draws are rare (about 1 in 175) but come.
  CHECK(wins[0] > 1000);
  CHECK(wins[1] > 800);
  CHECK(draws > 0);
}

TEST_CASE("connect four: four in each direction wins, a full board without four draws") {
  // Player 0 moves on even turns; player 1's moves fill in elsewhere.
  SUBCASE("a row") {
    const connect_four g = played({0, 0, 1, 1, 2, 2, 3});
    CHECK(g.state() == connect_four::result::won);
    CHECK(g.winner() == 0);
  }
  SUBCASE("a column") {
    const connect_four g = played({6, 0, 5, 0, 4, 0, 6, 0});
    CHECK(g.state() == connect_four::result::won);
    CHECK(g.winner() == 1);
  }
  SUBCASE("a rising diagonal") {
    // Player 0 at (5,0), (4,1), (3,2), (2,3).
    const connect_four g = played({0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3});
    CHECK(g.state() == connect_four::result::won);
    CHECK(g.winner() == 0);
    CHECK(g.cell(2, 3) == 0);
  }
  SUBCASE("a falling diagonal") {
    // Player 0 at (5,6), (4,5), (3,4), (2,3).
    const connect_four g = played({6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3});
    CHECK(g.state() == connect_four::result::won);
    CHECK(g.winner() == 0);
  }
  SUBCASE("three is not four") {
    const connect_four g = played({0, 0, 1, 1, 2, 2});
    CHECK(g.state() == connect_four::result::playing);
  }
  SUBCASE("a full board") {
    // A game of 42 moves without four (found by a random search outside
    // these rules' code).
    const connect_four g = played({3, 3, 1, 6, 5, 0, 1, 1, 4, 2, 6, 6, 1, 4, 1, 2, 3, 1, 4, 3, 4,
                                   4, 5, 2, 3, 6, 3, 0, 6, 4, 2, 6, 0, 5, 5, 5, 5, 2, 0, 2, 0, 0});
    CHECK(g.state() == connect_four::result::drawn);
    CHECK(g.winner() == -1);
    CHECK(g.moves() == 42);
  }
}

TEST_CASE("connect four: a refused move changes nothing") {
  connect_four g = played({2, 2, 2, 2, 2, 2});  // column 2 full
  const int moves = g.moves();
  CHECK_FALSE(g.legal(2));
  CHECK_THROWS_AS(g.play(2), std::invalid_argument);
  CHECK_THROWS_AS(g.play(-1), std::invalid_argument);
  CHECK_THROWS_AS(g.play(7), std::invalid_argument);
  CHECK(g.moves() == moves);
  CHECK(g.to_move() == 0);
  std::uint8_t mask[7];
  g.legal_moves(mask);
  CHECK(mask[2] == 0);
  CHECK(mask[0] == 1);
  connect_four won = played({0, 0, 1, 1, 2, 2, 3});
  CHECK_THROWS_AS(won.play(4), std::invalid_argument);
  won.legal_moves(mask);
  for (int c = 0; c < 7; ++c) CHECK(mask[c] == 0);
}

TEST_CASE("connect four: observations are PettingZoo's, mover's plane first, row 0 at the top") {
  const connect_four g = played({3, 3, 0});  // player 0 at (5,3) and (5,0); player 1 at (4,3)
  std::vector<float> mine(connect_four::observation_size), theirs(connect_four::observation_size);
  g.observe(1, mine.data());   // player 1 is to move
  g.observe(0, theirs.data());
  const auto at = [](const std::vector<float>& o, int r, int c, int plane) { return o[size_t((r * 7 + c) * 2 + plane)]; };
  CHECK(at(mine, 4, 3, 0) == 1);
  CHECK(at(mine, 5, 3, 1) == 1);
  CHECK(at(mine, 5, 0, 1) == 1);
  CHECK(at(theirs, 5, 3, 0) == 1);
  CHECK(at(theirs, 4, 3, 1) == 1);
  float total = 0;
  for (float v : mine) total += v;
  CHECK(total == 3);
  CHECK(at(mine, 0, 3, 0) == 0);  // the top row is empty
}

TEST_CASE("connect four alpha-beta: takes a win, blocks a loss, finds a forced win") {
  SUBCASE("a win in one at every depth") {
    // Player 0 to move with (5,0), (5,1), (5,2); player 1 has (4,0), (4,1), (4,2).
    for (int depth = 1; depth <= 6; ++depth) {
      connect_four g = played({0, 0, 1, 1, 2, 2});
      CHECK(board_games::alphabeta_move(g, depth) == 3);
      CHECK(g.moves() == 6);  // the search restored the game
    }
  }
  SUBCASE("a loss in one is blocked") {
    // Player 1 threatens (5,3); player 0 has no four of its own to make.
    for (int depth = 2; depth <= 6; ++depth) {
      connect_four g = played({6, 0, 5, 1, 6, 2});
      CHECK(board_games::alphabeta_move(g, depth) == 3);
    }
  }
  SUBCASE("an open three wins in two moves") {
    // Player 0 (5,2), (5,3); player 1 (4,2), (4,3). Column 1 or 4 makes
    // three with both ends open: one reply cannot stop both.
    for (int depth = 3; depth <= 6; ++depth) {
      connect_four g = played({2, 2, 3, 3});
      const int move = board_games::alphabeta_move(g, depth);
      CHECK((move == 1 || move == 4));
      g.play(move);
      // Whatever player 1 answers, player 0 then wins at once.
      for (int reply = 0; reply < 7; ++reply) {
        if (!g.legal(reply)) continue;
        g.play(reply);
        CHECK(board_games::alphabeta_score(g, 1) >= board_games::win_score - 10);
        g.undo(reply);
      }
    }
  }
  SUBCASE("ties go to the rng when given") {
    // The centre column full, the board mirror-symmetric: columns 2 and 4
    // score the same at any depth.
    connect_four g = played({3, 3, 3, 3, 3, 3});
    CHECK(board_games::alphabeta_move(g, 2) == 2);  // without an rng, the more central, then the left
    std::mt19937_64 rng(3);
    int chosen[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 60; ++k) ++chosen[board_games::alphabeta_move(g, 2, &rng)];
    CHECK(chosen[2] > 10);
    CHECK(chosen[4] > 10);
    CHECK(chosen[2] + chosen[4] == 60);
  }
  SUBCASE("over") {
    connect_four g = played({0, 0, 1, 1, 2, 2, 3});
    CHECK_THROWS_AS(board_games::alphabeta_move(g, 2), std::invalid_argument);
  }
}
}

TEST_SUITE("games") {
TEST_CASE("connect_four: a player's observation gives its game back, the observer to move") {
  std::mt19937_64 rng(21);
  for (int game = 0; game < 300; ++game) {
    troupe::games::connect_four g;
    while (g.state() == troupe::games::connect_four::result::playing) {
      float obs[troupe::games::connect_four::observation_size];
      g.observe(g.to_move(), obs);
      const auto back = troupe::games::connect_four::from_observation(obs);
      REQUIRE(back.to_move() == g.to_move());
      REQUIRE(back.moves() == g.moves());
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 7; ++c) REQUIRE(back.cell(r, c) == g.cell(r, c));
      std::uint8_t a[7], b[7];
      g.legal_moves(a);
      back.legal_moves(b);
      REQUIRE(std::equal(a, a + 7, b));
      int column = int(rng() % 7);
      while (!g.legal(column)) column = int(rng() % 7);
      g.play(column);
    }
  }
  float floating[troupe::games::connect_four::observation_size] = {};
  floating[2 * (3 * 7 + 2)] = 1;      // row 3 of column 2, nothing beneath
  floating[2 * (5 * 7 + 0) + 1] = 1;  // and one of the other's, where it can be
  CHECK_THROWS_WITH_AS(troupe::games::connect_four::from_observation(floating), doctest::Contains("column 2"),
                       std::invalid_argument);
  float too_many[troupe::games::connect_four::observation_size] = {};
  too_many[2 * (5 * 7 + 0)] = too_many[2 * (5 * 7 + 1)] = 1;  // two of the observer's, none of the other's
  CHECK_THROWS_AS(troupe::games::connect_four::from_observation(too_many), std::invalid_argument);
}
}
