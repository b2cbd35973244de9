// Agent threads ask Linux for SCHED_BATCH; the request must reach the calling
// thread only, not the process (the model-owner keeps wake-up preemption).
#include <doctest/doctest.h>
#include <sched.h>

#include <string>
#include <thread>

#include "actors/agent_thread.hpp"

TEST_SUITE("actors") {
TEST_CASE("schedule_this_thread_as_batch changes the calling thread and no other") {
  const int before = sched_getscheduler(0);
  REQUIRE(before == SCHED_OTHER);
  std::string problem = "not run";
  int inside = -1;
  std::thread agent([&] {
    problem = troupe::actors::schedule_this_thread_as_batch();
    inside = sched_getscheduler(0);
  });
  agent.join();
  CHECK(problem == "");
  CHECK(inside == SCHED_BATCH);
  CHECK(sched_getscheduler(0) == before);  // this thread is untouched
}
}
