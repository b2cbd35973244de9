#pragma once
// One epoch's minibatches: a fresh shuffle of a batch's items (samples, or
// environments' whole sequences for a recurrent policy) cut into `count`
// parts. Plain C++.
#include <cstdint>
#include <random>
#include <vector>

namespace troupe::algo {

// Items 0 .. items - 1 in a random order drawn from `rng`, cut into `count`
// minibatches whose sizes differ by at most one: every item is in exactly
// one of them. Needs 1 <= count <= items (std::invalid_argument otherwise).
std::vector<std::vector<std::int64_t>> shuffled_minibatches(std::int64_t items, int count,
                                                            std::mt19937_64& rng);

}  // namespace troupe::algo
