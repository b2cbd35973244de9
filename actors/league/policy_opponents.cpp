#include "actors/league/policy_opponents.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/league/seat_asker.hpp"
#include "agents/league/opponent_states.hpp"

namespace troupe::actors {

namespace {

class live_policy final : public games::opponents {
 public:
  live_policy(caf::actor_system& sys, predict_service owner, std::shared_ptr<predict_lane> lane,
              const envs::env_spec& spec, std::string name, int state_size)
      : name_(std::move(name)), self_(sys), asker_(std::move(owner), std::move(lane), spec), states_(state_size) {}

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
    every_row_.resize(size_t(rows));
    for (int r = 0; r < rows; ++r) every_row_[size_t(r)] = r;
    asker_.ask(games, agents, every_row_, observations, masks, states_);
    const std::string failure =
        asker_.answer(self_, std::chrono::seconds(60), games, agents, actions, states_, watched_policy_);
    if (!failure.empty()) throw std::runtime_error("the other policy's model-owner " + failure);
  }

 private:
  std::string name_;
  caf::scoped_actor self_;  // asks an owner without a lane
  seat_asker asker_;
  std::vector<int> every_row_;
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
