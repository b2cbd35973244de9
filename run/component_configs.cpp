#include "run/component_configs.hpp"

#include <stdexcept>

namespace troupe::run {

model::net_spec net_spec_for(const run_config& config, const envs::env_spec& env) {
  const bool continuous = env.action.type == envs::space::kind::box;
  model::net_spec net = model::make_net_spec(config.model, env.observation.shape, continuous,
                                             continuous ? env.action.flat_size() : env.action.choice_count());
  if (env.action.type == envs::space::kind::multi_discrete) net.action_heads = env.action.nvec;
  net.normalize = config.normalize;
  if (net.kind == "cnn" && net.obs_shape.size() != 3)
    throw std::invalid_argument("model.kind: cnn needs image-like (H x W x C) observations, but " +
                                config.env.id + " has " + env.observation.describe());
  return net;
}

algo::learner_config learner_config_for(const run_config& config, std::uint64_t seed) {
  return {config.algo, config.normalize, config.run.stop.env_steps, seed};
}

}  // namespace troupe::run
