#include "games/game_vector.hpp"

#include <stdexcept>

namespace troupe::games {

using envs::renderable;

void game_vector::search_moves(const int*, int, int, const std::uint64_t*, float*) {
  throw std::logic_error(spec().id + ": these games cannot be searched");
}

size_t game_vector::step_width(int game) const {
  if (turn_based()) {
    const int mover = to_move(game);
    return mover < 0 ? 0 : size_t(agent_spec(mover).action.flat_size());
  }
  size_t width = 0;
  for (int a = 0; a < agent_count(); ++a) width += size_t(agent_spec(a).action.flat_size());
  return width;
}

namespace {
// Games of one kind, or a clear refusal.
template <class Game>
void check_alike(const std::vector<std::unique_ptr<Game>>& games) {
  if (games.empty()) throw std::invalid_argument("native_game_vector: no games");
  for (const auto& g : games)
    if (g->spec().id != games.front()->spec().id || g->agent_count() != games.front()->agent_count())
      throw std::invalid_argument("native_game_vector: games of one kind expected (" + g->spec().id + ")");
}
}  // namespace

native_game_vector::native_game_vector(std::vector<std::unique_ptr<turn_based_env>> games)
    : turns_(std::move(games)) {
  check_alike(turns_);
}

native_game_vector::native_game_vector(std::vector<std::unique_ptr<simultaneous_env>> games)
    : joint_(std::move(games)) {
  check_alike(joint_);
}

void native_game_vector::reset(const int* games, int n, const std::uint64_t* seeds) {
  for (int i = 0; i < n; ++i) {
    if (turn_based())
      turns_.at(size_t(games[i]))->reset(seeds[i]);
    else
      joint_.at(size_t(games[i]))->reset(seeds[i]);
  }
}

void native_game_vector::step(const int* games, int n, const float* actions, game_result* results) {
  if (turn_based()) {
    for (int i = 0; i < n; ++i) {
      const size_t width = step_width(games[i]);  // its mover's, read before the move
      results[i] = turns_.at(size_t(games[i]))->step(actions);
      actions += width;
    }
    return;
  }
  const size_t width = n > 0 ? step_width(games[0]) : 0;  // every agent's: alike in every game
  for (int i = 0; i < n; ++i) results[i] = joint_.at(size_t(games[i]))->step(actions + size_t(i) * width);
}

void native_game_vector::observe(int game, int agent, float* observation) const {
  if (turn_based())
    turns_.at(size_t(game))->observe(agent, observation);
  else
    joint_.at(size_t(game))->observe(agent, observation);
}

void native_game_vector::action_mask(int game, int agent, std::uint8_t* legal) const {
  if (turn_based())
    turns_.at(size_t(game))->action_mask(legal);
  else
    joint_.at(size_t(game))->action_mask(agent, legal);
}

const renderable* native_game_vector::drawn(int game) const {
  if (turn_based()) return dynamic_cast<const renderable*>(turns_.at(size_t(game)).get());
  return dynamic_cast<const renderable*>(joint_.at(size_t(game)).get());
}

bool native_game_vector::can_render() const {
  const renderable* r = drawn(0);
  return r && r->can_render();
}

bool native_game_vector::render(int game, rgb_frame& frame) {
  const renderable* r = drawn(game);
  if (!r || !r->can_render()) return false;
  r->render(frame);
  return true;
}

int native_game_vector::action_at(int game, double u, double v) const {
  const renderable* r = drawn(game);
  return r ? r->action_at(u, v) : -1;
}

}  // namespace troupe::games
