#pragma once
// The rollouts in flight at once, all the agents of a learner together
// (local ones and cluster workers'): a budget the agents share, kept by the
// learner to bound the policy lag whatever the agent count. Plain C++: no
// actors, no tensors.
//
// Why: a sample's lag is the number of updates between the step that acted
// it and the update that trains it. A rollout trains after every rollout
// that arrived before it, and while it is collected the learner trains the
// rollouts of every other agent, so with A3C's one update per rollout the
// lag grows with the rollouts in flight: with 8 agents of 2 in flight each,
// CartPole's lag was 15 and its policy collapsed. Capping the rollouts in
// flight (being collected, or waiting to train) caps the lag; agents beyond
// the budget wait their turn, which costs nothing when the learner is the
// bottleneck.
//
// How, with nothing but the acknowledgements the agents already wait for:
// an agent collects while fewer than `per_agent_in_flight` of its rollouts
// are unacknowledged (algo.max_rollouts_in_flight), and waits otherwise. The
// learner sees every rollout arrive and decides when each acknowledgement
// goes out, so it knows which agents are collecting (known, with fewer
// unacknowledged than that), which wait, and which rollouts wait to train.
// An agent with u unacknowledged may still send M - u rollouts without
// another acknowledgement; those count as in flight already. The learner
// holds an acknowledgement back whenever letting it go would put more than
// `max_in_flight` rollouts in flight, and lets held ones go, oldest first,
// as soon as there is room: an arrival moves one rollout from an agent's
// room to the waiting ones, a trained one frees a place. An agent that has sent nothing for a
// while (it died, its worker was killed) stops counting as collecting, so
// the others are never held back by agents that are gone. Until an agent's
// first rollout arrives the learner cannot know it collects: a run that
// starts many agents at once overshoots once (the lag bound drops what is
// too old of that).
#include <chrono>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace troupe::algo {

class collection_budget {
 public:
  using clock = std::chrono::steady_clock;

  struct settings {
    int max_in_flight = 0;           // rollouts collected or waiting to train; 0: no limit
    int per_agent_in_flight = 2;     // algo.max_rollouts_in_flight
    // Silent this long at least (see idle()), an agent stops counting: a
    // killed worker holds the others back no longer than this.
    clock::duration idle_after = std::chrono::milliseconds(500);
  };

  explicit collection_budget(settings s);

  // A rollout of `agent` arrived: it waits to train, and is unacknowledged
  // until released. Returns acknowledgements that may go now (the agent may
  // have started to wait, leaving room for another).
  std::vector<std::uint64_t> on_arrival(std::uint32_t agent, clock::time_point now);

  // A rollout of `agent` that arrived has trained (or was dropped): its
  // acknowledgement `ticket` goes now or is held. Returns every ticket to deliver now, in
  // order (this one among them, or not).
  std::vector<std::uint64_t> on_ready(std::uint32_t agent, std::uint64_t ticket,
                                      clock::time_point now);

  // Agents idle for too long stop counting as collecting; returns the
  // held tickets that may go now. Call it while tickets are held.
  std::vector<std::uint64_t> on_tick(clock::time_point now);

  // Every held ticket, oldest first (the run is draining).
  std::vector<std::uint64_t> release_all();

  bool holding() const { return !held_.empty(); }
  int waiting() const { return waiting_; }
  // Rollouts waiting to train, and those the agents may still send.
  int in_flight() const { return room_ + waiting_; }
  std::int64_t tickets_held_total() const { return held_total_; }

 private:
  struct agent_entry {
    int unacknowledged = 0;
    bool gone = false;               // idle too long: not counted until it sends again
    clock::time_point last_active{}; // its last rollout, or the last release to it
    clock::duration gap{};           // smoothed time between its rollouts
  };
  struct held_ticket {
    std::uint32_t agent;
    std::uint64_t ticket;
  };

  // Rollouts the agent may still send without an acknowledgement (0 when gone).
  int room(const agent_entry& a) const;
  bool idle(const agent_entry& a, clock::time_point now) const;
  void recount();
  std::vector<std::uint64_t> release_what_fits(clock::time_point now);

  settings settings_;
  std::unordered_map<std::uint32_t, agent_entry> agents_;
  std::deque<held_ticket> held_;
  int room_ = 0;     // summed over the agents
  int waiting_ = 0;  // arrived, not yet trained or dropped
  std::int64_t held_total_ = 0;
};

}  // namespace troupe::algo
