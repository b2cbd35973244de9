#pragma once
// What v4's six locomotion tasks share (HalfCheetah, Hopper, Walker2d, Ant,
// Humanoid, Swimmer): a reward for the forward speed along x less a control
// cost and, for those with a health rule, a healthy reward and termination;
// an observation of the positions (less the leading ones under
// exclude_current_positions_from_observation) and velocities; reset noise
// at reset_noise_scale. A task says only how it differs: where its x is
// measured, its health rule, what else it observes or costs.
#include <memory>

#include "envs/mujoco/mujoco_task.hpp"
#include "envs/mujoco/task_options.hpp"

namespace troupe::envs::mujoco {

struct forward_shape {
  const char* id;
  int frame_skip;
  int hidden_positions;        // leading qpos left out of the observation (x, or x and y)
  bool clip_velocities;        // qvel clipped to +-10 in the observation
  bool normal_velocity_noise;  // qvel starts at scale x standard normal (else uniform)
  bool has_health;             // takes healthy_reward and terminate_when_unhealthy
  bool has_forward_weight;     // takes forward_reward_weight (Ant-v4 does not: weight 1)
  projection view;
};

class forward_task : public mujoco_task {
 protected:
  // `extra_observations`: how many values observe_more writes.
  forward_task(const forward_shape& shape, const task_options& o, std::shared_ptr<const mjModel> model,
               int extra_observations = 0);

  // The x whose speed is rewarded: qpos[0] unless the task says otherwise.
  virtual double x_position() const { return d_->qpos[0]; }
  virtual bool healthy() const { return true; }
  // Costs beyond the control cost (Ant's contact cost).
  virtual double extra_cost() const { return 0.0; }
  // Observed after the positions and velocities.
  virtual void observe_more(double*) const {}

 private:
  void reset_model(std::mt19937_64& rng) final;
  step_result advance(const double* action) final;
  void observe(double* out) const final;

  forward_shape shape_;
  double forward_weight_, ctrl_weight_, healthy_reward_ = 0.0, noise_;
  bool terminate_when_unhealthy_ = false;
  int first_position_;
};

}  // namespace troupe::envs::mujoco
