// Example/MemoryCue-v0 step by hand: the cue shows only at the first step,
// the question only at the last, and only the answer is rewarded.
#include <doctest/doctest.h>

#include <vector>

#include "envs/examples/memory_cue.hpp"

using troupe::envs::examples::memory_cue;

TEST_SUITE("envs") {
TEST_CASE("memory cue: the cue is shown once, the answer asked once, and rewarded +1 or -1") {
  int cues[2] = {0, 0};
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    memory_cue env;
    std::vector<float> obs(3);
    env.reset(seed, obs.data());
    const int cue = obs[0] == 1.f ? 0 : 1;
    ++cues[cue];
    CHECK(obs[0] + obs[1] == 1.f);  // exactly one cue
    CHECK(obs[2] == 0.f);
    const float wrong_then_right[2] = {float(1 - cue), float(cue)};
    for (int t = 1; t <= memory_cue::delay; ++t) {
      const auto r = env.step(&wrong_then_right[seed % 2], obs.data());  // ignored
      CHECK(r.reward == 0.0);
      CHECK_FALSE(r.terminated);
      CHECK(obs == std::vector<float>{0.f, 0.f, 0.f});  // nothing to see
    }
    const auto before_question = env.step(&wrong_then_right[0], obs.data());
    CHECK(before_question.reward == 0.0);
    CHECK(obs == std::vector<float>{0.f, 0.f, 1.f});  // now: which was it?
    const auto answer = env.step(&wrong_then_right[seed % 2], obs.data());
    CHECK(answer.terminated);
    CHECK(answer.reward == (seed % 2 ? 1.0 : -1.0));
  }
  CHECK(cues[0] > 5);  // both cues come up
  CHECK(cues[1] > 5);
}
}
