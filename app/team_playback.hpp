#pragma once
// A team's game (env.seat all) as one environment for a window (troupe
// play): the team's first agent is the caller's to move, so the panel shows
// the policy's move there; its teammates are moved by the same trained
// policy, and the agents outside the team by the vector's opponents
// (env.opponent), as in training against them.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "envs/env.hpp"
#include "envs/env_vector.hpp"
#include "envs/render.hpp"
#include "model/shared_model.hpp"

namespace troupe::app {

class team_playback_env final : public envs::env, public envs::renderable {
 public:
  // `team`: one game's team, a row an agent. Throws std::invalid_argument
  // for a recurrent model (its teammates' states are not carried).
  team_playback_env(std::unique_ptr<envs::env_vector> team, std::shared_ptr<model::shared_model> model, bool greedy,
                    std::uint64_t seed);

  const envs::env_spec& spec() const override { return team_->spec(); }
  void reset(std::uint64_t seed, float* observation) override;
  envs::step_result step(const float* action, float* observation) override;
  void action_mask(std::uint8_t* legal) const override;
  void render(envs::rgb_frame& frame) const override;
  bool can_render() const override { return team_->can_render(); }

 private:
  std::unique_ptr<envs::env_vector> team_;
  std::shared_ptr<model::shared_model> model_;
  bool greedy_;
  std::mt19937_64 rng_;
  size_t rows_, obs_, width_, choices_;
  std::vector<float> observations_, actions_, finals_;
  std::vector<std::uint8_t> masks_;
  std::vector<envs::step_result> results_;
  model::prediction out_;
};

}  // namespace troupe::app
