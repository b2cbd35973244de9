#pragma once
// One environment of a compiled plugin (env.id plugin:PATH.so), called in
// this process through the plugin's C functions: it is C or C++ code, with
// no interpreter lock, so it runs on the agent's thread like a native env.
#include <memory>
#include <string>

#include "envs/env.hpp"
#include "envs/env_config.hpp"
#include "envs/env_vector.hpp"
#include "envs/render.hpp"
#include "troupe/env_plugin.h"

namespace troupe::bridges::plugin {

using envs::env;
using envs::env_config;
using envs::env_spec;
using envs::env_vector;
using envs::renderable;
using envs::rgb_frame;
using envs::step_result;

class plugin_env final : public env, public renderable {
 public:
  // Made by `plugin` with `options_json`; `id` is the env.id it was made for.
  // Throws env_key_error when the plugin refuses or describes unusable spaces.
  plugin_env(const troupe_env_plugin& plugin, const std::string& id,
             const std::string& options_json);
  ~plugin_env() override;
  plugin_env(const plugin_env&) = delete;
  plugin_env& operator=(const plugin_env&) = delete;

  const env_spec& spec() const override { return spec_; }
  void reset(std::uint64_t seed, float* observation) override;
  step_result step(const float* action, float* observation) override;
  void render(rgb_frame& frame) const override;
  bool can_render() const override { return plugin_.render != nullptr; }

 private:
  [[noreturn]] void fail(const char* call) const;
  const troupe_env_plugin& plugin_;
  troupe_env* handle_ = nullptr;
  env_spec spec_;
};

// `count` environments of the plugin `config.id` names, with config.kwargs
// as their options.
std::unique_ptr<env_vector> make_plugin_vector(const env_config& config, int count);

}  // namespace troupe::bridges::plugin
