#include "envs/mujoco/mujoco_task.hpp"

#include <limits>
#include <stdexcept>

namespace troupe::envs::mujoco {

namespace {
space action_space(const mjModel& m) {
  std::vector<double> low(size_t(m.nu)), high(size_t(m.nu));
  for (int i = 0; i < m.nu; ++i) {
    // v4 reads the bounds as float32.
    low[size_t(i)] = static_cast<float>(m.actuator_ctrlrange[2 * i]);
    high[size_t(i)] = static_cast<float>(m.actuator_ctrlrange[2 * i + 1]);
  }
  return space::box_space({m.nu}, low, high);
}

space observation_space(int size) {
  const double inf = std::numeric_limits<double>::infinity();
  return space::box_space({size}, std::vector<double>(size_t(size), -inf),
                          std::vector<double>(size_t(size), inf));
}
}  // namespace

mujoco_task::mujoco_task(std::string id, std::shared_ptr<const mjModel> model, int frame_skip,
                         int observation_size, int max_episode_steps, projection view)
    : m_(model.get()),
      d_(mj_makeData(model.get())),
      spec_{std::move(id), observation_space(observation_size), action_space(*model), max_episode_steps},
      model_(std::move(model)),
      frame_skip_(frame_skip),
      view_(view),
      action_(size_t(m_->nu)),
      obs_(size_t(observation_size)) {
  if (!d_) throw std::runtime_error("MuJoCo could not allocate the data of " + spec_.id);
}

mujoco_task::~mujoco_task() { mj_deleteData(d_); }

void mujoco_task::reset(std::uint64_t seed, float* observation) {
  rng_.seed(seed);
  mj_resetData(m_, d_);
  reset_model(rng_);
  steps_ = 0;
  observe(obs_.data());
  for (size_t i = 0; i < obs_.size(); ++i) observation[i] = static_cast<float>(obs_[i]);
}

step_result mujoco_task::step(const float* action, float* observation) {
  for (int i = 0; i < m_->nu; ++i) action_[size_t(i)] = action[i];
  step_result result = advance(action_.data());
  ++steps_;
  result.truncated = !result.terminated && spec_.max_episode_steps > 0 && steps_ >= spec_.max_episode_steps;
  observe(obs_.data());
  for (size_t i = 0; i < obs_.size(); ++i) observation[i] = static_cast<float>(obs_[i]);
  return result;
}

void mujoco_task::set_state(const std::vector<double>& qpos, const std::vector<double>& qvel) {
  if (qpos.size() != size_t(m_->nq) || qvel.size() != size_t(m_->nv))
    throw std::invalid_argument(spec_.id + ": set_state needs " + std::to_string(m_->nq) + " positions and " +
                                std::to_string(m_->nv) + " velocities");
  for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = qpos[size_t(i)];
  for (int i = 0; i < m_->nv; ++i) d_->qvel[i] = qvel[size_t(i)];
  mj_forward(m_, d_);
}

void mujoco_task::simulate(const double* action) {
  for (int i = 0; i < m_->nu; ++i) d_->ctrl[i] = action[i];
  for (int i = 0; i < frame_skip_; ++i) mj_step(m_, d_);
  // MuJoCo computes cacc, cfrc_int and cfrc_ext only on request.
  if (reads_constraint_forces_) mj_rnePostConstraint(m_, d_);
}

std::vector<double> mujoco_task::init_qpos_plus_uniform(std::mt19937_64& rng, double scale) const {
  std::uniform_real_distribution<double> noise(-scale, scale);
  std::vector<double> qpos(size_t(m_->nq));
  for (int i = 0; i < m_->nq; ++i) qpos[size_t(i)] = m_->qpos0[i] + noise(rng);
  return qpos;
}

std::vector<double> mujoco_task::init_qvel_plus_uniform(std::mt19937_64& rng, double scale) const {
  std::uniform_real_distribution<double> noise(-scale, scale);
  std::vector<double> qvel(size_t(m_->nv));
  for (double& v : qvel) v = noise(rng);
  return qvel;
}

std::vector<double> mujoco_task::init_qvel_plus_normal(std::mt19937_64& rng, double scale) const {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> qvel(size_t(m_->nv));
  for (double& v : qvel) v = scale * normal(rng);
  return qvel;
}

double mujoco_task::squared_norm(const double* action) const {
  double sum = 0;
  for (int i = 0; i < m_->nu; ++i) sum += action[i] * action[i];
  return sum;
}

}  // namespace troupe::envs::mujoco
