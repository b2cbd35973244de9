// The lane between agents and their model-owner, with a stand-in owner that
// answers each request with numbers computed from it: the lane's own
// promises (every request is announced, taken once and answered once, to
// the slot that asked; a closed lane fails waiting and later requests),
// apart from batching and forward passes.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "actors/errors.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/predict_lane.hpp"

using namespace troupe;
using namespace std::chrono_literals;

namespace {

// What the stand-in owner saw: every (agent, request number) it took.
struct taken_log {
  std::mutex mutex;
  std::set<std::pair<std::uint32_t, int>> seen;
  int duplicates = 0;
};

struct stand_in_state {
  std::shared_ptr<actors::predict_lane> lane;
  taken_log* log = nullptr;
  std::vector<actors::predict_slot*> arrived;
  static inline const char* name = "stand_in_owner";
};

// Takes requests only when told by lane_atom, as the model-owner does, so a
// request whose announcement was lost waits forever and fails the test.
// Answers agent a's request q with values {a, q} and version a * 1000 + q.
caf::behavior stand_in_owner(caf::stateful_actor<stand_in_state>* self,
                             std::shared_ptr<actors::predict_lane> lane, taken_log* log) {
  self->state.lane = std::move(lane);
  self->state.log = log;
  self->attach_functor([lane = self->state.lane] {
    lane->close(actors::make_error(actors::errc::run_ended, "the stand-in owner has stopped"));
  });
  return {[=](actors::lane_atom) {
    auto& st = self->state;
    st.lane->take_announced(st.arrived);
    for (actors::predict_slot* slot : st.arrived) {
      const std::uint32_t a = slot->request.agent_id;
      const int q = int(slot->request.observations.at(0));
      {
        std::lock_guard<std::mutex> lock(st.log->mutex);
        if (!st.log->seen.insert({a, q}).second) ++st.log->duplicates;
      }
      slot->reply.values = {float(a), float(q)};
      slot->reply.version = std::uint64_t(a) * 1000 + std::uint64_t(q);
      slot->answer();
    }
    st.arrived.clear();
  }};
}

// A stand-in owner on its own thread, serving `lane`.
caf::actor spawn_stand_in(caf::actor_system& sys, const std::shared_ptr<actors::predict_lane>& lane,
                          taken_log& log) {
  auto owner = sys.spawn<caf::detached>(stand_in_owner, lane, &log);
  lane->serve_by(owner.address());
  return owner;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("the predict lane: 32 threads' requests each taken once and answered to their own slot (100 rounds)") {
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const int threads_count = 32, requests_each = 100;
  for (int round = 0; round < 100; ++round) {
    CAPTURE(round);
    auto lane = std::make_shared<actors::predict_lane>();
    taken_log log;
    auto owner = spawn_stand_in(sys, lane, log);
    std::vector<int> wrong(threads_count, 0), answered(threads_count, 0);
    std::atomic<int> finished{0};
    std::vector<std::thread> threads;
    for (int a = 0; a < threads_count; ++a)
      threads.emplace_back([&, a] {
        actors::predict_slot slot;
        for (int q = 0; q < requests_each; ++q) {
          slot.request = actors::predict_request{std::uint32_t(a), 1, {float(q)}};
          if (!lane->ask(slot)) {
            ++wrong[a];
            break;
          }
          ++answered[a];
          const bool own = slot.reply.values == std::vector<float>{float(a), float(q)} &&
                           slot.reply.version == std::uint64_t(a) * 1000 + std::uint64_t(q);
          wrong[a] += own ? 0 : 1;
        }
        ++finished;
      });
    // A lost announcement leaves a thread waiting: give up after 30 s and
    // close the lane, which releases it, so the failure is reported, not hung.
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (finished < threads_count && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(1ms);
    const bool all_finished = finished == threads_count;
    caf::anon_send_exit(owner, caf::exit_reason::user_shutdown);
    for (auto& t : threads) t.join();
    REQUIRE(all_finished);
    for (int a = 0; a < threads_count; ++a) {
      REQUIRE(answered[a] == requests_each);
      REQUIRE(wrong[a] == 0);
    }
    CHECK(log.duplicates == 0);
    CHECK(log.seen.size() == size_t(threads_count) * requests_each);
  }
}

TEST_CASE("the predict lane: closing it while requests race in answers or fails each one, never leaves one waiting (200 rounds)") {
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const int threads_count = 16;
  int answered_total = 0;
  for (int round = 0; round < 200; ++round) {
    CAPTURE(round);
    auto lane = std::make_shared<actors::predict_lane>();
    taken_log log;
    auto owner = spawn_stand_in(sys, lane, log);
    std::vector<int> wrong(threads_count, 0), failed(threads_count, 0);
    std::vector<std::thread> threads;
    for (int a = 0; a < threads_count; ++a)
      threads.emplace_back([&, a] {
        actors::predict_slot slot;
        // Asks until the lane fails it; after that every ask fails at once.
        for (int q = 0; failed[a] < 3; ++q) {
          slot.request = actors::predict_request{std::uint32_t(a), 1, {float(q)}};
          if (lane->ask(slot)) {
            wrong[a] += slot.reply.values == std::vector<float>{float(a), float(q)} ? 0 : 1;
          } else {
            wrong[a] += actors::code_of(slot.error) == actors::errc::run_ended ? 0 : 1;
            ++failed[a];
          }
        }
      });
    // The owner stops at a moment that varies from round to round.
    std::this_thread::sleep_for(std::chrono::microseconds(50 * (round % 40)));
    caf::anon_send_exit(owner, caf::exit_reason::user_shutdown);
    for (auto& t : threads) t.join();  // a request left waiting hangs here
    for (int a = 0; a < threads_count; ++a) {
      REQUIRE(wrong[a] == 0);
      REQUIRE(failed[a] == 3);
    }
    answered_total += int(log.seen.size());
    CHECK(log.duplicates == 0);
  }
  CHECK(answered_total > 0);  // the owner did answer before it stopped, in some rounds
}
}
