// agents/league/match.hpp: a policy against an opponent, seat by seat.
#include <doctest/doctest.h>

#include <cmath>
#include <tuple>
#include <vector>

#include "agents/league/match.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "catalog/players.hpp"
#include "model/net_spec.hpp"
#include "model/shared_model.hpp"

using namespace troupe;

TEST_SUITE("agents") {
TEST_CASE("match: Wilson's interval at the textbook's points") {
  // 0 of 10: [0, 0.2775]; 5 of 10: [0.2366, 0.7634]; 95 of 100: [0.8882, 0.9785].
  auto [lo, hi] = agents::wilson_interval(0, 10);
  CHECK(lo == doctest::Approx(0.0).epsilon(1e-9));
  CHECK(hi == doctest::Approx(0.27754).epsilon(1e-4));
  std::tie(lo, hi) = agents::wilson_interval(5, 10);
  CHECK(lo == doctest::Approx(0.23659).epsilon(1e-4));
  CHECK(hi == doctest::Approx(0.76341).epsilon(1e-4));
  std::tie(lo, hi) = agents::wilson_interval(95, 100);
  CHECK(lo == doctest::Approx(0.88825).epsilon(1e-4));
  CHECK(hi == doctest::Approx(0.97846).epsilon(1e-4));
  // All of them: the interval holds the observed rate, 1, exactly.
  std::tie(lo, hi) = agents::wilson_interval(100, 100);
  CHECK(hi == 1.0);
  CHECK(lo == doctest::Approx(0.96300).epsilon(1e-4));
}

TEST_CASE("match: an untrained policy loses to the search from both seats, and a seed is a match") {
  envs::env_config env;
  env.id = "ConnectFour-v0";
  auto model = model::make_shared_model(model::mlp_spec(84, 7, {32}), 11);
  const auto search = [&](int games, const envs::env_spec& spec) {
    return catalog::builtin_opponents("alphabeta:3", games, env, spec, "test");
  };
  const auto random = [&](int games, const envs::env_spec& spec) {
    return catalog::builtin_opponents("random", games, env, spec, "test");
  };
  for (auto seat : {games::seat_choice::first, games::seat_choice::second}) {
    const agents::seat_record lost = agents::play_seat(*model, env, seat, search, 40, false, 3);
    CHECK(lost.games() == 40);
    CHECK(lost.losses >= 38);  // a random player wins or draws against depth 3 almost never
    const agents::seat_record a = agents::play_seat(*model, env, seat, random, 40, false, 5, 7);
    const agents::seat_record b = agents::play_seat(*model, env, seat, random, 40, false, 5, 64);
    CHECK(a.games() == 40);
    CHECK(a.wins == b.wins);  // whatever the number of games side by side
    CHECK(a.losses == b.losses);
    CHECK(a.wins > 5);  // random against random: both win often
    CHECK(a.losses > 5);
  }
  // A model as the opponent: itself, sampled.
  const auto itself = [&](int games, const envs::env_spec& spec) { return agents::model_opponents(model, games, spec); };
  const agents::seat_record mirror = agents::play_seat(*model, env, games::seat_choice::first, itself, 30, false, 9);
  CHECK(mirror.games() == 30);
}

TEST_CASE("match: a recurrent opponent carries a state per game and agent across the moves between, zeros at "
          "its game's new episode") {
  // Nim3's spaces; the opponent plays agents 1 and 2 of two games. What it
  // is asked, in order: (game 0, agent 1), (game 1, agent 1), (game 0,
  // agent 2) together, then each again alone. Its outputs (the watcher
  // sees them) must be the model's from the state that agent's own last
  // move in that game left, worked out here with plain forward passes.
  envs::env_config env;
  env.id = "Nim3-v0";
  const envs::env_spec spec = catalog::game_spec_of(env);
  model::net_spec net = model::mlp_spec(spec.observation.flat_size(), 3, {8});
  net.recurrent.kind = "gru";
  net.recurrent.size = 4;
  auto m = model::make_shared_model(net, 5);
  std::vector<std::vector<float>> seen;
  auto player = agents::model_opponents(m, 2, spec, /*greedy=*/true, [&](const float* policy, const float*,
                                                                          const std::uint8_t*) {
    seen.emplace_back(policy, policy + 3);
  });
  const size_t n = size_t(spec.observation.flat_size());
  const auto view = [&](int k) {
    std::vector<float> o(n, 0.0f);
    o[size_t(k)] = 1.0f;  // counters left
    o[16 + size_t(k % 3)] = 1.0f;
    return o;
  };
  const auto forward = [&](const std::vector<float>& obs, const std::vector<float>& states, int rows) {
    model::prediction out;
    model::predict(*m, obs.data(), states.empty() ? nullptr : states.data(), rows, out);
    return out;
  };
  const auto row = [](const std::vector<float>& v, size_t r, size_t width) {
    return std::vector<float>(v.begin() + long(r * width), v.begin() + long((r + 1) * width));
  };
  const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-5));
  };
  player->start_episode(0, 1);
  player->start_episode(1, 2);
  std::vector<float> first;
  for (int k : {15, 14, 13}) {
    const auto o = view(k);
    first.insert(first.end(), o.begin(), o.end());
  }
  std::vector<float> actions(3);
  std::vector<std::uint8_t> legal(9, 1);
  const int games3[] = {0, 1, 0}, agents3[] = {1, 1, 2};
  player->act(games3, agents3, 3, first.data(), legal.data(), actions.data());
  const model::prediction zero = forward(first, {}, 3);
  REQUIRE(seen.size() == 3);
  for (size_t r = 0; r < 3; ++r) same(seen[r], row(zero.policy, r, 3));
  // Game 0's agent 1 again: from the state its first move left, not agent
  // 2's (which moved after it) nor game 1's.
  const auto next = view(10);
  const int g0[] = {0}, g1[] = {1}, a1[] = {1}, a2[] = {2};
  player->act(g0, a1, 1, next.data(), legal.data(), actions.data());
  same(seen.back(), forward(next, row(zero.states, 0, 4), 1).policy);
  player->act(g0, a2, 1, next.data(), legal.data(), actions.data());
  same(seen.back(), forward(next, row(zero.states, 2, 4), 1).policy);
  player->act(g1, a1, 1, next.data(), legal.data(), actions.data());
  same(seen.back(), forward(next, row(zero.states, 1, 4), 1).policy);
  // A new episode of game 0: its agents start from zeros again; game 1's
  // agent 1 goes on from its second move.
  const model::prediction game1_second = forward(next, row(zero.states, 1, 4), 1);
  player->start_episode(0, 3);
  player->act(g0, a1, 1, next.data(), legal.data(), actions.data());
  same(seen.back(), forward(next, {}, 1).policy);
  player->act(g1, a1, 1, next.data(), legal.data(), actions.data());
  same(seen.back(), forward(next, game1_second.states, 1).policy);
  // The states differ enough that the checks above could fail: carrying
  // game 0's agent 1 state into agent 2's move would change its outputs.
  const auto carried = forward(next, row(zero.states, 0, 4), 1).policy;
  const auto fresh = forward(next, {}, 1).policy;
  double gap = 0;
  for (size_t i = 0; i < 3; ++i) gap += std::abs(carried[i] - fresh[i]);
  CHECK(gap > 1e-4);
}
}
