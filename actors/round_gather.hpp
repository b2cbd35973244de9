#pragma once
// A deterministic run's rounds (run.deterministic): round r is every
// agent's item r (its rollout r, or the episode report that came with it).
// Items arrive in any order; a round is taken once whole, in agent order,
// rounds one after another. The learner gathers rollouts so, the metrics
// actor episode reports.
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace troupe::actors {

template <class T>
class round_gather {
 public:
  explicit round_gather(std::size_t agents = 0) : agents_(agents) {}

  bool has(std::uint64_t round, std::uint32_t agent) const { return items_.count({round, agent}) > 0; }

  // False, keeping the first, when this agent's item of this round is here already.
  bool add(std::uint64_t round, std::uint32_t agent, T item) {
    return items_.emplace(std::make_pair(round, agent), std::move(item)).second;
  }

  // Whether every agent's item of the next round has come.
  bool next_is_whole() const {
    std::size_t count = 0;
    for (auto it = items_.lower_bound({next_, 0}); it != items_.end() && it->first.first == next_; ++it)
      ++count;
    return agents_ > 0 && count >= agents_;
  }

  // The next round's items, in agent order; the round after is next then.
  std::vector<T> take_next() {
    std::vector<T> round;
    const auto first = items_.lower_bound({next_, 0});
    auto end = first;
    for (; end != items_.end() && end->first.first == next_; ++end) round.push_back(std::move(end->second));
    items_.erase(first, end);
    ++next_;
    return round;
  }

  // Every item here, in (round, agent) order (the run ends).
  std::vector<T> take_all() {
    std::vector<T> all;
    for (auto& [key, item] : items_) all.push_back(std::move(item));
    items_.clear();
    return all;
  }

  // The rounds taken so far: the next round's number.
  std::uint64_t rounds_taken() const { return next_; }

  // Calls f(item) on every item not taken yet.
  template <class F>
  void for_each(F f) const {
    for (const auto& [key, item] : items_) f(item);
  }

 private:
  std::size_t agents_;
  std::map<std::pair<std::uint64_t, std::uint32_t>, T> items_;  // by (round, agent)
  std::uint64_t next_ = 0;
};

}  // namespace troupe::actors
