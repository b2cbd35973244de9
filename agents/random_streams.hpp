#pragma once
// Every random stream of a run, in one table. Each component draws from its
// own seed, derived from run.seed, the stream's number below and the run
// segment (a resumed run is the next segment), so no two streams overlap and
// a resumed run draws fresh, reproducible numbers.
#include <cstdint>

namespace troupe::agents {

// A seed for `stream` of `segment` of the run seeded `run_seed`.
std::uint64_t stream_seed(std::uint64_t run_seed, std::uint64_t stream, std::uint64_t segment);

class run_streams {
 public:
  // The streams' numbers. Agents take 1 + their id, so the others sit far
  // above any agent count.
  static constexpr std::uint64_t owner_sampling = 0;          // replica 0's model-owner
  static constexpr std::uint64_t first_agent = 1;             // agent i: first_agent + i
  static constexpr std::uint64_t confirmations = 1u << 20;   // run.stop.confirm_episodes
  static constexpr std::uint64_t cluster_workers = 1u << 21; // what the gateway hands workers
  static constexpr std::uint64_t replica_sampling = 1u << 22;  // replica d > 0: + d
  static constexpr std::uint64_t minibatch_shuffles = 1u << 23;  // replica d's learner: + d
  static constexpr std::uint64_t selfplay_snapshots = 1u << 24;  // the snapshots' model-owners
  static constexpr std::uint64_t policy_tables = 1u << 25;  // policy p > 0 (policies:): + p seeds its table

  // The seed of policy `policy`'s table of streams (and of its initial
  // parameters): policy 0 keeps the run's own, so a run of one policy draws
  // what it drew before policies existed.
  static std::uint64_t policy_seed(std::uint64_t run_seed, std::uint64_t policy) {
    return policy == 0 ? run_seed : stream_seed(run_seed, policy_tables + policy, 0);
  }

  run_streams(std::uint64_t run_seed, std::uint64_t segment) : seed_(run_seed), segment_(segment) {}

  // Action sampling of replica `replica`'s model-owner (replica 0 keeps the
  // stream a one-device run has).
  std::uint64_t owner(std::uint64_t replica) const {
    return stream_seed(seed_, replica == 0 ? owner_sampling : replica_sampling + replica, segment_);
  }
  // Agent `id` of this node, in its `incarnation` (0, then one more per
  // restart: a replacement draws fresh numbers).
  std::uint64_t agent(std::uint64_t id, std::uint64_t incarnation) const {
    return stream_seed(seed_, first_agent + id, segment_ + (incarnation << 32));
  }
  // How replica `replica`'s learner shuffles PPO's minibatches.
  std::uint64_t learner(std::uint64_t replica) const {
    return stream_seed(seed_, minibatch_shuffles + replica, segment_);
  }
  std::uint64_t confirmation() const { return stream_seed(seed_, confirmations, segment_); }
  // Self-play: the snapshots' owners sample from this plus their id.
  std::uint64_t snapshots() const { return stream_seed(seed_, selfplay_snapshots, segment_); }
  // Workers' agents draw from this plus their agent id.
  std::uint64_t workers() const { return stream_seed(seed_, cluster_workers, segment_); }

 private:
  std::uint64_t seed_, segment_;
};

}  // namespace troupe::agents
