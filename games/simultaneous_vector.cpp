#include "games/simultaneous_vector.hpp"

#include <stdexcept>

namespace troupe::games {

using envs::renderable;

native_simultaneous_vector::native_simultaneous_vector(std::vector<std::unique_ptr<simultaneous_env>> games)
    : games_(std::move(games)) {
  if (games_.empty()) throw std::invalid_argument("native_simultaneous_vector: no games");
  for (const auto& g : games_)
    if (g->spec().id != spec().id || g->agent_count() != agent_count())
      throw std::invalid_argument("native_simultaneous_vector: games of one kind expected (" + g->spec().id + ")");
}

void native_simultaneous_vector::reset(const int* games, int n, const std::uint64_t* seeds) {
  for (int i = 0; i < n; ++i) games_.at(size_t(games[i]))->reset(seeds[i]);
}

void native_simultaneous_vector::step(const int* games, int n, const float* actions, joint_result* results) {
  size_t row = 0;
  for (int a = 0; a < agent_count(); ++a) row += size_t(agent_spec(a).action.flat_size());
  for (int i = 0; i < n; ++i) results[i] = games_.at(size_t(games[i]))->step(actions + size_t(i) * row);
}

bool native_simultaneous_vector::can_render() const {
  const auto* r = dynamic_cast<const renderable*>(games_.front().get());
  return r && r->can_render();
}

bool native_simultaneous_vector::render(int game, rgb_frame& frame) {
  const auto* r = dynamic_cast<const renderable*>(games_.at(size_t(game)).get());
  if (!r || !r->can_render()) return false;
  r->render(frame);
  return true;
}

}  // namespace troupe::games
