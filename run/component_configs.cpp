#include "run/component_configs.hpp"

#include <algorithm>

#include "run/config_loader.hpp"

namespace troupe::run {

namespace {

// An image of `dims` (a rank-3 Box) at `offset`, its layout as
// model.image_layout says; `what` names it in a refusal (a convolution needs
// height and width of at least 3).
model::image_input image_of(const run_config& config, const std::vector<int>& dims, int offset, const std::string& what) {
  const std::string& layout = config.model.image_layout;
  const bool channels_first = layout == "chw" || (layout == "auto" && dims[0] <= 4 && dims[2] > 4);
  const model::image_input image{offset, dims, channels_first};
  if (image.height() < 3 || image.width() < 3) {
    const std::string shape = std::to_string(dims[0]) + " x " + std::to_string(dims[1]) + " x " + std::to_string(dims[2]);
    throw config_error(what + " is a " + shape + " image, read as " + (channels_first ? "C x H x W" : "H x W x C") +
                       " (model.image_layout " + layout + "): a 3x3 convolution needs its height and width at least 3" +
                       (layout == "auto" ? "; set model.image_layout to hwc or chw if that is not its layout" : ""));
  }
  return image;
}

// The leaves of a structured observation that a convolution reads
// (model.encoders, by default every image), checked against the leaves.
std::vector<model::image_input> image_inputs_for(const run_config& config, const envs::env_spec& env) {
  const auto& encoders = config.model.encoders;
  std::string keys;
  for (const envs::space_leaf& leaf : env.observation.leaves) keys += (keys.empty() ? "" : ", ") + leaf.key;
  for (const auto& [key, encoder] : encoders) {
    const bool known = std::any_of(env.observation.leaves.begin(), env.observation.leaves.end(),
                                   [&](const envs::space_leaf& leaf) { return leaf.key == key; });
    if (!known)
      throw config_error(
          "model.encoders." + key + ": " + config.env.id.text() + "'s observation " + env.observation.describe() +
          (keys.empty() ? " is not structured: it has no leaves to encode" : " has no leaf '" + key + "' (its leaves: " + keys + ")"));
  }
  std::vector<model::image_input> images;
  for (const envs::space_leaf& leaf : env.observation.leaves) {
    const bool image = leaf.kind == "box" && leaf.shape.size() == 3;
    const auto chosen = encoders.find(leaf.key);
    const bool cnn = chosen == encoders.end() ? image : chosen->second == "cnn";
    if (!cnn) continue;
    if (!image)
      throw config_error("model.encoders." + leaf.key + ": cnn reads an image (a rank-3 Box, H x W x C or C x H x W), but '" +
                                  leaf.key + "' is a " + leaf.kind + " leaf of " + std::to_string(leaf.size) + " values");
    images.push_back(image_of(config, leaf.shape, leaf.offset,
                              "model.encoders." + leaf.key + ": " + config.env.id.text() + "'s observation '" + leaf.key + "'"));
  }
  return images;
}

}  // namespace

model::net_spec net_spec_for(const run_config& config, const envs::env_spec& env) {
  const bool continuous = env.action.type == envs::space::kind::box;
  model::net_spec net =
      model::make_net_spec(config.model, env.observation.shape, continuous, env.action.policy_size());
  if (env.action.type == envs::space::kind::multi_discrete || env.action.type == envs::space::kind::hybrid)
    net.action_heads = env.action.nvec;
  if (env.action.type == envs::space::kind::hybrid) net.gaussian_size = env.action.continuous_size();
  net.normalize = config.normalize;
  net.image_inputs = image_inputs_for(config, env);
  if (net.kind == "cnn" && net.obs_shape.size() != 3 && net.image_inputs.empty())
    throw config_error("model.kind: cnn needs image-like (H x W x C or C x H x W) observations, but " +
                                config.env.id.text() + " has " + env.observation.describe());
  if (net.kind == "cnn" && net.image_inputs.empty())
    net.obs_channels_first =
        image_of(config, net.obs_shape, 0, "model.kind: cnn: " + config.env.id.text() + "'s observation").channels_first;
  return net;
}

algo::learner_config learner_config_for(const run_config& config, const envs::env_spec& env, std::uint64_t seed) {
  const std::int64_t schedule =
      config.algo.lr_schedule_env_steps > 0 ? config.algo.lr_schedule_env_steps : config.run.stop.env_steps;
  algo::learner_config learner{config.algo, config.normalize, schedule, seed};
  if (env.action.type == envs::space::kind::hybrid) {
    learner.action_low = env.action.low;
    learner.action_high = env.action.high;
  }
  return learner;
}

}  // namespace troupe::run
