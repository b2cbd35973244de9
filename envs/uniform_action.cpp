#include "envs/uniform_action.hpp"

#include <stdexcept>
#include <string>

namespace troupe::envs {

void draw_uniform_action(const std::vector<int>& categories, const std::uint8_t* legal, std::mt19937_64& rng,
                         float* action) {
  for (size_t c = 0; c < categories.size(); ++c) {
    const int n = categories[c];
    int open = 0;
    for (int a = 0; a < n; ++a) open += !legal || legal[a];
    if (open == 0) throw std::logic_error("a uniformly drawn action: component " + std::to_string(c) + " has no legal choice");
    int k = std::uniform_int_distribution<int>(0, open - 1)(rng);
    for (int a = 0; a < n; ++a)
      if ((!legal || legal[a]) && k-- == 0) action[c] = float(a);
    if (legal) legal += n;
  }
}

}  // namespace troupe::envs
