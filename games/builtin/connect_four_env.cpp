#include "games/builtin/connect_four_env.hpp"

namespace troupe::games {

namespace {
std::vector<std::unique_ptr<turn_based_env>> one_game(const connect_four_game*& game) {
  std::vector<std::unique_ptr<turn_based_env>> games;
  auto made = std::make_unique<connect_four_game>();
  game = made.get();
  games.push_back(std::move(made));
  return games;
}
}  // namespace

connect_four_env::connect_four_env(const std::string& seat, std::unique_ptr<opponents> opponent)
    : game_(nullptr),
      seats_(one_game(game_), parse_seat(seat), std::move(opponent)),
      final_observation_(size_t(connect_four::observation_size)) {}

step_result connect_four_env::step(const float* action, float* observation) {
  step_result result;
  seats_.step(action, nullptr, observation, &result, final_observation_.data());
  return result;
}

}  // namespace troupe::games
