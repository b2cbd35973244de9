#include "actors/league/seat_asker.hpp"

#include <algorithm>

#include "games/opponents.hpp"

namespace troupe::actors {

seat_asker::seat_asker(predict_service owner, std::shared_ptr<predict_lane> lane, const envs::env_spec& spec)
    : client_(std::move(owner), std::move(lane)),
      obs_(size_t(spec.observation.flat_size())),
      width_(size_t(spec.action.flat_size())),
      mask_(size_t(spec.action.choice_count())) {}

void seat_asker::ask(const int* games, const int* agents, std::vector<int> rows, const float* observations,
                     const std::uint8_t* masks, const agents::opponent_states& states) {
  rows_ = std::move(rows);
  posted_ = false;
  if (rows_.empty()) return;
  predict_request& req = client_.request();
  req.agent_id = 0;
  req.rows = int(rows_.size());
  req.policy_row = -1;
  req.observations.clear();
  req.action_masks.clear();
  for (size_t i = 0; i < rows_.size(); ++i) {
    const size_t r = size_t(rows_[i]);
    if (req.policy_row < 0 && games[r] == games::opponents::watched_game) req.policy_row = int(i);
    req.observations.insert(req.observations.end(), observations + r * obs_, observations + (r + 1) * obs_);
    if (masks) req.action_masks.insert(req.action_masks.end(), masks + r * mask_, masks + (r + 1) * mask_);
  }
  states.gather(games, agents, rows_, req.states);
  posted_ = client_.post();
}

std::string seat_asker::answer(caf::scoped_actor& self, std::chrono::milliseconds timeout, const int* games,
                               const int* agents, float* actions, agents::opponent_states& states,
                               std::vector<float>& watched) {
  if (rows_.empty()) return "";
  const bool watching = client_.request().policy_row >= 0;
  std::string failure;
  const auto answered = [&](const predict_reply& reply) {
    if (reply.actions.size() != rows_.size() * width_) {
      failure = "answered " + std::to_string(reply.actions.size()) + " action floats for " +
                std::to_string(rows_.size()) + " rows";
      return;
    }
    for (size_t i = 0; i < rows_.size(); ++i)
      std::copy_n(reply.actions.begin() + std::ptrdiff_t(i * width_), width_, actions + size_t(rows_[i]) * width_);
    if (watching) watched = reply.row_policy;
    if (states.state_size() == 0) return;
    if (reply.states.size() == rows_.size() * size_t(states.state_size()))
      states.keep(games, agents, rows_, reply.states.data());
    else
      failure = "answered " + std::to_string(reply.states.size()) + " recurrent state floats for " +
                std::to_string(rows_.size()) + " rows";
  };
  const auto failed = [&](const caf::error& err) { failure = "did not answer: " + caf::to_string(err); };
  if (posted_)
    client_.collect(answered, failed);
  else
    client_.ask_and_wait(self, timeout, answered, failed);
  rows_.clear();
  posted_ = false;
  return failure;
}

}  // namespace troupe::actors
