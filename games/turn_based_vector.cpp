#include "games/turn_based_vector.hpp"

#include <stdexcept>

namespace troupe::games {

using envs::renderable;

void turn_based_vector::search_moves(const int*, int, int, const std::uint64_t*, float*) {
  throw std::logic_error(spec().id + ": these games cannot be searched");
}

native_turn_vector::native_turn_vector(std::vector<std::unique_ptr<turn_based_env>> games)
    : games_(std::move(games)) {
  if (games_.empty()) throw std::invalid_argument("native_turn_vector: no games");
  for (const auto& g : games_)
    if (g->spec().id != spec().id || g->agent_count() != agent_count())
      throw std::invalid_argument("native_turn_vector: games of one kind expected (" + g->spec().id + ")");
}

void native_turn_vector::reset(const int* games, int n, const std::uint64_t* seeds) {
  for (int i = 0; i < n; ++i) games_.at(size_t(games[i]))->reset(seeds[i]);
}

void native_turn_vector::step(const int* games, int n, const float* actions, turn_result* results) {
  if (n < 1) return;
  const size_t width = size_t(agent_spec(to_move(games[0])).action.flat_size());
  for (int i = 0; i < n; ++i) results[i] = games_.at(size_t(games[i]))->step(actions + size_t(i) * width);
}

bool native_turn_vector::can_render() const {
  const auto* r = dynamic_cast<const renderable*>(games_.front().get());
  return r && r->can_render();
}

bool native_turn_vector::render(int game, rgb_frame& frame) {
  const auto* r = dynamic_cast<const renderable*>(games_.at(size_t(game)).get());
  if (!r || !r->can_render()) return false;
  r->render(frame);
  return true;
}

int native_turn_vector::action_at(int game, double u, double v) const {
  const auto* r = dynamic_cast<const renderable*>(games_.at(size_t(game)).get());
  return r ? r->action_at(u, v) : -1;
}

}  // namespace troupe::games
