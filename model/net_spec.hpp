#pragma once
#include <vector>

namespace troupe::model {

// What a network is built from: sizes come from the environment's spaces.
struct net_spec {
  int obs_size = 0;
  int num_actions = 0;
  std::vector<int> hidden = {64, 64};
};

}  // namespace troupe::model
