// actors/league/seat_asker.hpp: the one way a policy's model-owner is asked
// for the other seats' moves. Against an owner that answers what it was
// sent (each row's action is its observation's first float), so a row that
// lands in the wrong place, a watched row miscounted or a reply's states
// taken without their check shows.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "actors/errors.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/league/seat_asker.hpp"
#include "catalog/registry.hpp"

using namespace troupe;

namespace {
enum class reply_kind { echo, short_states, short_actions, refuse };

// Each row's action: its observation's first float; its state after: the
// state before plus one; its policy (the watched row's): the row's index.
actors::predict_service::behavior_type echo_owner(actors::predict_service::pointer, reply_kind kind) {
  return {[kind](const actors::predict_request& req) -> caf::result<actors::predict_reply> {
    if (kind == reply_kind::refuse) return actors::make_error(actors::errc::not_local, "refused by the test");
    actors::predict_reply reply;
    const size_t obs = req.observations.size() / size_t(req.rows);
    for (int r = 0; r < req.rows; ++r) reply.actions.push_back(req.observations[size_t(r) * obs]);
    for (float s : req.states) reply.states.push_back(s + 1.0f);
    if (kind == reply_kind::short_states && !reply.states.empty()) reply.states.pop_back();
    if (kind == reply_kind::short_actions) reply.actions.pop_back();
    if (req.policy_row >= 0) reply.row_policy = {float(req.policy_row), 7.0f};
    return reply;
  }};
}
}  // namespace

TEST_SUITE("actors") {
TEST_CASE("seat asker: the rows asked for come back in their places, with their states and the watched row") {
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  const envs::env_spec spec = catalog::make_env("CartPole-v1")->spec();  // 4 floats in, 1 action float out
  const int rows = 4;
  // Row r: game games[r], agent agents[r]; its observation's first float 10 + r.
  const int games[rows] = {3, 0, 2, 1}, agents[rows] = {1, 1, 2, 1};
  std::vector<float> observations(size_t(rows) * 4, 0.0f);
  for (int r = 0; r < rows; ++r) observations[size_t(r) * 4] = 10.0f + float(r);

  SUBCASE("echoed into the asked rows only; states kept per game and agent; the watched game's outputs") {
    auto owner = sys.spawn(echo_owner, reply_kind::echo);
    actors::seat_asker asker(owner, nullptr, spec);
    agents::opponent_states states(2);
    std::vector<float> actions(rows, -1.0f), watched;
    asker.ask(games, agents, {1, 3}, observations.data(), nullptr, states);
    CHECK(asker.answer(self, std::chrono::seconds(10), games, agents, actions.data(), states, watched) == "");
    CHECK(actions == std::vector<float>{-1.0f, 11.0f, -1.0f, 13.0f});
    // Game 0 (the watched one) is row 1 of the round, the first of the two asked.
    CHECK(watched == std::vector<float>{0.0f, 7.0f});
    // Both asked agents started from zeros and were sent back plus one.
    std::vector<float> kept;
    states.gather(games, agents, std::vector<int>{1, 3, 0}, kept);
    CHECK(kept == std::vector<float>{1, 1, 1, 1, 0, 0});  // row 0's game was not asked: still zeros
    // Asked again, the owner sees the kept states and adds one more.
    watched.clear();
    asker.ask(games, agents, {3}, observations.data(), nullptr, states);
    CHECK(asker.answer(self, std::chrono::seconds(10), games, agents, actions.data(), states, watched) == "");
    CHECK(watched.empty());  // game 0 was not among the rows
    states.gather(games, agents, std::vector<int>{3}, kept);
    CHECK(kept == std::vector<float>{2, 2});
    self->send_exit(owner, caf::exit_reason::user_shutdown);
  }

  SUBCASE("no rows: nothing is asked, nothing is written") {
    auto owner = sys.spawn(echo_owner, reply_kind::refuse);  // would fail if asked
    actors::seat_asker asker(owner, nullptr, spec);
    agents::opponent_states states;
    std::vector<float> actions(rows, -1.0f), watched;
    asker.ask(games, agents, {}, observations.data(), nullptr, states);
    CHECK(asker.answer(self, std::chrono::seconds(10), games, agents, actions.data(), states, watched) == "");
    CHECK(actions == std::vector<float>(rows, -1.0f));
    self->send_exit(owner, caf::exit_reason::user_shutdown);
  }

  SUBCASE("a reply short of states, short of actions, or a refusal is said, and no state is kept") {
    for (const reply_kind kind : {reply_kind::short_states, reply_kind::short_actions, reply_kind::refuse}) {
      CAPTURE(int(kind));
      auto owner = sys.spawn(echo_owner, kind);
      actors::seat_asker asker(owner, nullptr, spec);
      agents::opponent_states states(2);
      std::vector<float> actions(rows, -1.0f), watched;
      asker.ask(games, agents, {0, 2}, observations.data(), nullptr, states);
      const std::string failure =
          asker.answer(self, std::chrono::seconds(10), games, agents, actions.data(), states, watched);
      const char* expected = kind == reply_kind::short_states    ? "answered 3 recurrent state floats for 2 rows"
                             : kind == reply_kind::short_actions ? "answered 1 action floats for 2 rows"
                                                                 : "did not answer";
      CHECK(failure.find(expected) != std::string::npos);
      std::vector<float> kept;
      states.gather(games, agents, std::vector<int>{0, 2}, kept);
      CHECK(kept == std::vector<float>(4, 0.0f));
      self->send_exit(owner, caf::exit_reason::user_shutdown);
    }
  }
}
}
