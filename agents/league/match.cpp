#include "agents/league/match.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/evaluate.hpp"
#include "agents/league/opponent_states.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"

namespace troupe::agents {

std::pair<double, double> wilson_interval(int successes, int n, double z) {
  if (n <= 0) return {0.0, 1.0};
  const double p = double(successes) / n, z2 = z * z;
  const double centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
  const double half = z * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / (1.0 + z2 / n);
  // At p = 0 and p = 1 the bound on that side is exactly 0 or 1; rounding
  // would leave it just inside the observed rate.
  return {successes == 0 ? 0.0 : std::max(0.0, centre - half), successes == n ? 1.0 : std::min(1.0, centre + half)};
}

namespace {

class model_player final : public games::opponents {
 public:
  model_player(std::shared_ptr<model::shared_model> model, int games, const envs::env_spec& spec, bool greedy,
               move_watcher watch)
      : model_(std::move(model)),
        spec_(spec),
        greedy_(greedy),
        watch_(std::move(watch)),
        rngs_(size_t(games)),
        states_(model::spec_of(*model_).recurrent.state_size()) {
    const model::net_spec& net = model::spec_of(*model_);
    if (net.obs_size != spec_.observation.flat_size())
      throw std::invalid_argument("a model of " + std::to_string(net.obs_size) + " inputs cannot play a seat of " +
                                  spec_.id + " that observes " + spec_.observation.describe());
  }

  void start_episode(int game, std::uint64_t seed) override {
    rngs_[size_t(game)].seed(seed);
    states_.start(game);
  }

  void act(const int* games, const int* agents, int rows, const float* observations, const std::uint8_t* masks,
           float* actions) override {
    const model::net_spec& net = model::spec_of(*model_);
    states_.gather(games, agents, rows, states_in_);
    model::predict(*model_, observations, states_in_.empty() ? nullptr : states_in_.data(), rows, out_);
    states_.keep(games, agents, rows, out_.states.data());
    const size_t width = size_t(spec_.action.flat_size()), choices = size_t(spec_.action.choice_count());
    for (int r = 0; r < rows; ++r) {
      const float* policy = &out_.policy[size_t(r) * net.action_size];
      const std::uint8_t* legal = masks ? masks + size_t(r) * choices : nullptr;
      choose_action(net, spec_.action, policy, out_.log_std.data(), greedy_, rngs_[size_t(games[r])],
                    actions + size_t(r) * width, legal);
      if (watch_) watch_(policy, actions + size_t(r) * width, legal);
    }
  }

 private:
  std::shared_ptr<model::shared_model> model_;
  envs::env_spec spec_;
  bool greedy_;
  move_watcher watch_;
  std::vector<std::mt19937_64> rngs_;
  opponent_states states_;  // a recurrent model's, per game and agent
  std::vector<float> states_in_;
  model::prediction out_;
};

}  // namespace

std::unique_ptr<games::opponents> model_opponents(std::shared_ptr<model::shared_model> model, int games,
                                                 const envs::env_spec& spec, bool greedy, move_watcher watch) {
  return std::make_unique<model_player>(std::move(model), games, spec, greedy, std::move(watch));
}

seat_record play_seat(model::shared_model& model, const envs::env_config& env, games::seat_choice seat,
                      const opponents_factory& others, int episodes, bool greedy, std::uint64_t seed,
                      int parallel) {
  const int k = std::max(1, std::min(parallel, episodes));
  const std::unique_ptr<envs::env_vector> vector =
      catalog::make_game_side(env, k, seat, [&](const envs::env_spec& spec) { return others(k, spec); });
  const evaluation e = evaluate(model, *vector, episodes, greedy, seed);
  seat_record record;
  record.length_mean = e.length_mean;
  for (double r : e.returns) {
    record.return_sum += r;
    if (r > 0)
      ++record.wins;
    else if (r < 0)
      ++record.losses;
    else
      ++record.draws;
  }
  return record;
}

}  // namespace troupe::agents
