#pragma once
// The learner's cost per minibatch step against what this machine's
// arithmetic allows. For a run config, its own learner (algo/learner.hpp,
// the config's algorithm, optimiser and minibatches) trains batches of
// synthetic rollouts of the config's shapes, timed per minibatch step
// (forward, backward and optimiser, as PPO's epochs or A3C's one step take
// them, the batch's targets included); the network's FLOPs per sample come
// from its layer shapes. The roofline beside it: the same network's forward
// and backward at a large batch, and a large square matrix product.
#include <string>
#include <vector>

#include "run/run_config.hpp"

namespace troupe::bench {

struct learner_bench_result {
  std::string name;           // what the caller calls the case (its config's file)
  std::string network;        // "mlp 64-64, own value trunk", "cnn 16ch + 128", ...
  std::string algorithm;      // ppo | a3c
  std::string passes;         // "by hand" (model/mlp_by_hand.hpp) | "LibTorch"
  int minibatch = 0;          // samples per minibatch step
  double us_per_step = 0;     // median over repeats
  std::vector<double> repeat_us_per_step;
  double flops_per_sample = 0;    // a training pass: forward and backward, 3 x the forward's
  double achieved_gflops = 0;     // flops_per_sample * minibatch / the step's time
  double large_batch_gflops = 0;  // the same network's forward and backward at large_batch rows
  int large_batch = 0;
};

// Forward multiply-adds per sample of the network `config` builds for its
// environment, counted from the layer shapes (linear layers, convolutions,
// recurrent cells; activations and the softmax are not counted).
double forward_macs_per_sample(const run::run_config& config);

// Times `batches` batches (after one untimed), `repeats` times.
learner_bench_result bench_learner(const run::run_config& config, const std::string& name, int batches,
                                   int repeats);

// GFLOP/s of an n x n by n x n float matrix product on this thread's
// compute threads, the median of `repeats` timings of about `seconds` each.
double matmul_gflops(int n, double seconds, int repeats);

}  // namespace troupe::bench
