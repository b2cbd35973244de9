#include <doctest/doctest.h>

#include <cmath>

#include "algo/sampling.hpp"

using namespace troupe::algo;

TEST_SUITE("algo") {
TEST_CASE("categorical sampling draws each action with its softmax probability") {
  const float logits[2] = {0.0f, std::log(3.0f)};  // probabilities 0.25, 0.75
  std::mt19937_64 rng(42);
  int ones = 0;
  const int draws = 40000;
  for (int i = 0; i < draws; ++i) {
    const auto s = sample_categorical(logits, 2, rng);
    ones += s.action;
    CHECK(s.logp == doctest::Approx(s.action ? std::log(0.75) : std::log(0.25)));
  }
  CHECK(double(ones) / draws == doctest::Approx(0.75).epsilon(0.02));  // ~7 std errors
}

TEST_CASE("log-probabilities are stable for large logits") {
  const float logits[3] = {1000.f, 1000.f, -1000.f};
  CHECK(categorical_logp(logits, 3, 0) == doctest::Approx(std::log(0.5)));
  CHECK(std::isfinite(categorical_logp(logits, 3, 2)));
  CHECK(greedy_action(logits, 3).action == 0);
}

TEST_CASE("categorical probabilities are the softmax of the logits, also for large logits") {
  const float logits[3] = {0.0f, std::log(3.0f), std::log(4.0f)};  // 1 : 3 : 4
  float p[3];
  categorical_probabilities(logits, 3, p);
  CHECK(p[0] == doctest::Approx(0.125));
  CHECK(p[1] == doctest::Approx(0.375));
  CHECK(p[2] == doctest::Approx(0.5));
  const float huge[2] = {1000.f, -1000.f};
  categorical_probabilities(huge, 2, p);
  CHECK(p[0] == doctest::Approx(1.0));
  CHECK(p[1] == 0.0f);
}
}
