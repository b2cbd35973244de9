#include "envs/observed_vector.hpp"

#include <string>

#include "envs/env_error.hpp"

namespace troupe::envs {

observed_vector::observed_vector(std::unique_ptr<env_vector> inner, std::vector<int> indices)
    : inner_(std::move(inner)), indices_(std::move(indices)) {
  const env_spec& full = inner_->spec();
  const auto fail = [&](const std::string& why) { throw env_key_error("env.observe", why); };
  if (indices_.empty()) fail("expected a non-empty list of observation indices");
  if (full.observation.type != space::kind::box)
    fail(full.id + " observes " + full.observation.describe() + ", not a Box: nothing to select");
  full_size_ = full.observation.flat_size();
  spec_ = full;
  std::vector<double> low, high;
  for (int i : indices_) {
    if (i < 0 || i >= full_size_)
      fail("index " + std::to_string(i) + " is out of range: " + full.id + " observes " +
           std::to_string(full_size_) + " values (0.." + std::to_string(full_size_ - 1) + ")");
    low.push_back(full.observation.low.empty() ? 0.0 : full.observation.low[size_t(i)]);
    high.push_back(full.observation.high.empty() ? 0.0 : full.observation.high[size_t(i)]);
  }
  spec_.observation = space::box_space({int(indices_.size())}, std::move(low), std::move(high));
  full_.resize(size_t(size()) * full_size_);
  full_final_.resize(full_.size());
}

void observed_vector::select(const std::vector<float>& full, float* out, int rows) const {
  const size_t m = indices_.size();
  for (int r = 0; r < rows; ++r)
    for (size_t j = 0; j < m; ++j)
      out[size_t(r) * m + j] = full[size_t(r) * full_size_ + size_t(indices_[j])];
}

void observed_vector::reset(const std::uint64_t* seeds, float* observations) {
  inner_->reset(seeds, full_.data());
  select(full_, observations, size());
}

void observed_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  std::vector<float> one(static_cast<size_t>(full_size_));
  inner_->reset_one(i, seed, one.data());
  select(one, observation, 1);
}

void observed_vector::step(const float* actions, const std::uint64_t* reset_seeds,
                           float* observations, step_result* results, float* final_observations) {
  inner_->step(actions, reset_seeds, full_.data(), results, full_final_.data());
  select(full_, observations, size());
  select(full_final_, final_observations, size());
}

}  // namespace troupe::envs
