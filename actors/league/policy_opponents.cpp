#include "actors/policy_opponents.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/opponent_states.hpp"

namespace troupe::actors {

namespace {

class live_policy final : public games::opponents {
 public:
  live_policy(caf::actor_system& sys, predict_service owner, std::shared_ptr<predict_lane> lane,
              const envs::env_spec& spec, std::string name, int state_size)
      : name_(std::move(name)),
        self_(sys),
        client_(std::move(owner), std::move(lane)),
        obs_(size_t(spec.observation.flat_size())),
        width_(size_t(spec.action.flat_size())),
        mask_(size_t(spec.action.choice_count())),
        states_(state_size) {}

  void start_episode(int game, std::uint64_t) override {
    if (game == watched_game) watched_policy_.clear();
    states_.start(game);
  }

  void describe(int game, envs::other_seat_view& view) const override {
    view.who = "policy " + name_;
    if (game == watched_game) view.policy = watched_policy_;
  }

  void act(const int* games, const int* agents, int rows, const float* observations, const std::uint8_t* masks,
           float* actions) override {
    predict_request& req = client_.request();
    req.agent_id = 0;
    req.policy_row = int(std::find(games, games + rows, watched_game) - games);
    if (req.policy_row == rows) req.policy_row = -1;
    const bool watched = req.policy_row >= 0;
    req.rows = rows;
    states_.gather(games, agents, rows, req.states);
    req.observations.assign(observations, observations + size_t(rows) * obs_);
    if (masks)
      req.action_masks.assign(masks, masks + size_t(rows) * mask_);
    else
      req.action_masks.clear();
    std::string failure;
    const auto answered = [&](const predict_reply& reply) {
      std::copy_n(reply.actions.begin(), size_t(rows) * width_, actions);
      if (watched) watched_policy_ = reply.row_policy;
      if (states_.state_size() > 0) {
        if (reply.states.size() != size_t(rows) * size_t(states_.state_size()))
          failure = "its reply carried " + std::to_string(reply.states.size()) + " state floats for " +
                    std::to_string(rows) + " rows";
        else
          states_.keep(games, agents, rows, reply.states.data());
      }
    };
    const auto failed = [&](const caf::error& err) { failure = caf::to_string(err); };
    if (client_.post())
      client_.collect(answered, failed);
    else  // an owner without a lane: by message
      client_.ask_and_wait(self_, std::chrono::seconds(60), answered, failed);
    if (!failure.empty()) throw std::runtime_error("the other policy's model-owner did not answer: " + failure);
  }

 private:
  std::string name_;
  caf::scoped_actor self_;
  predict_client client_;
  size_t obs_, width_, mask_;
  std::vector<float> watched_policy_;  // its outputs at its last move in the watched game
  agents::opponent_states states_;     // a recurrent policy's, per game and agent
};

}  // namespace

std::unique_ptr<games::opponents> policy_opponents(caf::actor_system& sys, predict_service owner,
                                                  std::shared_ptr<predict_lane> lane, const envs::env_spec& spec,
                                                  const std::string& name, int state_size) {
  return std::make_unique<live_policy>(sys, std::move(owner), std::move(lane), spec, name, state_size);
}

}  // namespace troupe::actors
