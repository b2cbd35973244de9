#pragma once
// An agent: steps a vector of environments on its own thread, asks the
// model-owner for actions with one request for all of them, and sends each
// finished rollout to the learner without waiting for it to be trained
// (unless max_rollouts_in_flight of its rollouts are still untrained).
//
// A viewer watches an agent by asking it for a frame (render_atom): the agent
// then draws its first environment once, at its next step, with the policy's
// action probabilities for that step, and answers with that one frame. It
// draws nothing unless asked, and at most one frame per request, so watching
// costs training one render per frame shown (see actors/frames/frame_hub.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "actors/messages/frames.hpp"
#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/predict_client.hpp"
#include "envs/env_config.hpp"
#include "games/opponents.hpp"
#include "run/run_config.hpp"

namespace troupe::actors {

using agent_actor = caf::typed_actor<caf::reacts_to<start_atom>,
                                     caf::replies_to<stop_atom>::with<agent_final>,
                                     caf::replies_to<render_atom>::with<env_frame>>;

// What an agent needs from the actors it talks to. On the learner's node they
// are the model-owner, the learner and the metrics actor; on a cluster worker
// all three are the learner's gateway.
using rollout_sink = caf::typed_actor<caf::replies_to<algo::rollout>::with<train_ack>>;
using report_sink = caf::typed_actor<caf::reacts_to<episode_report>>;

struct agent_config {
  std::uint32_t id = 0;
  envs::env_config env;  // which environment, with its options
  int envs = 1;          // how many of it this agent steps
  // algo.n_steps and algo.max_rollouts_in_flight; defaults said in algo/algo_config.hpp.
  int n_steps = algo::algo_config{}.n_steps;
  int max_rollouts_in_flight = algo::algo_config{}.max_rollouts_in_flight;
  int state_size = 0;    // the policy's recurrent state per environment (0: feed-forward)
  std::uint64_t seed = 1;
  bool batch_scheduling = true;  // agents.batch_scheduling: see actors/agent_thread.hpp
  // selfplay.random_opening, for the seat it plays against opponents.
  envs::opening_options opening;
};

// What plays the other side of an agent's two-player games (the self-play
// pool's opponents, another policy's live parameters); empty: env.id is
// stepped as configured (an environment, or a game against env.opponent).
using opponent_source = std::function<std::unique_ptr<games::opponents>(
    caf::actor_system& sys, int games, const envs::env_config& env, const envs::env_spec& spec)>;

// An agent of a run with this config (the learner's own, or a worker's).
agent_config agent_config_for(const run::run_config& config, std::uint32_t id, std::uint64_t seed);

// Spawned detached. Starts acting on start_atom; on stop_atom it answers with
// its final counts and quits. It asks for actions through `lane`, the
// owner's lane, when it has one (the owner is in this process), else by
// messages to `owner`. With `opponents` it plays one seat of env.id's
// two-player game (catalog/registry.hpp: make_game_side) against what they
// make; env.seat says which seat.
agent_actor spawn_agent(caf::actor_system& sys, const agent_config& config,
                        predict_service owner, std::shared_ptr<predict_lane> lane,
                        rollout_sink learner, report_sink metrics,
                        opponent_source opponents = {});

}  // namespace troupe::actors
