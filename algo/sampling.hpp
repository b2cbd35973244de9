#pragma once
// Action sampling from policy logits: plain C++.
#include <cstdint>
#include <random>

namespace troupe::algo {

struct sampled_action {
  int action = 0;
  float logp = 0.0f;  // log-probability of `action` under the logits
};

// The categorical functions take an optional action mask `legal` (n bytes,
// 1: legal; algo/action_mask.hpp): the distribution is then softmax over the
// legal actions alone, and a masked action has probability 0.

// Draws from softmax(logits[0..n)).
sampled_action sample_categorical(const float* logits, int n, std::mt19937_64& rng,
                                  const std::uint8_t* legal = nullptr);
// The most probable action.
sampled_action greedy_action(const float* logits, int n, const std::uint8_t* legal = nullptr);
// log softmax(logits)[action], computed stably (-infinity for a masked action).
float categorical_logp(const float* logits, int n, int action, const std::uint8_t* legal = nullptr);
// softmax(logits[0..n)) into probabilities[0..n), computed stably.
void categorical_probabilities(const float* logits, int n, float* probabilities,
                               const std::uint8_t* legal = nullptr);

// Draws `d` values from N(mean, exp(log_std)^2) into `action`; returns their
// joint log-density.
float sample_gaussian(const float* mean, const float* log_std, int d, std::mt19937_64& rng,
                      float* action);
float gaussian_logp(const float* mean, const float* log_std, int d, const float* action);

}  // namespace troupe::algo
