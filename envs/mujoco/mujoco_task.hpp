#pragma once
// What every MuJoCo task shares, as Gymnasium 0.29.1's MujocoEnv does it:
// one shared read-only model and an mjData of its own, `frame_skip` physics
// steps per action (mj_step with the action as ctrl, then, for a task that
// reads cfrc_ext, mj_rnePostConstraint as v4 calls it), resets
// through mj_resetData and set_state (qpos, qvel, then mj_forward), the
// action space from the actuators' control ranges and the episode limit as
// truncation. A task is only v4's own part: its reset noise, its step's
// reward and termination, its observation.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "envs/env.hpp"
#include "envs/render.hpp"

namespace troupe::envs::mujoco {

// How render() projects the geoms: seen from the side (x right, z up) or
// from above (x right, y up), centred on the first body or on the origin.
struct projection {
  bool top = false;
  bool follow = true;
  double pixels_per_metre = 100;
  double centre_height = 0;  // metres at the frame's centre (side view)
  int width = 640, height = 360;
};

class mujoco_task : public env, public renderable {
 public:
  ~mujoco_task() override;

  const env_spec& spec() const final { return spec_; }
  void reset(std::uint64_t seed, float* observation) final;
  step_result step(const float* action, float* observation) final;
  void render(rgb_frame& frame) const override;

  const mjModel& model() const { return *model_; }
  const mjData& data() const { return *d_; }
  int frame_skip() const { return frame_skip_; }
  double dt() const { return model_->opt.timestep * frame_skip_; }
  // v4's set_state: these positions and velocities, then mj_forward.
  void set_state(const std::vector<double>& qpos, const std::vector<double>& qvel);

 protected:
  mujoco_task(std::string id, std::shared_ptr<const mjModel> model, int frame_skip, int observation_size,
              int max_episode_steps, projection view);

  // v4's reset_model: draws the episode's start from `rng` and calls set_state.
  virtual void reset_model(std::mt19937_64& rng) = 0;
  // v4's step for `action` (nu values): calls simulate and returns the
  // reward and whether the episode terminated.
  virtual step_result advance(const double* action) = 0;
  // v4's _get_obs into `out` (spec().observation's size).
  virtual void observe(double* out) const = 0;

  // v4's do_simulation: ctrl = action, frame_skip mj_steps, mj_rnePostConstraint.
  void simulate(const double* action);
  // init_qpos / init_qvel (the model's qpos0, zero velocities) plus noise,
  // as v4 draws it: uniform in [-scale, scale], or scale x standard normal.
  std::vector<double> init_qpos_plus_uniform(std::mt19937_64& rng, double scale) const;
  std::vector<double> init_qvel_plus_uniform(std::mt19937_64& rng, double scale) const;
  std::vector<double> init_qvel_plus_normal(std::mt19937_64& rng, double scale) const;
  // The sum of squared actions, v4's control cost before its weight.
  double squared_norm(const double* action) const;

  const mjModel* m_;
  mjData* d_;
  // v4 calls mj_rnePostConstraint after every step; it only computes cacc,
  // cfrc_int and cfrc_ext, which nothing else reads, so a task that does
  // not observe or reward them (all but Humanoid, and Ant with contact
  // forces) gives the same observations and rewards without it.
  bool reads_constraint_forces_ = false;

 private:
  env_spec spec_;
  std::shared_ptr<const mjModel> model_;
  int frame_skip_;
  projection view_;
  int steps_ = 0;
  std::mt19937_64 rng_;
  std::vector<double> action_, obs_;
};

}  // namespace troupe::envs::mujoco
