// The PettingZoo bridge (bridges/python/python_game_vector.hpp for AEC and
// Parallel games, troupe_games.py) with real
// host processes, on games written in the tests whose per-agent rewards are
// known by hand (tests/bridges/python/aec_test_games.py): every move's rewards
// reach each agent, a seat's step holds what its agent got from its move to
// its next (a reward on the opponent's move included), dead steps are the
// bridge's, both sides of a Parallel game act in one step, a scripted Python
// player plays the other side, agents of different spaces each get and give
// their own sizes, agents of a three-agent AEC game leave one by one, and
// what is not a game is refused by name.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "catalog/players.hpp"
#include "games/seat_vector.hpp"
#include "tests/bridges/python/host_processes.hpp"

using namespace troupe::envs;
using namespace troupe::games;
using namespace troupe::catalog;

namespace {

const std::string game_dirs[] = {std::string(TROUPE_SOURCE_DIR) + "/examples/python_game",
                                 std::string(TROUPE_SOURCE_DIR) + "/tests/bridges/python",
                                 std::string(TROUPE_SOURCE_DIR) + "/examples/python_env"};

env_config game_config(const std::string& id, const std::string& kwargs = "{}") {
  env_config c;
  c.id = id;
  c.python_path = {game_dirs[0], game_dirs[1], game_dirs[2], "/aec-bridge-test-marker"};
  c.kwargs = kwargs;
  return c;
}

std::string creation_error(const std::function<void()>& make) {
  try {
    make();
  } catch (const env_key_error& e) {
    return e.what();
  }
  return "";
}

// One move of game g with action `a`.
game_result move(game_vector& v, int g, float a) {
  game_result r;
  v.step(&g, 1, &a, &r);
  return r;
}

// Plays the seats the learner does not, recording each row's asker (its
// view's index); agent `resigner` resigns (action 1) on its first move.
struct elimination_players final : opponents {
  int resigner = -1;
  int resign_episodes = 0;  // in the first this many episodes, every agent resigns
  int started = 0;
  std::vector<std::vector<int>> batches;  // the agents asked, per act()
  std::vector<double> ended;
  void start_episode(int, std::uint64_t) override { ++started; }
  void act(const int*, const int*, int rows, const float* obs, const std::uint8_t*, float* actions) override {
    batches.emplace_back();
    for (int r = 0; r < rows; ++r) {
      const int agent = int(obs[3 * r + 1]);
      batches.back().push_back(agent);
      actions[r] = agent == resigner || started <= resign_episodes ? 1.f : 0.f;
    }
  }
  void end_episode(int, double learner_return) override { ended.push_back(learner_return); }
};

}  // namespace

TEST_SUITE("bridges") {
TEST_CASE("AEC bridge: each move's rewards reach every agent, the end after the dead steps") {
  auto games = make_game_vector(game_config("python:aec_test_games:countdown"), 3);
  REQUIRE(games->size() == 3);
  CHECK(games->agent_count() == 2);
  CHECK(games->agent_name(0) == "first");
  CHECK(games->agent_name(1) == "second");
  CHECK(games->spec().observation.flat_size() == 2);
  CHECK(games->spec().action.choice_count() == 2);
  const int all[] = {0, 1, 2};
  const std::uint64_t seeds[] = {0, 1, 3};  // counts 4, 5, 4
  games->reset(all, 3, seeds);
  float view[2];
  games->observe(1, 1, view);
  CHECK(view[0] == 5);  // game 1's count, as the second agent sees it
  CHECK(view[1] == 1);
  games->observe(2, 0, view);
  CHECK(view[0] == 4);
  CHECK(view[1] == 0);
  // Game 0: first takes 1, second takes 1, first takes 2: the count ends at 0.
  CHECK(games->to_move(0) == 0);
  turn_result r = move(*games, 0, 0);
  CHECK(r.rewards[0] == doctest::Approx(0.1));
  CHECK(r.rewards[1] == doctest::Approx(0.01));
  CHECK_FALSE(r.terminated);
  CHECK(games->to_move(0) == 1);
  r = move(*games, 0, 0);
  CHECK(r.rewards[0] == doctest::Approx(0.01));
  CHECK(r.rewards[1] == doctest::Approx(0.1));
  CHECK(games->to_move(0) == 0);
  r = move(*games, 0, 1);
  CHECK(r.rewards[0] == doctest::Approx(1.1));  // the winning move: 0.1 + 1
  CHECK(r.rewards[1] == doctest::Approx(-0.99));
  CHECK(r.terminated);
  CHECK_FALSE(r.truncated);
  CHECK(games->to_move(0) == -1);
  games->observe(0, 1, view);  // the end as the loser sees it
  CHECK(view[0] == 0);
  // A batch: games 1 and 2 move together; game 0 cannot move after its end.
  const int two[] = {1, 2};
  const float takes[] = {1, 1};
  turn_result both[2];
  games->step(two, 2, takes, both);
  CHECK(both[0].rewards[0] == doctest::Approx(0.1));
  CHECK(both[1].rewards[1] == doctest::Approx(0.01));
  games->observe(1, 0, view);
  CHECK(view[0] == 3);
  games->observe(2, 0, view);
  CHECK(view[0] == 2);
  CHECK_THROWS_AS(move(*games, 0, 0), std::logic_error);
  // A reset brings game 0 back.
  const int zero[] = {0};
  const std::uint64_t seed[] = {2};
  games->reset(zero, 1, seed);
  CHECK(games->to_move(0) == 0);
  games->observe(0, 0, view);
  CHECK(view[0] == 6);
}

TEST_CASE("AEC bridge: without _cumulative_rewards, the rewards dict of each move") {
  auto games = make_game_vector(game_config("python:aec_test_games:countdown", R"({"cumulative": false})"), 1);
  const int g[] = {0};
  const std::uint64_t seed[] = {0};
  games->reset(g, 1, seed);
  turn_result r = move(*games, 0, 1);  // 4 -> 2
  CHECK(r.rewards[0] == doctest::Approx(0.1));
  r = move(*games, 0, 1);  // 2 -> 0: the second agent wins
  CHECK(r.rewards[0] == doctest::Approx(-0.99));
  CHECK(r.rewards[1] == doctest::Approx(1.1));
  CHECK(r.terminated);
}

TEST_CASE("AEC bridge: a seat's step holds its agent's rewards from its move to its next, from either seat") {
  // Against a scripted Python player that always takes 1.
  for (const char* seat : {"first", "second"}) {
    env_config c = game_config("python:aec_test_games:countdown");
    c.versus.opponent = "python:aec_test_games:take_one";
    c.versus.seat = seat;
    auto v = make_env_vector(c, 2);
    REQUIRE(v->spec().id == "python:aec_test_games:countdown");
    const std::uint64_t seeds[] = {0, 0};  // both games count from 4
    std::vector<float> obs(4), final_obs(4);
    v->reset(seeds, obs.data());
    step_result results[2];
    if (std::string(seat) == "first") {
      CHECK(obs[0] == 4);
      const float take_one[] = {0, 0}, take_two[] = {1, 1};
      v->step(take_one, nullptr, obs.data(), results, final_obs.data());  // 4 -> 3, the player: 3 -> 2
      CHECK(results[0].reward == doctest::Approx(0.11));  // its 0.1, and 0.01 on the player's move
      CHECK_FALSE(results[0].terminated);
      CHECK(obs[0] == 2);
      v->step(take_two, nullptr, obs.data(), results, final_obs.data());  // 2 -> 0: a win
      CHECK(results[1].reward == doctest::Approx(1.1));
      CHECK(results[1].terminated);
      CHECK(final_obs[2] == 0);
    } else {
      CHECK(obs[0] == 3);  // the player's opening move was made at the reset
      const float take_two[] = {1, 1};
      v->step(take_two, nullptr, obs.data(), results, final_obs.data());  // 3 -> 1, the player: 1 -> 0
      // 0.01 from the opening move, its own 0.1, and the loss on the player's move.
      CHECK(results[0].reward == doctest::Approx(0.01 + 0.1 + 0.01 - 1.0));
      CHECK(results[0].terminated);
    }
  }
}

TEST_CASE("AEC bridge: the built-in random player and self-play games of a Python game") {
  env_config c = game_config("python:tictactoe:make");
  auto v = make_env_vector(c, 8);  // env.opponent random, alternate seats
  CHECK(v->spec().has_action_mask);
  CHECK(v->spec().observation.flat_size() == 18);
  CHECK(v->spec().observation_mask_key == "action_mask");
  std::vector<std::uint64_t> seeds(8);
  for (int i = 0; i < 8; ++i) seeds[size_t(i)] = std::uint64_t(i);
  std::vector<float> obs(8 * 18), final_obs(8 * 18), actions(8);
  std::vector<std::uint8_t> masks(8 * 9);
  std::vector<step_result> results(8);
  v->reset(seeds.data(), obs.data());
  int ended = 0;
  for (int t = 0; t < 200; ++t) {
    v->action_masks(masks.data());
    for (int i = 0; i < 8; ++i) {
      int legal = 0, first = -1;
      for (int k = 0; k < 9; ++k)
        if (masks[size_t(i * 9 + k)]) ++legal, first = first < 0 ? k : first;
      REQUIRE(legal > 0);
      // The mask is the empty squares of the agent's own view.
      for (int k = 0; k < 9; ++k)
        CHECK(bool(masks[size_t(i * 9 + k)]) == (obs[size_t(i * 18 + 2 * k)] == 0 && obs[size_t(i * 18 + 2 * k + 1)] == 0));
      actions[size_t(i)] = float(first);
    }
    v->step(actions.data(), seeds.data(), obs.data(), results.data(), final_obs.data());
    for (const auto& r : results) {
      if (r.terminated) ++ended;
      CHECK((r.reward == 0 || std::abs(r.reward) == 1));
    }
  }
  CHECK(ended > 20);
}

TEST_CASE("AEC bridge: three agents leave one by one; a seat's episode is its agent's, the others move in turn") {
  env_config c = game_config("python:aec_test_games:elimination");
  {  // The bridge itself: each agent's end at the move where it appeared.
    auto games = make_game_vector(c, 2);
    REQUIRE(games->agent_count() == 3);
    CHECK(games->agent_name(2) == "c");
    const int all[] = {0, 1};
    const std::uint64_t seeds[] = {1, 2};
    games->reset(all, 2, seeds);
    turn_result r = move(*games, 0, 0);  // a stays
    CHECK(r.rewards == std::vector<double>{0.1, 0.01, 0.01});
    CHECK(r.left.empty());
    CHECK(games->to_move(0) == 1);
    r = move(*games, 0, 1);  // b resigns
    CHECK(r.rewards[0] == doctest::Approx(0.5));
    CHECK(r.rewards[1] == doctest::Approx(-1.0));
    CHECK(r.rewards[2] == doctest::Approx(0.5));
    CHECK(r.left == std::vector<std::uint8_t>{0, turn_result::agent_terminated, 0});
    CHECK_FALSE(r.terminated);
    CHECK(games->to_move(0) == 2);  // b's dead step was the bridge's; c moves
    r = move(*games, 0, 1);         // c resigns: a, alone, wins
    CHECK(r.rewards[0] == doctest::Approx(1.5));
    CHECK(r.rewards[2] == doctest::Approx(-1.0));
    CHECK(r.left == std::vector<std::uint8_t>{turn_result::agent_terminated, 0, turn_result::agent_terminated});
    CHECK(r.terminated);
    CHECK(games->to_move(0) == -1);
    CHECK(games->to_move(1) == 0);  // game 1 untouched
  }
  std::vector<float> obs(6), final_obs(6), stay(2, 0.f), resign(2, 1.f);
  std::vector<step_result> r(2);
  const std::vector<std::uint64_t> seeds{1, 2};
  {  // The first seat: b resigns on its move, then only c is asked.
    auto players = std::make_unique<elimination_players>();
    elimination_players& p = *players;
    p.resigner = 1;
    seat_vector seat(make_game_vector(c, 2), seat_choice::first, std::move(players));
    seat.reset(seeds.data(), obs.data());
    CHECK(p.batches.empty());
    seat.step(stay.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    // a's +0.1, b's resignation +0.5, c's stay +0.01: all a's.
    CHECK(r[0].reward == doctest::Approx(0.61));
    CHECK(r[1].reward == doctest::Approx(0.61));
    REQUIRE(p.batches.size() == 2);  // round by round, both games at once
    CHECK(p.batches[0] == std::vector<int>{1, 1});
    CHECK(p.batches[1] == std::vector<int>{2, 2});
    CHECK(obs[2] == 2);  // a sees two agents left
    // Moves 4-9 are a, c, a, c, a, c: b is never asked again, and the ninth
    // move cuts a's episode.
    for (int k = 0; k < 3; ++k) {
      seat.step(stay.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
      CHECK(r[0].reward == doctest::Approx(0.11));
      CHECK(r[0].terminated == false);
      CHECK(r[0].truncated == (k == 2));
    }
    REQUIRE(p.batches.size() == 5);
    for (size_t b = 1; b < p.batches.size(); ++b) CHECK(p.batches[b] == std::vector<int>{2, 2});
    REQUIRE(p.ended.size() == 2);
    CHECK(p.ended[0] == doctest::Approx(0.94));
    CHECK(final_obs[0] == 9);
    CHECK(obs[0] == 0);  // the game anew
  }
  {  // The second seat resigns: its episode ends with its agent's, the
     // others' game is reset, though two agents were left in it.
    auto players = std::make_unique<elimination_players>();
    elimination_players& p = *players;
    seat_vector seat(make_game_vector(c, 2), seat_choice::second, std::move(players));
    seat.reset(seeds.data(), obs.data());
    REQUIRE(p.batches.size() == 1);
    CHECK(p.batches[0] == std::vector<int>{0, 0});  // a moves first
    seat.step(resign.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    CHECK(r[0].reward == doctest::Approx(0.01 - 1.0));
    CHECK(r[0].terminated);
    CHECK_FALSE(r[0].truncated);
    REQUIRE(p.ended.size() == 2);
    CHECK(p.ended[0] == doctest::Approx(-0.99));
    CHECK(obs[0] == 1);  // anew: a has moved once, b's turn
    CHECK(obs[2] == 3);
  }
  {  // The third seat. In its first game a and b resign before c moves,
     // which ends the game with c never having moved: it starts again, and
     // c's first step holds nothing of the game it did not play.
    auto players = std::make_unique<elimination_players>();
    elimination_players& p = *players;
    p.resign_episodes = 1;
    seat_vector seat(make_game_vector(c, 1), seat_at(2), std::move(players));
    seat.reset(seeds.data(), obs.data());
    CHECK(p.started == 2);
    REQUIRE(p.batches.size() == 4);  // a, b; and anew a, b
    CHECK(p.batches[2] == std::vector<int>{0});
    CHECK(obs[0] == 2);  // a and b have moved, and stayed
    CHECK(obs[1] == 2);
    CHECK(obs[2] == 3);
    seat.step(stay.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
    CHECK(r[0].reward == doctest::Approx(0.01 + 0.01 + 0.1 + 0.01 + 0.01));
    CHECK(p.ended.empty());
    // The config's way to the third seat, against the scripted stays.
    c.versus.seat = "third";
    c.versus.opponent = "python:aec_test_games:stays";
    auto v = make_env_vector(c, 1);
    v->reset(seeds.data(), obs.data());
    CHECK(obs[0] == 2);
    CHECK(obs[1] == 2);
    c.versus.seat = "fourth";
    CHECK(creation_error([&] { make_env_vector(c, 1); }).find("no fourth seat") != std::string::npos);
  }
}

TEST_CASE("Parallel bridge: both sides' actions in one step, each side's rewards, masks from the infos") {
  for (const char* seat : {"first", "second"}) {
    env_config c = game_config("python:aec_test_games:pennies");
    c.versus.opponent = "python:aec_test_games:always_two";
    c.versus.seat = seat;
    auto v = make_env_vector(c, 2);
    CHECK(v->spec().has_action_mask);
    const int me = std::string(seat) == "first" ? 0 : 1;
    const std::uint64_t seeds[] = {0, 1};
    std::vector<float> obs(6), final_obs(6);
    std::vector<std::uint8_t> masks(6);
    step_result results[2];
    v->reset(seeds, obs.data());
    CHECK(obs[1] == me);  // each row from the learning side
    v->action_masks(masks.data());
    CHECK(masks == std::vector<std::uint8_t>{0, 1, 1, 0, 1, 1});  // action 0 is masked in the first round
    const float ones[] = {1, 1}, twos[] = {2, 2};
    v->step(ones, seeds, obs.data(), results, final_obs.data());
    CHECK(results[0].reward == doctest::Approx(0.1 * 1 + 0.01 * 2));
    CHECK(obs[2] == 2);  // the other side's last action
    v->action_masks(masks.data());
    CHECK(masks[0] == 1);
    v->step(ones, seeds, obs.data(), results, final_obs.data());
    v->step(twos, seeds, obs.data(), results, final_obs.data());
    CHECK(results[1].terminated);
    CHECK(results[1].reward == doctest::Approx(0.1 * 2 + 0.01 * 2 + (me == 0 ? 1 : -1)));  // both played 2: even wins
    CHECK(final_obs[3] == 3);  // game 1's end, before its reset
    CHECK(obs[0] == 0);        // and the next episode's start
  }
  env_config c = game_config("python:aec_test_games:pennies");
  CHECK_FALSE(make_game_vector(c, 1)->turn_based());  // one vector for both kinds, as its host says
  CHECK(make_game_vector(game_config("python:aec_test_games:countdown"), 1)->turn_based());
}

TEST_CASE("Parallel bridge: three agents, a team of one policy (env.seat all) or one seat against the others") {
  env_config c = game_config("python:aec_test_games:tally");
  c.versus.seat = "all";
  auto team = make_env_vector(c, 2);
  REQUIRE(team->size() == 6);  // two games of three
  std::vector<float> obs(18), final_obs(18);
  std::vector<step_result> r(6);
  const std::vector<std::uint64_t> seeds{1, 2, 3, 4, 5, 6};
  team->reset(seeds.data(), obs.data());
  for (int row = 0; row < 6; ++row) CHECK(obs[size_t(row) * 3 + 1] == row % 3);
  const std::vector<float> actions{0, 1, 2, 3, 0, 1};
  team->step(actions.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  for (int row = 0; row < 6; ++row) {
    CAPTURE(row);
    CHECK(r[size_t(row)].reward == doctest::Approx(0.1 * actions[size_t(row)] + 0.001 * (row % 3 + 1)));
  }
  CHECK(obs[2] == 1 + 2);  // agent 0 of game 0 sees its teammates' actions
  {  // the same game with views of shape (3, 1): flat, in the same order
    env_config columns = c;
    columns.id = "python:aec_test_games:tally_columns";
    auto v = make_env_vector(columns, 1);
    std::vector<float> o(9), fo(9);
    std::vector<step_result> cr(3);
    v->reset(seeds.data(), o.data());
    v->step(actions.data(), seeds.data(), o.data(), cr.data(), fo.data());
    for (int row = 0; row < 3; ++row) CHECK(o[size_t(row) * 3 + 1] == row);
    CHECK(o[2] == 1 + 2);
  }
  team->step(actions.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  team->step(actions.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  for (int row = 0; row < 6; ++row) CHECK(r[size_t(row)].terminated);
  CHECK(final_obs[0] == 3);
  CHECK(obs[0] == 0);

  // One agent leaves: its row ends as it did, its teammates' are cut.
  c.id = "python:aec_test_games:tally_leaving";
  auto leaving = make_env_vector(c, 1);
  std::vector<float> o(9), fo(9);
  std::vector<step_result> lr(3);
  leaving->reset(seeds.data(), o.data());
  const std::vector<float> ones{1, 1, 1};
  leaving->step(ones.data(), seeds.data(), o.data(), lr.data(), fo.data());
  CHECK(lr[1].terminated);
  CHECK(lr[0].truncated);
  CHECK(lr[2].truncated);
  CHECK(o[0] == 0);  // the game anew

  // The first seat, the two others played by one scripted player (it plays 2).
  c.id = "python:aec_test_games:tally_leaving";
  c.versus.seat = "first";
  c.versus.opponent = "python:aec_test_games:always_two";
  auto seat = make_env_vector(c, 2);
  REQUIRE(seat->size() == 2);
  seat->reset(seeds.data(), obs.data());
  seat->step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  CHECK(r[0].reward == doctest::Approx(0.1 + 0.001));
  CHECK(obs[2] == 2 + 2);  // both others played 2
  // t1 left; t2 alone is asked, and the game refuses an action for t1.
  seat->step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  CHECK(obs[2] == 2 + 2);  // t1's last action stays in the sum
  seat->step(ones.data(), seeds.data(), obs.data(), r.data(), final_obs.data());
  CHECK(r[0].terminated);
}

TEST_CASE("Parallel bridge: an agent leaves first, the other plays on alone with its own action only") {
  for (const char* seat : {"first", "second"}) {
    env_config c = game_config("python:aec_test_games:one_leaves");
    c.versus.opponent = "python:aec_test_games:always_two";
    c.versus.seat = seat;
    auto v = make_env_vector(c, 2);
    const std::uint64_t seeds[] = {0, 1};
    std::vector<float> obs(4), final_obs(4);
    step_result r[2];
    v->reset(seeds, obs.data());
    const float ones[] = {1, 1};
    v->step(ones, seeds, obs.data(), r, final_obs.data());
    if (std::string(seat) == "first") {
      // "leaves" is gone; the game raises if it is given an action again.
      CHECK(r[0].reward == doctest::Approx(0.1));
      CHECK_FALSE(r[0].terminated);
      CHECK_FALSE(r[0].truncated);
      v->step(ones, seeds, obs.data(), r, final_obs.data());
      CHECK(r[1].reward == doctest::Approx(0.1));
      CHECK(obs[2] == 2);  // game 1's round
      v->step(ones, seeds, obs.data(), r, final_obs.data());
      CHECK(r[1].truncated);
      CHECK_FALSE(r[1].terminated);
      CHECK(final_obs[2] == 3);
      CHECK(obs[2] == 0);  // and the next episode
    } else {
      CHECK(r[0].reward == doctest::Approx(1.1));
      CHECK(r[0].terminated);
      CHECK(final_obs[0] == 1);
      CHECK(obs[0] == 0);
      v->step(ones, seeds, obs.data(), r, final_obs.data());  // a new game goes on
      CHECK(r[1].terminated);
    }
  }
}

TEST_CASE("AEC bridge: alpha-beta looks ahead in copies of the game in play, through wrappers, when the game pickles as new") {
  // The game pickles as its constructor's arguments and sits in two
  // forwarding wrappers, as PettingZoo's classic games do: a plain deep copy
  // would be a game before its first reset.
  auto games = make_game_vector(game_config("python:aec_test_games:wrapped_countdown"), 3);
  REQUIRE(games->can_search());
  const int all[] = {0, 1, 2};
  const std::uint64_t seeds[] = {0, 1, 0};  // counts 4, 5, 4
  games->reset(all, 3, seeds);
  move(*games, 2, 1);  // game 2: count 2, the second agent to move
  // Forced wins: from 4 take 1 (action 0), from 5 take 2 (action 1), leaving
  // 3, whence the other cannot stop the mover; from 2, take 2 at once.
  const std::uint64_t draws[] = {7, 8, 9};
  float actions[3] = {-1, -1, -1};
  games->search_moves(all, 3, 3, draws, actions);
  CHECK(actions[0] == 0);
  CHECK(actions[1] == 1);
  CHECK(actions[2] == 1);
  // The games in play are where they were: the search moved copies.
  float view[2];
  games->observe(0, 0, view);
  CHECK(view[0] == 4);
  games->observe(2, 1, view);
  CHECK(view[0] == 2);
  CHECK(games->to_move(2) == 1);
  const turn_result r = move(*games, 1, 1);
  CHECK_FALSE(r.terminated);
  games->observe(1, 1, view);
  CHECK(view[0] == 3);
}

TEST_CASE("AEC bridge: agents of different spaces, each one's views, masks and moves in its own sizes") {
  env_config c = game_config("python:aec_test_games:signal_aec");
  auto v = make_game_vector(c, 2);
  CHECK(v->agent_name(0) == "sender");
  CHECK(v->agent_spec(0).observation.describe() == "Box(3)");
  CHECK(v->agent_spec(0).action.describe() == "Discrete(5)");
  CHECK(v->agent_spec(1).observation.describe() == "Box(5)");
  CHECK(v->agent_spec(1).action.describe() == "Discrete(3)");
  CHECK(v->agent_spec(1).has_action_mask);
  const int games[] = {0, 1};
  const std::uint64_t seeds[] = {4, 5};  // secrets 1 and 2
  v->reset(games, 2, seeds);
  float sender[3], receiver[5];
  std::uint8_t legal[5];
  for (int g = 0; g < 2; ++g) {
    CAPTURE(g);
    v->observe(g, 0, sender);
    CHECK(sender[1 + g] == 1.f);
    CHECK(sender[0] + sender[1] + sender[2] == 1.f);
    v->observe(g, 1, receiver);
    for (float x : receiver) CHECK(x == 0.f);
    v->action_mask(g, 0, legal);  // the sender's, its mover's
    CHECK(std::vector<std::uint8_t>(legal, legal + 5) == std::vector<std::uint8_t>{0, 1, 1, 1, 1});
  }
  const float signals[] = {4, 1};
  turn_result results[2];
  v->step(games, 2, signals, results);
  CHECK(v->to_move(0) == 1);
  v->observe(0, 1, receiver);
  CHECK(std::vector<float>(receiver, receiver + 5) == std::vector<float>{0, 0, 0, 0, 1});
  std::fill_n(legal, 5, std::uint8_t(7));
  v->action_mask(0, 1, legal);
  CHECK(std::vector<std::uint8_t>(legal, legal + 5) == std::vector<std::uint8_t>{1, 1, 1, 7, 7});  // three, no more
  const float guesses[] = {1, 0};  // right, then wrong
  v->step(games, 2, guesses, results);
  CHECK(results[0].rewards == std::vector<double>{1, 1});
  CHECK(results[1].rewards == std::vector<double>{-1, -1});
  CHECK(results[0].terminated);

  // A receiver of two floats: the sender's rows of one are widened for the
  // host, the receiver's arrive whole.
  auto boxed = make_game_vector(game_config("python:aec_test_games:signal_aec", R"({"box_receiver": true})"), 2);
  CHECK(boxed->agent_spec(1).action.describe() == "Box(2)");
  CHECK_FALSE(boxed->agent_spec(0).has_action_mask);
  boxed->reset(games, 2, seeds);
  boxed->step(games, 2, signals, results);
  const float box_guesses[] = {0.f, 0.5f, -0.9f, 0.5f};  // guess 1 (right), guess 0 (wrong)
  boxed->step(games, 2, box_guesses, results);
  CHECK(results[0].rewards == std::vector<double>{1, 1});
  CHECK(results[1].rewards == std::vector<double>{-1, -1});

  // A seat of it has its own agent's spaces; the random sender plays the
  // other's, within its mask.
  c.versus.opponent = "random";
  c.versus.seat = "second";
  auto seat = make_env_vector(c, 3);
  CHECK(seat->spec().observation.describe() == "Box(5)");
  CHECK(seat->spec().action.describe() == "Discrete(3)");
  std::vector<float> obs(15);
  const std::uint64_t three[] = {1, 2, 3};
  seat->reset(three, obs.data());
  for (int g = 0; g < 3; ++g) {
    CHECK(obs[size_t(5 * g)] == 0.f);  // signal 0 is never sent
    float sum = 0;
    for (int k = 1; k < 5; ++k) sum += obs[size_t(5 * g + k)];
    CHECK(sum == 1.f);
  }
  c.versus.seat = "alternate";
  const std::string alternate = creation_error([&] { make_env_vector(c, 1); });
  CHECK(alternate.find("sender (Box(3) -> Discrete(5) (masked)) and receiver (Box(5) -> Discrete(3) (masked)) have "
                       "different spaces") != std::string::npos);
}

TEST_CASE("Parallel bridge: agents of different spaces, each side's actions in its own width") {
  for (const char* seat : {"first", "second"}) {
    CAPTURE(seat);
    const bool small = std::string(seat) == "first";
    env_config c = game_config("python:aec_test_games:lopsided");
    c.versus.opponent = small ? "python:aec_test_games:half_quarter" : "python:aec_test_games:always_two";
    c.versus.seat = seat;
    auto v = make_env_vector(c, 2);
    CHECK(v->spec().observation.describe() == (small ? "Box(2)" : "Box(5)"));
    CHECK(v->spec().action.describe() == (small ? "Discrete(3)" : "Box(2)"));
    const size_t obs_size = small ? 2 : 5, width = small ? 1 : 2;
    std::vector<float> obs(2 * obs_size), final_obs(2 * obs_size);
    const std::uint64_t seeds[] = {0, 1};
    step_result results[2];
    v->reset(seeds, obs.data());
    CHECK(obs[1] == (small ? 0.f : 1.f));
    if (!small) CHECK(obs[4] == 4.f);
    std::vector<float> actions = small ? std::vector<float>{2, 1} : std::vector<float>{0.1f, 0.2f, -0.1f, 0.f};
    REQUIRE(actions.size() == 2 * width);
    v->step(actions.data(), seeds, obs.data(), results, final_obs.data());
    if (small) {
      CHECK(results[0].reward == doctest::Approx(2 + 5 - 25));  // large played [0.5, -0.25]
      CHECK(results[1].reward == doctest::Approx(1 + 5 - 25));
    } else {
      CHECK(results[0].reward == doctest::Approx(-(2 + 1 + 20)));  // small played 2
      CHECK(results[1].reward == doctest::Approx(-(2 - 1 + 0)));
    }
    v->step(actions.data(), seeds, obs.data(), results, final_obs.data());
    CHECK(results[0].terminated);
  }
  env_config c = game_config("python:aec_test_games:lopsided");
  const game_agents agents = game_agents_of(c);
  CHECK(agents.names == std::vector<std::string>{"small", "large"});
  CHECK(agents.specs.at(1).observation.describe() == "Box(5)");
}

TEST_CASE("AEC bridge: what is not a PettingZoo game, and an unknown player, are refused, naming them") {
  const std::string single = creation_error([] { make_game_vector(game_config("python:cartpole_py:CartPole"), 1); });
  CHECK(single.find("not a PettingZoo game") != std::string::npos);
  env_config c = game_config("python:tictactoe:make");
  c.versus.opponent = "alphabeta:2";
  c.versus.opponent = "python:aec_test_games:no_such_player";
  const std::string missing = creation_error([&] { make_env_vector(c, 1); });
  CHECK(missing.find("no_such_player") != std::string::npos);
  CHECK_THROWS_AS(catalog::check_opponent_name("alphabeta:12", "python:tictactoe:make", "env.opponent"),
                  std::invalid_argument);
  CHECK_THROWS_AS(catalog::check_opponent_name("python:", "python:tictactoe:make", "env.opponent"), std::invalid_argument);
  CHECK_NOTHROW(catalog::check_opponent_name("python:tictactoe:perfect", "python:tictactoe:make", "env.opponent"));
}

TEST_CASE("AEC bridge: a game that raises or dies, and a player that answers wrongly, are errors within seconds") {
  for (const char* kwargs : {R"({"raise_on_move": 3})", R"({"die_on_move": 3})"}) {
    auto games = make_game_vector(game_config("python:aec_test_games:countdown", kwargs), 2);
    const int all[] = {0, 1};
    const std::uint64_t seeds[] = {1, 1};
    games->reset(all, 2, seeds);
    const float a[] = {0, 0};
    turn_result r[2];
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
      for (int t = 0; t < 3; ++t) games->step(all, 2, a, r);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    if (std::string(kwargs).find("raise") != std::string::npos)
      CHECK(message.find("the test's countdown raises") != std::string::npos);
    else
      CHECK_FALSE(message.empty());
  }
  {
    env_config c = game_config("python:aec_test_games:countdown");
    c.versus.opponent = "python:aec_test_games:wrong_player";
    c.versus.seat = "second";
    auto v = make_env_vector(c, 1);
    std::uint64_t seed = 0;
    float obs[2];
    std::string message;
    try {
      v->reset(&seed, obs);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    CHECK(message.find("wrong_player") != std::string::npos);
    CHECK(message.find("chose 7") != std::string::npos);
  }
  CHECK(troupe::tests::hosts_left("/aec-bridge-test-marker").empty());
}
}
