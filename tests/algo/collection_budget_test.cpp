// The collection budget without actors: simulated agents that collect while
// fewer than M of their rollouts are unacknowledged, a learner that trains
// in arrival order, and acknowledgements that go only when the budget says.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "algo/collection_budget.hpp"

using troupe::algo::collection_budget;
using clock_type = collection_budget::clock;

namespace {

struct sim_agent {
  int in_flight = 0;  // as the agent sees it: sent, not yet acknowledged
  bool dead = false;
  std::int64_t trained = 0;
  std::uint64_t next_sequence = 0;
  std::uint64_t started_at_version = 0;  // of the rollout it collects now
};

struct queued {
  std::uint32_t agent;
  std::uint64_t ticket;
  std::uint64_t acted_version;  // when its collection began
};

// One learner and its agents, stepped by random events.
struct simulation {
  int agents, per_agent, max_collecting;
  collection_budget budget;
  std::vector<sim_agent> state;
  std::deque<queued> queue;  // arrived, not trained
  std::map<std::uint64_t, std::uint32_t> ticket_agent;
  std::uint64_t next_ticket = 0;
  std::uint64_t version = 0;
  std::uint64_t lag_max = 0;
  std::uint64_t lag_sum = 0, lag_count = 0;
  double lag_mean() const { return lag_count ? double(lag_sum) / double(lag_count) : 0.0; }
  clock_type::time_point now{};
  std::vector<bool> heard;  // has sent a rollout
  int heard_count = 0;
  bool started_beyond_budget = false;  // a waiting agent started with no free place

  simulation(int n, int m, int g)
      : agents(n), per_agent(m), max_collecting(g),
        budget({g, m, std::chrono::seconds(2)}), state(size_t(n)), heard(size_t(n)) {}

  bool collecting(const sim_agent& a) const { return !a.dead && a.in_flight < per_agent; }
  int collecting_now() const {
    int c = 0;
    for (const auto& a : state) c += collecting(a) ? 1 : 0;
    return c;
  }
  // Rollouts the agents may still send without an acknowledgement, and
  // those waiting to train: what the budget bounds.
  int in_flight_now() const {
    int room = 0;
    for (const auto& a : state) room += a.dead ? 0 : std::max(0, per_agent - a.in_flight);
    return room + int(queue.size());
  }

  void deliver(const std::vector<std::uint64_t>& tickets) {
    for (std::uint64_t t : tickets) {
      sim_agent& a = state[ticket_agent.at(t)];
      const bool was = collecting(a);
      --a.in_flight;
      REQUIRE(a.in_flight >= 0);
      if (!was && collecting(a)) a.started_at_version = version;
      // Until every agent has sent once, the learner cannot know them all.
      if (max_collecting > 0 && heard_count == agents && in_flight_now() > max_collecting)
        started_beyond_budget = true;
      ticket_agent.erase(t);
    }
  }

  // Agent i finishes the rollout it collects and sends it.
  void send(std::uint32_t i) {
    sim_agent& a = state[i];
    if (!heard[i]) {
      heard[i] = true;
      ++heard_count;
    }
    const std::uint64_t t = next_ticket++;
    ticket_agent[t] = i;
    queue.push_back({i, t, a.started_at_version});
    ++a.in_flight;
    a.started_at_version = version;  // its next rollout, if it goes on
    deliver(budget.on_arrival(i, now));
  }

  // The learner trains the oldest rollout (one update).
  void train() {
    const queued q = queue.front();
    queue.pop_front();
    lag_max = std::max(lag_max, version - q.acted_version);
    lag_sum += version - q.acted_version;
    ++lag_count;
    ++version;
    ++state[q.agent].trained;
    deliver(budget.on_ready(q.agent, q.ticket, now));
  }

  // One random event: an agent that collects sends, or the learner trains.
  bool step(std::mt19937& rng) {
    std::vector<std::uint32_t> senders;
    for (std::uint32_t i = 0; i < state.size(); ++i)
      if (collecting(state[i])) senders.push_back(i);
    const bool can_train = !queue.empty();
    if (senders.empty() && !can_train) return false;  // nothing can ever happen again
    now += std::chrono::milliseconds(1);
    if (can_train && (senders.empty() || rng() % 2)) {
      train();
    } else {
      send(senders[rng() % senders.size()]);
    }
    return true;
  }
};

}  // namespace

TEST_SUITE("algo") {
TEST_CASE("collection budget: at most max_in_flight rollouts collected or waiting once the first "
          "rollouts are in; no agent starves; no deadlock (200 random schedules)") {
  for (int round = 0; round < 200; ++round) {
    CAPTURE(round);
    std::mt19937 rng(round);
    const int n = 1 + int(rng() % 40), m = 1 + int(rng() % 3), g = 1 + int(rng() % 6);
    CAPTURE(n);
    CAPTURE(m);
    CAPTURE(g);
    simulation sim(n, m, g);
    for (int e = 0; e < 20000; ++e) REQUIRE(sim.step(rng));
    // Never did a waiting agent start into a full budget.
    CHECK_FALSE(sim.started_beyond_budget);
    // Once every agent has been heard from, the budget holds.
    CHECK(sim.in_flight_now() <= g);
    // Every agent took turns: each trained some rollouts.
    for (const auto& a : sim.state) CHECK(a.trained > 0);
  }
}

TEST_CASE("collection budget: without it (0) the lag grows with the agents; with it, it does not") {
  // The mean lag once the first rollouts are in (the run's lag bound drops
  // what is too old of those).
  auto lag_of = [](int agents, int budget) {
    std::mt19937 rng(7);
    simulation sim(agents, 2, budget);
    for (int e = 0; e < 5000; ++e) sim.step(rng);
    sim.lag_sum = sim.lag_count = 0;
    for (int e = 0; e < 50000; ++e) sim.step(rng);
    return sim.lag_mean();
  };
  // Without a budget the learner trains every agent's rollouts in turn.
  CHECK(lag_of(32, 0) > 4 * lag_of(4, 0));
  // With 4 in flight, 32 agents lag about as 2 agents (4 in flight at most,
  // too) do: a little more, as 32 agents' rollouts are collected at more
  // different speeds. And less than 4 agents (up to 8).
  CHECK(lag_of(32, 4) <= lag_of(2, 0) * 1.25);
  CHECK(lag_of(32, 4) < lag_of(4, 0));
}

TEST_CASE("collection budget: 0 releases every acknowledgement at once") {
  collection_budget b({0, 2, std::chrono::seconds(2)});
  const auto t = clock_type::time_point{};
  for (std::uint32_t agent = 0; agent < 10; ++agent) {
    CHECK(b.on_arrival(agent, t).empty());
    CHECK(b.on_arrival(agent, t).empty());
    CHECK(b.on_ready(agent, agent * 2, t) == std::vector<std::uint64_t>{agent * 2});
  }
  CHECK_FALSE(b.holding());
  CHECK(b.tickets_held_total() == 0);
}

TEST_CASE("collection budget: a worked sequence, two agents taking turns in a budget of one") {
  collection_budget b({1, 1, std::chrono::seconds(2)});
  const auto t = clock_type::time_point{};
  using tickets = std::vector<std::uint64_t>;
  // Both start collecting (unknown until they send); each sends one rollout
  // and waits for it (M = 1): two in flight, over the budget once.
  CHECK(b.on_arrival(0, t).empty());
  CHECK(b.on_arrival(1, t).empty());
  CHECK(b.in_flight() == 2);
  // Agent 0's rollout trains, but agent 1's still waits: agent 0 waits too.
  CHECK(b.on_ready(0, 100, t).empty());
  CHECK(b.tickets_held_total() == 1);
  // Agent 1's trains: room for one, the oldest held goes (agent 0's).
  CHECK(b.on_ready(1, 101, t) == tickets{100});
  CHECK(b.in_flight() == 1);
  // Agent 0 sends; it waits to train: still no room for agent 1.
  CHECK(b.on_arrival(0, t).empty());
  // It trains: agent 1's turn, and agent 0's acknowledgement is held.
  CHECK(b.on_ready(0, 102, t) == tickets{101});
  CHECK(b.on_arrival(1, t).empty());
  CHECK(b.on_ready(1, 103, t) == tickets{102});
  CHECK(b.in_flight() == 1);
  CHECK(b.holding());
}

TEST_CASE("collection budget: an agent gone silent stops counting, so the others go on") {
  collection_budget b({1, 1, std::chrono::seconds(2)});
  auto t = clock_type::time_point{};
  CHECK(b.on_arrival(0, t).empty());
  CHECK(b.on_arrival(1, t).empty());
  CHECK(b.on_ready(0, 1, t).empty());                           // agent 1's waits to train
  CHECK(b.on_ready(1, 2, t) == std::vector<std::uint64_t>{1});  // agent 0 collects, 1 waits
  // Agent 0 dies (its worker was killed): nothing more comes from it.
  t += std::chrono::milliseconds(1900);
  CHECK(b.on_tick(t).empty());  // not silent long enough yet
  t += std::chrono::milliseconds(200);
  CHECK(b.on_tick(t) == std::vector<std::uint64_t>{2});
  CHECK(b.in_flight() == 1);
  // Were it only slow, its next rollout counts it again.
  CHECK(b.on_arrival(0, t).empty());
}

TEST_CASE("collection budget: release_all lets every held acknowledgement go, oldest first") {
  collection_budget b({1, 1, std::chrono::seconds(2)});
  const auto t = clock_type::time_point{};
  for (std::uint32_t agent = 0; agent < 4; ++agent) b.on_arrival(agent, t);
  CHECK(b.on_ready(0, 10, t).empty());
  CHECK(b.on_ready(1, 11, t).empty());
  CHECK(b.on_ready(2, 12, t).empty());
  CHECK(b.on_ready(3, 13, t) == std::vector<std::uint64_t>{10});
  CHECK(b.release_all() == std::vector<std::uint64_t>{11, 12, 13});
  CHECK_FALSE(b.holding());
}

TEST_CASE("collection budget: settings out of range are refused") {
  CHECK_THROWS_AS(collection_budget({-1, 2, std::chrono::seconds(2)}), std::invalid_argument);
  CHECK_THROWS_AS(collection_budget({2, 0, std::chrono::seconds(2)}), std::invalid_argument);
}
}
