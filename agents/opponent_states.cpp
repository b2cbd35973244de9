#include "agents/opponent_states.hpp"

#include <algorithm>
#include <numeric>

namespace troupe::agents {

void opponent_states::start(int game) {
  states_.erase(states_.lower_bound({game, 0}), states_.lower_bound({game + 1, 0}));
}

void opponent_states::gather(const int* games, const int* agents, const std::vector<int>& rows,
                             std::vector<float>& out) const {
  out.clear();
  if (size_ == 0) return;
  out.assign(rows.size() * size_t(size_), 0.0f);
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto it = states_.find({games[rows[i]], agents[rows[i]]});
    if (it != states_.end()) std::copy(it->second.begin(), it->second.end(), out.begin() + long(i) * size_);
  }
}

void opponent_states::keep(const int* games, const int* agents, const std::vector<int>& rows, const float* states) {
  if (size_ == 0) return;
  for (size_t i = 0; i < rows.size(); ++i)
    states_[{games[rows[i]], agents[rows[i]]}].assign(states + i * size_t(size_), states + (i + 1) * size_t(size_));
}

std::vector<int> all_rows(int n) {
  std::vector<int> rows(size_t(std::max(0, n)));
  std::iota(rows.begin(), rows.end(), 0);
  return rows;
}

}  // namespace troupe::agents
