#pragma once
// The inference-serving benchmark: agent threads ask for predictions in a
// closed loop (each waits for its answer, then asks again) under four ways of
// sharing one network, measured in the same run (and a fifth, echo, that
// computes nothing and measures the request path alone):
//   batched    the model-owner actor with dynamic batching, asked through its
//              lane as the agents of a run ask it (actors/predict_lane.hpp)
//   unbatched  the model-owner actor with batch size 1
//   batched-messages  batched, with each request and reply an actor message:
//              the path of requests relayed by the cluster gateway
//   mutex      one shared model, each thread calls it under a mutex
//   copies     each thread owns a copy of the model
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <caf/fwd.hpp>

#include "run/run_config.hpp"
#include "model/net_spec.hpp"

namespace troupe::bench {

struct inference_bench_config {
  std::string net = "mlp";  // mlp | mlp-by-hand | cnn | lstm
  std::vector<int> agents = {1, 4, 16, 64};
  int rows = 1;             // observations per request (an agent's environments)
  double seconds = 2.0;     // per mode and agent count
  std::vector<std::string> modes = {"batched", "unbatched", "mutex", "copies"};
  run::batching_config batching;  // batched mode: a run's `batching` section
  std::string device = "cpu";  // where the network runs: cpu or cuda:N
  // The requesters' threads under SCHED_BATCH, as agents.batch_scheduling
  // puts agents (actors/agent_thread.hpp); in every mode alike.
  bool batch_scheduling = true;
};

struct inference_result {
  std::string mode;
  int agents = 0;
  double predictions_per_s = 0;  // observations answered per second
  double requests_per_s = 0;
  double mean_batch = 1;
  double p50_us = 0, p99_us = 0;
  // CPU time of the whole process (user and kernel, every thread) per
  // prediction while the mode ran: what a prediction costs the machine.
  double cpu_us_per_prediction = 0;
  std::int64_t model_bytes = 0;  // parameter memory the mode holds
  double gpu_utilisation = -1;   // mean percent from nvidia-smi on cuda; -1: not measured
  // Model-owner modes: the share of the run its thread spent in forward
  // passes, and in sampling and sending the replies (which wakes each
  // agent's thread); -1 for the other modes.
  double owner_forward_share = -1, owner_reply_share = -1;
  // Model-owner modes: one forward pass of the mean batch, timed after the run.
  double forward_at_mean_batch_us = -1;
  std::string failed;  // why the mode could not run (e.g. out of GPU memory); empty: it ran
};

// What every mode is up against on this machine: waking a sleeping thread and
// being woken back (a condition-variable ping-pong between two threads), and
// one forward pass of `rows` observations.
struct serving_floor {
  double wake_round_trip_us = 0;
  double wake_round_trip_cpu_us = 0;  // CPU time of both threads per round trip
  double forward_one_request_us = 0;
};
serving_floor measure_floor(const inference_bench_config& config);

// mlp: 4 -> 64 -> 64 -> 2+1 (CartPole-sized). cnn: 10x10x4 -> conv 16@3x3 ->
// 128 -> 6+1 (MinAtar-sized). lstm: the mlp with an LSTM core of 64 units,
// each requester carrying its state from one answer to the next. Throws
// std::invalid_argument for another name.
model::net_spec bench_net_spec(const std::string& net);

// Runs every mode at every agent count; `on_result` sees each result as it is
// measured.
std::vector<inference_result> run_inference_bench(
    caf::actor_system& sys, const inference_bench_config& config,
    const std::function<void(const inference_result&)>& on_result = {});

}  // namespace troupe::bench
