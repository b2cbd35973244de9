#include "app/team_playback.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "agents/evaluate.hpp"

namespace troupe::app {

team_playback_env::team_playback_env(std::unique_ptr<envs::env_vector> team,
                                     std::shared_ptr<model::shared_model> model, bool greedy, std::uint64_t seed)
    : team_(std::move(team)),
      model_(std::move(model)),
      greedy_(greedy),
      rng_(seed),
      rows_(size_t(team_->size())),
      obs_(size_t(team_->spec().observation.flat_size())),
      width_(size_t(team_->spec().action.flat_size())),
      choices_(team_->spec().has_action_mask ? size_t(team_->spec().action.choice_count()) : 0) {
  if (model::spec_of(*model_).state_size() > 0)
    throw std::invalid_argument("troupe play: a recurrent team's teammates would need their states carried: not built");
  observations_.resize(rows_ * obs_);
  actions_.resize(rows_ * width_);
  finals_.resize(rows_ * obs_);
  masks_.resize(rows_ * choices_);
  results_.resize(rows_);
}

void team_playback_env::reset(std::uint64_t seed, float* observation) {
  const std::vector<std::uint64_t> seeds(rows_, seed);  // a game draws from its first row's
  team_->reset(seeds.data(), observations_.data());
  std::copy_n(observations_.begin(), obs_, observation);
}

envs::step_result team_playback_env::step(const float* action, float* observation) {
  std::copy_n(action, width_, actions_.begin());
  if (rows_ > 1) {  // the teammates, by the trained policy
    const model::net_spec& net = model::spec_of(*model_);
    model::predict(*model_, &observations_[obs_], nullptr, int(rows_ - 1), out_);
    if (choices_ > 0) team_->action_masks(masks_.data());
    for (size_t r = 1; r < rows_; ++r)
      agents::choose_action(net, team_->spec().action, &out_.policy[(r - 1) * size_t(net.action_size)],
                            out_.log_std.data(), greedy_, rng_, &actions_[r * width_],
                            choices_ > 0 ? &masks_[r * choices_] : nullptr);
  }
  team_->step(actions_.data(), nullptr, observations_.data(), results_.data(), finals_.data());
  std::copy_n(observations_.begin(), obs_, observation);
  return results_[0];
}

void team_playback_env::action_mask(std::uint8_t* legal) const {
  if (choices_ == 0) return;
  std::vector<std::uint8_t> all(rows_ * choices_);
  team_->action_masks(all.data());
  std::copy_n(all.begin(), choices_, legal);
}

void team_playback_env::render(envs::rgb_frame& frame) const {
  if (!team_->render(0, frame)) throw std::runtime_error(spec().id + " cannot render itself");
}

}  // namespace troupe::app
