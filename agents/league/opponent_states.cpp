#include "agents/league/opponent_states.hpp"

#include <algorithm>

namespace troupe::agents {

void opponent_states::start(int game) {
  states_.erase(states_.lower_bound({game, 0}), states_.lower_bound({game + 1, 0}));
}

template <class Row>
void opponent_states::gather_rows(const int* games, const int* agents, size_t n, Row row,
                                  std::vector<float>& out) const {
  out.clear();
  if (size_ == 0) return;
  out.assign(n * size_t(size_), 0.0f);
  for (size_t i = 0; i < n; ++i) {
    const auto it = states_.find({games[row(i)], agents[row(i)]});
    if (it != states_.end()) std::copy(it->second.begin(), it->second.end(), out.begin() + long(i) * size_);
  }
}

template <class Row>
void opponent_states::keep_rows(const int* games, const int* agents, size_t n, Row row, const float* states) {
  if (size_ == 0) return;
  for (size_t i = 0; i < n; ++i)
    states_[{games[row(i)], agents[row(i)]}].assign(states + i * size_t(size_), states + (i + 1) * size_t(size_));
}

void opponent_states::gather(const int* games, const int* agents, int n, std::vector<float>& out) const {
  gather_rows(games, agents, size_t(std::max(0, n)), [](size_t i) { return i; }, out);
}

void opponent_states::keep(const int* games, const int* agents, int n, const float* states) {
  keep_rows(games, agents, size_t(std::max(0, n)), [](size_t i) { return i; }, states);
}

void opponent_states::gather(const int* games, const int* agents, const std::vector<int>& rows,
                             std::vector<float>& out) const {
  gather_rows(games, agents, rows.size(), [&](size_t i) { return size_t(rows[i]); }, out);
}

void opponent_states::keep(const int* games, const int* agents, const std::vector<int>& rows, const float* states) {
  keep_rows(games, agents, rows.size(), [&](size_t i) { return size_t(rows[i]); }, states);
}

}  // namespace troupe::agents
