#pragma once
// A legal action drawn uniformly: what the built-in random player plays and
// what a self-play episode's random opening moves are (games/seat_vector.hpp).
#include <cstdint>
#include <random>
#include <vector>

namespace troupe::envs {

// Into action[0..categories.size()): for each discrete component c, one of
// its categories[c] choices drawn uniformly among those `legal` allows
// (the components' masks one after the other; null: every choice is legal).
// Throws std::logic_error when a component has no legal choice.
void draw_uniform_action(const std::vector<int>& categories, const std::uint8_t* legal, std::mt19937_64& rng,
                         float* action);

}  // namespace troupe::envs
