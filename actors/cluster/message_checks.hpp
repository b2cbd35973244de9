#pragma once
// What the cluster gateway checks in the data a worker sends, before any of
// it reaches the model-owner, the learner or the metrics: the run's shapes
// and finite numbers. Plain functions of a message and the run's shapes (no
// actor system), so the fuzz target (tests/fuzz/messages_fuzz.cpp) and the
// tests call them on decoded bytes. Each returns why a message is refused,
// or "" when it may pass.
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/network.hpp"
#include "actors/messages/predict.hpp"

namespace troupe::actors {

// The shapes of one run's data.
struct run_shapes {
  // An agent's rows: its environments (its games), or with a team
  // (env.seat all) every agent of each game.
  int rows_per_agent = 1;
  int obs_size = 1;
  int action_width = 1;  // floats per action
  int state_size = 0;    // a recurrent policy's state per environment
  int n_steps = 1;
  int mask_size = 0;     // actions an action mask row covers; 0: the environments give none
  // How a mask row splits among the action's components (each one's
  // choices: the action space's categories); empty: one of mask_size.
  std::vector<int> mask_heads = {};
  // Of an opponent request (whose rows_per_agent is the agent's games):
  // the agents of its game, and how many of them one game may ask moves
  // for in one request (those outside the agent's side).
  int game_agents = 0;
  int movers_per_game = 1;

  std::vector<int> heads() const { return mask_heads.empty() ? std::vector<int>{mask_size} : mask_heads; }
};

std::string predict_request_problem(const run_shapes& shapes, const predict_request& request);

std::string rollout_problem(const run_shapes& shapes, const algo::rollout& rollout);

// At most this many episode events ride on one opponent request: a worker's
// agent asks without moves (no rows) before it would hold more.
inline size_t max_opponent_events(const run_shapes& shapes) { return 4 * size_t(shapes.rows_per_agent); }

std::string opponent_request_problem(const run_shapes& shapes, const opponent_request& request);

// The agent's ownership is the gateway's to check; this is the report itself.
std::string episode_report_problem(const episode_report& report);

// A model's answer on its way to a worker: CAF 0.17 cannot send an infinity
// (its serializer halves it forever, hanging the node's network thread).
std::string predict_reply_problem(const predict_reply& reply);

}  // namespace troupe::actors
