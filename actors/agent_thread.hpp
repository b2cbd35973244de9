#pragma once
// How agent threads are scheduled.
//
// Agents are throughput work. Under Linux's default policy a thread that has
// slept gets to preempt the running one when it wakes, so every reply the
// model-owner sends (and every rollout the learner acknowledges) hands the
// CPU from the thread doing the shared work to the agent it just woke. With
// 64 agents on 2 cores the model-owner spent more time preempted than
// computing. SCHED_BATCH is the same fair policy without wake-up preemption:
// a woken agent waits for the next scheduling tick or for a core to fall idle.
// Measured in `troupe bench inference --agent-scheduling normal|batch` (README).
#include <string>

namespace troupe::actors {

// Puts the calling thread under SCHED_BATCH (no privileges needed). Returns
// an empty string, or why the system refused (the thread then keeps its
// policy, which costs speed, never correctness).
std::string schedule_this_thread_as_batch();

}  // namespace troupe::actors
