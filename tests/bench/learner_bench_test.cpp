// The learner benchmark (troupe bench learner): its FLOP counts against the
// layer sizes worked out by hand from the shipped configs, and one timed
// batch of a config's own learner.
#include <doctest/doctest.h>

#include <string>

#include "bench/learner_bench.hpp"
#include "run/config_loader.hpp"

using namespace troupe;

namespace {

run::run_config shipped(const std::string& name) {
  return run::load_config(std::string(TROUPE_SOURCE_DIR) + "/configs/" + name);
}

}  // namespace

TEST_SUITE("run") {
TEST_CASE("bench learner: multiply-adds per sample of each network kind, from its layer sizes") {
  // CartPole (4 inputs), a shared 64-64 trunk, 2 logits and a value.
  CHECK(bench::forward_macs_per_sample(shipped("cartpole_ppo.yaml")) == 4 * 64 + 64 * 64 + 64 * 2 + 64);
  // HalfCheetah (17 inputs): a 64-64 trunk each for the policy and the value, 6 means and a value.
  CHECK(bench::forward_macs_per_sample(shipped("mujoco_halfcheetah.yaml")) ==
        2 * (17 * 64 + 64 * 64) + 64 * 6 + 64);
  // MinAtar Breakout (10x10x4): 16 3x3 filters over 8x8 positions, 1024 -> 128, 3 logits and a value.
  CHECK(bench::forward_macs_per_sample(shipped("minatar_breakout_ppo.yaml")) ==
        16 * 4 * 9 * 8 * 8 + 1024 * 128 + 128 * 3 + 128);
  // CartPole seeing 2 values: 2 -> 64, an LSTM of 64 (4 gates over input and state), 2 logits and a value.
  CHECK(bench::forward_macs_per_sample(shipped("cartpole_pomdp_lstm_ppo.yaml")) ==
        2 * 64 + 4 * 64 * (64 + 64) + 64 * 2 + 64);
}

TEST_CASE("bench learner: a config's learner trains synthetic batches of its shapes, timed per minibatch step") {
  const auto r = bench::bench_learner(shipped("cartpole_ppo.yaml"), "cartpole_ppo.yaml", 1, 2);
  CHECK(r.algorithm == "ppo");
  CHECK(r.minibatch == 2 * 16 * 8 / 4);  // batch_rollouts x n_steps x envs_per_agent, in 4 minibatches
  CHECK(r.flops_per_sample == 6.0 * (4 * 64 + 64 * 64 + 64 * 2 + 64));
  REQUIRE(r.repeat_us_per_step.size() == 2);
  CHECK(r.us_per_step > 0);
  CHECK(r.large_batch_gflops > 0);
  CHECK(bench::matmul_gflops(64, 0.01, 1) > 0);
}
}
