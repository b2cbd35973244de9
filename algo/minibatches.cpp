#include "algo/minibatches.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace troupe::algo {

std::vector<std::vector<std::int64_t>> shuffled_minibatches(std::int64_t items, int count,
                                                            std::mt19937_64& rng) {
  if (count < 1 || count > items)
    throw std::invalid_argument("shuffled_minibatches: " + std::to_string(count) +
                                " minibatches of " + std::to_string(items) + " items");
  std::vector<std::int64_t> order(static_cast<size_t>(items));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::vector<std::int64_t>> out(static_cast<size_t>(count));
  std::int64_t begin = 0;
  for (int m = 0; m < count; ++m) {
    // The first items % count minibatches take one item more.
    const std::int64_t size = items / count + (m < items % count ? 1 : 0);
    out[size_t(m)].assign(order.begin() + begin, order.begin() + begin + size);
    begin += size;
  }
  return out;
}

}  // namespace troupe::algo
