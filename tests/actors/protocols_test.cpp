// Every protocol's types are known to the actor system (actors/messages/):
// a message that crosses a node is written and read back through the
// system's own type table, so a type left out of its block fails here
// rather than on a cluster's wire.
#include <doctest/doctest.h>

#include <caf/all.hpp>
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>

#include "actors/actor_system_setup.hpp"
#include "actors/messages/frames.hpp"
#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/network.hpp"
#include "actors/messages/pbt.hpp"
#include "actors/messages/predict.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

// `m` written with the system's type table and read back into a new message.
caf::message round_trip(caf::actor_system& sys, const caf::message& m) {
  std::vector<char> wire;
  caf::binary_serializer sink(sys, wire);
  auto sent = m;
  REQUIRE_FALSE(sink(sent));
  caf::message back;
  caf::binary_deserializer source(sys, wire);
  REQUIRE_FALSE(source(back));
  return back;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("protocols: a message of each protocol crosses the system's type table and comes back whole") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};

  metrics_totals totals;
  totals.env_steps = 1234;
  node_stats node;
  node.node = "worker-1";
  node.agents = 3;
  totals.nodes = {node};
  auto back = round_trip(sys, caf::make_message(totals));
  REQUIRE(back.match_elements<metrics_totals>());
  CHECK(back.get_as<metrics_totals>(0).env_steps == 1234);
  REQUIRE(back.get_as<metrics_totals>(0).nodes.size() == 1);
  CHECK(back.get_as<metrics_totals>(0).nodes[0].node == "worker-1");
  CHECK(back.get_as<metrics_totals>(0).nodes[0].agents == 3);

  // Never sent alone by Troupe, but a peer may send one (tests/rogue/).
  back = round_trip(sys, caf::make_message(node));
  REQUIRE(back.match_elements<node_stats>());
  CHECK(back.get_as<node_stats>(0).node == "worker-1");

  predict_request request;
  request.agent_id = 7;
  request.rows = 1;
  request.observations = {0.5f};
  back = round_trip(sys, caf::make_message(request));
  REQUIRE(back.match_elements<predict_request>());
  CHECK(back.get_as<predict_request>(0).agent_id == 7);

  algo::rollout rollout;
  rollout.sequence = 9;
  back = round_trip(sys, caf::make_message(rollout));
  REQUIRE(back.match_elements<algo::rollout>());
  CHECK(back.get_as<algo::rollout>(0).sequence == 9);

  join_reply reply;
  reply.agent_policies = {0, 1};
  back = round_trip(sys, caf::make_message(reply));
  REQUIRE(back.match_elements<join_reply>());
  CHECK(back.get_as<join_reply>(0).agent_policies == std::vector<std::int32_t>{0, 1});

  env_frame frame;
  frame.sequence = 5;
  back = round_trip(sys, caf::make_message(frame));
  REQUIRE(back.match_elements<env_frame>());
  CHECK(back.get_as<env_frame>(0).sequence == 5);

  pbt_step step;
  step.keys = {"lr"};
  step.values = {0.001};
  back = round_trip(sys, caf::make_message(step));
  REQUIRE(back.match_elements<pbt_step>());
  CHECK(back.get_as<pbt_step>(0).keys == std::vector<std::string>{"lr"});
}
}
