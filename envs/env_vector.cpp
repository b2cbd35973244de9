#include "envs/env_vector.hpp"

#include <algorithm>
#include <stdexcept>


namespace troupe::envs {

native_env_vector::native_env_vector(std::vector<std::unique_ptr<env>> envs)
    : envs_(std::move(envs)) {
  if (envs_.empty()) throw std::invalid_argument("an environment vector needs an environment");
  obs_size_ = spec().observation.flat_size();
  action_size_ = spec().action.flat_size();
}

void native_env_vector::reset(const std::uint64_t* seeds, float* observations) {
  for (size_t i = 0; i < envs_.size(); ++i) envs_[i]->reset(seeds[i], observations + i * obs_size_);
}

void native_env_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  envs_.at(size_t(i))->reset(seed, observation);
}

void native_env_vector::step(const float* actions, const std::uint64_t* reset_seeds,
                             float* observations, step_result* results, float* final_observations) {
  for (size_t i = 0; i < envs_.size(); ++i) {
    float* obs = observations + i * obs_size_;
    results[i] = envs_[i]->step(actions + i * action_size_, obs);
    if (!(results[i].terminated || results[i].truncated)) continue;
    std::copy(obs, obs + obs_size_, final_observations + i * obs_size_);
    if (reset_seeds) envs_[i]->reset(reset_seeds[i], obs);
  }
}

void native_env_vector::action_masks(std::uint8_t* masks) const {
  const size_t n = size_t(spec().action.choice_count());
  for (size_t i = 0; i < envs_.size(); ++i) envs_[i]->action_mask(masks + i * n);
}

bool native_env_vector::can_render() const {
  return drawable(*envs_.front()) != nullptr;
}

bool native_env_vector::render(int i, rgb_frame& frame) {
  const renderable* r = drawable(*envs_.at(size_t(i)));
  if (!r) return false;
  r->render(frame);
  return true;
}

vector_as_env::vector_as_env(std::unique_ptr<env_vector> vector)
    : vector_(std::move(vector)),
      final_observation_(size_t(vector_->spec().observation.flat_size())) {
  if (vector_->size() != 1) throw std::invalid_argument("vector_as_env: a vector of one expected");
}

void vector_as_env::reset(std::uint64_t seed, float* observation) {
  vector_->reset(&seed, observation);
}

step_result vector_as_env::step(const float* action, float* observation) {
  step_result result;
  vector_->step(action, nullptr, observation, &result, final_observation_.data());
  return result;
}

void vector_as_env::render(rgb_frame& frame) const {
  if (!vector_->render(0, frame))
    throw std::runtime_error(spec().id + " cannot render itself");
}

const renderable* drawable(const env& e) {
  const auto* r = dynamic_cast<const renderable*>(&e);
  return r && r->can_render() ? r : nullptr;
}

}  // namespace troupe::envs
