// agents/match.hpp: a policy against an opponent, seat by seat.
#include <doctest/doctest.h>

#include <tuple>

#include "agents/match.hpp"
#include "envs/registry.hpp"
#include "envs/games/builtin_opponents.hpp"
#include "model/net_spec.hpp"

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
    return envs::games::builtin_opponents("alphabeta:3", games, env, spec, "test");
  };
  const auto random = [&](int games, const envs::env_spec& spec) {
    return envs::games::builtin_opponents("random", games, env, spec, "test");
  };
  for (auto seat : {envs::seat_choice::first, envs::seat_choice::second}) {
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
  const agents::seat_record mirror = agents::play_seat(*model, env, envs::seat_choice::first, itself, 30, false, 9);
  CHECK(mirror.games() == 30);
}
}
