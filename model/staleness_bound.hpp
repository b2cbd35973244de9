#pragma once
// The bounded-staleness rule between parameter replicas, as bookkeeping of
// one replica: it may apply its own update n only when every peer has
// acknowledged (applied) its update n - max_lag. So no peer is ever more than
// max_lag of this replica's updates behind it. Plain C++: no actors, no
// tensors; the learner actor asks it before every update of its own.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace troupe::model {

class staleness_bound {
 public:
  // `peers`: the other replicas (0: a lone replica, never held back).
  staleness_bound(int peers, std::uint64_t max_lag) : acked_(peers, 0), max_lag_(max_lag) {
    if (max_lag == 0) throw std::invalid_argument("staleness_bound: max_lag must be at least 1");
  }

  // Whether this replica's next update keeps every peer within max_lag.
  bool may_apply() const { return own_ + 1 - min_acked() <= max_lag_; }

  // Records an update of this replica's own; returns its number (1, 2, ...).
  std::uint64_t on_own_applied() { return ++own_; }

  // Peer `peer` has applied this replica's updates 1 .. `sequence`.
  void on_ack(int peer, std::uint64_t sequence) {
    acked_.at(peer) = std::max(acked_.at(peer), sequence);
  }

  // Every peer has applied every update of this replica's.
  bool all_acked() const { return min_acked() == own_; }

  std::uint64_t own_updates() const { return own_; }

 private:
  std::uint64_t min_acked() const {
    return acked_.empty() ? own_ : *std::min_element(acked_.begin(), acked_.end());
  }

  std::vector<std::uint64_t> acked_;
  std::uint64_t own_ = 0;
  std::uint64_t max_lag_;
};

}  // namespace troupe::model
