// actors/league/policy_opponents.hpp: another policy of the run playing seats
// through its model-owner. A recurrent one carries a state per game and
// agent across the moves between, as a learning agent carries its own.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "actors/model_owner.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/league/policy_opponents.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "model/net_spec.hpp"
#include "model/shared_model.hpp"

using namespace troupe;

TEST_SUITE("actors") {
TEST_CASE("policy opponents: a recurrent policy's state per game and agent goes to its model-owner and back") {
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  envs::env_config env;
  env.id = "Nim3-v0";
  const envs::env_spec spec = catalog::game_spec_of(env);
  const int n = spec.observation.flat_size();
  model::net_spec net = model::mlp_spec(n, 3, {8});
  net.recurrent.kind = "gru";
  net.recurrent.size = 4;
  auto m = model::make_shared_model(net, 5);
  const auto view = [&](int k) {
    std::vector<float> o(size_t(n), 0.0f);
    o[size_t(k)] = 1.0f;
    o[16] = 1.0f;
    return o;
  };
  const auto forward = [&](const std::vector<float>& obs, const std::vector<float>& states) {
    model::prediction out;
    model::predict(*m, obs.data(), states.empty() ? nullptr : states.data(), 1, out);
    return out;
  };
  const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-5));
  };
  // Through the owner's lane (a run's own agents) and by message (no lane).
  for (const bool with_lane : {true, false}) {
    CAPTURE(with_lane);
    auto lane = with_lane ? std::make_shared<actors::predict_lane>() : nullptr;
    auto owner = actors::spawn_model_owner(sys, m, {8}, 1, lane);
    auto player = actors::policy_opponents(sys, caf::actor_cast<actors::predict_service>(owner), lane, spec,
                                           "other", net.recurrent.state_size());
    std::vector<float> actions(1);
    std::vector<std::uint8_t> legal(3, 1);
    const int game[] = {0}, agent1[] = {1}, agent2[] = {2};
    const auto move = [&](const int* agent, const std::vector<float>& obs) {
      player->act(game, agent, 1, obs.data(), legal.data(), actions.data());
      envs::other_seat_view seen;
      player->describe(0, seen);  // game 0 is the watched one: its outputs come back
      return seen.policy;
    };
    player->start_episode(0, 1);
    const auto o15 = view(15), o14 = view(14), o10 = view(10);
    const model::prediction first = forward(o15, {});
    same(move(agent1, o15), first.policy);
    same(move(agent2, o14), forward(o14, {}).policy);  // agent 2's own state: zeros
    same(move(agent1, o10), forward(o10, first.states).policy);  // agent 1's, after its first move
    player->start_episode(0, 2);
    same(move(agent1, o10), forward(o10, {}).policy);
    player.reset();
    caf::scoped_actor self{sys};
    self->send_exit(owner, caf::exit_reason::user_shutdown);
  }
}
}
