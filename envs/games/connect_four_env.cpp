#include "envs/games/connect_four_env.hpp"

#include "envs/games/builtin_opponents.hpp"

namespace troupe::envs::games {

namespace {
std::vector<std::unique_ptr<turn_based_env>> one_game() {
  std::vector<std::unique_ptr<turn_based_env>> games;
  games.push_back(std::make_unique<connect_four_game>());
  return games;
}
}  // namespace

connect_four_env::connect_four_env(const opponent_options& options)
    : seats_(one_game(), parse_seat(options.seat), builtin_opponents(options.opponent, 1)),
      final_observation_(size_t(connect_four::observation_size)) {}

step_result connect_four_env::step(const float* action, float* observation) {
  step_result result;
  seats_.step(action, nullptr, observation, &result, final_observation_.data());
  return result;
}

}  // namespace troupe::envs::games
