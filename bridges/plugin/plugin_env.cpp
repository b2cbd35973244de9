#include "bridges/plugin/plugin_env.hpp"

#include <stdexcept>
#include <vector>

#include "bridges/plugin/plugin_library.hpp"
#include "envs/env_error.hpp"
#include "envs/env_id.hpp"

namespace troupe::bridges::plugin {

using envs::env_key_error;
using envs::native_env_vector;
using envs::space;

namespace {

space space_of(const troupe_space& s, const std::string& where) {
  if (s.kind == TROUPE_SPACE_DISCRETE) {
    if (s.n < 1) throw env_key_error("env.id", where + ": a discrete space with n = " + std::to_string(s.n));
    return space::discrete_space(s.n);
  }
  if (s.kind != TROUPE_SPACE_BOX)
    throw env_key_error("env.id", where + ": unknown space kind " + std::to_string(s.kind));
  if (s.rank < 1 || s.rank > TROUPE_SPACE_MAX_RANK)
    throw env_key_error("env.id", where + ": a box of rank " + std::to_string(s.rank));
  std::vector<int> shape(s.shape, s.shape + s.rank);
  space out = space::box_space(shape, {}, {});
  const int size = out.flat_size();
  if (size < 1) throw env_key_error("env.id", where + ": a box with no elements");
  if (!s.low || !s.high) throw env_key_error("env.id", where + ": a box without bounds");
  out.low.assign(s.low, s.low + size);
  out.high.assign(s.high, s.high + size);
  return out;
}

}  // namespace

plugin_env::plugin_env(const troupe_env_plugin& plugin, const std::string& id,
                       const std::string& options_json)
    : plugin_(plugin) {
  char error[1024] = "";
  handle_ = plugin_.create(options_json.c_str(), error, sizeof error);
  if (!handle_)
    throw env_key_error("env.id", "'" + id + "': create failed: " + (error[0] ? error : "no reason given"));
  try {
    troupe_space observation{}, action{};
    plugin_.observation_space(handle_, &observation);
    plugin_.action_space(handle_, &action);
    spec_.id = id;
    spec_.observation = space_of(observation, "'" + id + "': observation space");
    if (spec_.observation.type != space::kind::box)
      throw env_key_error("env.id", "'" + id + "': the observation space must be a box");
    spec_.action = space_of(action, "'" + id + "': action space");
    spec_.max_episode_steps = plugin_.max_episode_steps(handle_);
  } catch (...) {
    plugin_.destroy(handle_);
    throw;
  }
}

plugin_env::~plugin_env() { plugin_.destroy(handle_); }

void plugin_env::fail(const char* call) const {
  const char* why = plugin_.last_error(handle_);
  throw std::runtime_error(spec_.id + ": " + call + " failed: " + (why && *why ? why : "no reason given"));
}

void plugin_env::reset(std::uint64_t seed, float* observation) {
  if (plugin_.reset(handle_, seed, observation) != 0) fail("reset");
}

step_result plugin_env::step(const float* action, float* observation) {
  double reward = 0.0;
  int terminated = 0, truncated = 0;
  if (plugin_.step(handle_, action, observation, &reward, &terminated, &truncated) != 0)
    fail("step");
  return {reward, terminated != 0, truncated != 0};
}

void plugin_env::render(rgb_frame& frame) const {
  if (!plugin_.render) throw std::runtime_error(spec_.id + " cannot render itself");
  std::int32_t width = 0, height = 0;
  const std::uint8_t* pixels = plugin_.render(handle_, &width, &height);
  if (!pixels || width <= 0 || height <= 0) fail("render");
  frame.width = width;
  frame.height = height;
  frame.pixels.assign(pixels, pixels + size_t(width) * size_t(height) * 3);
}

std::unique_ptr<env_vector> make_plugin_vector(const env_config& config, int count) {
  const troupe_env_plugin& plugin = load_plugin(config.id.target());
  std::vector<std::unique_ptr<env>> envs;
  for (int i = 0; i < count; ++i)
    envs.push_back(std::make_unique<plugin_env>(plugin, config.id.text(), config.kwargs));
  return std::make_unique<native_env_vector>(std::move(envs));
}

}  // namespace troupe::bridges::plugin
