#pragma once
// The one way a policy served by a model-owner is asked for the moves of
// the seats it plays: the rows of a round that are its (their observations
// and masks, the recurrent states of their games' agents, the watched
// game's row) go in one request, and the answer goes back into the round's
// actions and states. Another policy's live parameters (policy_opponents.hpp)
// and every snapshot of self-play's pool in play (selfplay_pool.hpp) ask
// through one each. ask() posts through the owner's lane and returns at
// once, so a round with several policies in play has all of them at their
// owners before it waits for any; an owner without a lane is asked by
// message when answer() runs.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "actors/predict_client.hpp"
#include "agents/league/opponent_states.hpp"
#include "envs/env.hpp"

namespace troupe::actors {

class seat_asker {
 public:
  seat_asker(predict_service owner, std::shared_ptr<predict_lane> lane, const envs::env_spec& spec);

  // Asks for the rows `rows` of a round: row r is game games[r]'s position
  // as its mover, agent agents[r], sees it (observations: the round's rows x
  // the observation's floats; masks: x the action's choices, or null), in
  // the states `states` holds for their games' agents. Nothing is asked
  // when `rows` is empty. Every ask() is followed by answer() before the
  // next, even when something else failed in between: the owner writes
  // into this asker's slot until it answers.
  void ask(const int* games, const int* agents, std::vector<int> rows, const float* observations,
           const std::uint8_t* masks, const agents::opponent_states& states);

  // Waits for the answer (asking by message through `self` first, at most
  // `timeout`, when the owner has no lane) and writes each asked row's
  // action into its row of `actions` (the round's rows x the action's
  // floats), their states into `states`, and the watched game's outputs
  // into `watched` when one of the rows was its. Returns what went wrong
  // ("did not answer: ...", or a reply without the states it must carry),
  // else "".
  std::string answer(caf::scoped_actor& self, std::chrono::milliseconds timeout, const int* games,
                     const int* agents, float* actions, agents::opponent_states& states,
                     std::vector<float>& watched);

 private:
  predict_client client_;
  size_t obs_, width_, mask_;
  std::vector<int> rows_;  // the round's rows this asker asked for
  bool posted_ = false;    // through the lane: answer() collects
};

}  // namespace troupe::actors
