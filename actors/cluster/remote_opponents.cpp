#include "actors/cluster/remote_opponents.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "actors/cluster/message_checks.hpp"
#include "envs/seat_vector.hpp"

namespace troupe::actors {

namespace {

// As long as a move may take on the learner's node: its model-owner's batch.
constexpr auto move_timeout = std::chrono::seconds(60);

class remote_players final : public envs::opponents {
 public:
  remote_players(caf::actor_system& sys, cluster_gateway_actor gateway, std::uint32_t agent_id, int games,
                 const envs::env_spec& spec)
      : self_(sys),
        gateway_(std::move(gateway)),
        obs_(size_t(spec.observation.flat_size())),
        width_(size_t(spec.action.flat_size())),
        mask_(size_t(spec.action.choice_count())) {
    run_shapes shapes;
    shapes.rows_per_agent = games;
    most_events_ = max_opponent_events(shapes);
    pending_.agent_id = agent_id;
  }

  ~remote_players() override {
    // The last games' results still move the ratings; nobody waits for the answer.
    if (!pending_.event_games.empty()) self_->send(gateway_, std::move(pending_));
  }

  void start_episode(int game, std::uint64_t seed) override { add_event(game, false, seed, 0.0); }

  void end_episode(int game, double learner_return) override { add_event(game, true, 0, learner_return); }

  void act(const int* games, const int* agents, int rows, const float* observations, const std::uint8_t* masks,
           float* actions) override {
    pending_.games.assign(games, games + rows);
    pending_.agents.assign(agents, agents + rows);
    pending_.observations.assign(observations, observations + size_t(rows) * obs_);
    if (masks)
      pending_.action_masks.assign(masks, masks + size_t(rows) * mask_);
    else
      pending_.action_masks.clear();
    const opponent_reply reply = ask();
    if (reply.actions.size() != size_t(rows) * width_)
      throw std::runtime_error("the learner's node answered " + std::to_string(reply.actions.size()) +
                               " action floats for " + std::to_string(rows) + " moves");
    std::copy(reply.actions.begin(), reply.actions.end(), actions);
  }

  void describe(int game, envs::other_seat_view& view) const override {
    if (game != watched_game) return;
    view.who = watched_who_;
    view.policy = watched_policy_;
  }

 private:
  void add_event(int game, bool ended, std::uint64_t seed, double learner_return) {
    if (pending_.event_games.size() >= most_events_) ask();  // no moves: the events alone
    pending_.event_games.push_back(game);
    pending_.event_ended.push_back(ended ? 1 : 0);
    pending_.event_seeds.push_back(seed);
    pending_.event_returns.push_back(learner_return);
  }

  // Sends what is pending and waits for the answer; throws when none comes.
  opponent_reply ask() {
    opponent_reply reply;
    std::string failure;
    self_->request(gateway_, move_timeout, pending_)
        .receive([&](opponent_reply& r) { reply = std::move(r); },
                 [&](caf::error& err) { failure = self_->system().render(err); });
    const std::uint32_t id = pending_.agent_id;
    pending_ = opponent_request{};
    pending_.agent_id = id;
    if (!failure.empty())
      throw std::runtime_error("the learner's node did not move for the other seat: " + failure);
    watched_who_ = reply.watched_who.substr(0, 64);
    watched_policy_ = reply.watched_policy;
    return reply;
  }

  caf::scoped_actor self_;
  cluster_gateway_actor gateway_;
  size_t obs_, width_, mask_;
  size_t most_events_ = 0;
  opponent_request pending_;
  std::string watched_who_;  // the learner's node's last word on the watched game
  std::vector<float> watched_policy_;
};

}  // namespace

opponent_source remote_opponents(cluster_gateway_actor gateway, std::uint32_t agent_id) {
  return [gateway, agent_id](caf::actor_system& sys, int games, const envs::env_config&, const envs::env_spec& spec) {
    return std::make_unique<remote_players>(sys, gateway, agent_id, games, spec);
  };
}

}  // namespace troupe::actors
