#include "bridges/plugin/plugin_library.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>

#include "envs/env_error.hpp"

namespace troupe::bridges::plugin {

using envs::env_key_error;

namespace {

const troupe_env_plugin& open_plugin(const std::string& path) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw env_key_error("env.id", "plugin " + path + ": cannot load it: " + dlerror());
  const auto entry =
      reinterpret_cast<troupe_env_plugin_entry_fn>(dlsym(library, TROUPE_ENV_PLUGIN_ENTRY_NAME));
  if (!entry)
    throw env_key_error("env.id", "plugin " + path + ": it exports no " TROUPE_ENV_PLUGIN_ENTRY_NAME
                    " (see include/troupe/env_plugin.h)");
  const troupe_env_plugin* table = entry();
  if (!table) throw env_key_error("env.id", "plugin " + path + ": " TROUPE_ENV_PLUGIN_ENTRY_NAME " returned NULL");
  if (table->abi_version != TROUPE_ENV_PLUGIN_ABI_VERSION)
    throw env_key_error("env.id", "plugin " + path + ": plugin ABI version " +
                    std::to_string(table->abi_version) + ", this troupe speaks " +
                    std::to_string(TROUPE_ENV_PLUGIN_ABI_VERSION) +
                    " (rebuild it against this troupe's env_plugin.h)");
  const char* missing = !table->create              ? "create"
                        : !table->destroy           ? "destroy"
                        : !table->observation_space ? "observation_space"
                        : !table->action_space      ? "action_space"
                        : !table->max_episode_steps ? "max_episode_steps"
                        : !table->reset             ? "reset"
                        : !table->step              ? "step"
                        : !table->last_error        ? "last_error"
                                                    : nullptr;
  if (missing) throw env_key_error("env.id", "plugin " + path + ": its table has no '" + missing + "' function");
  return *table;
}

}  // namespace

const troupe_env_plugin& load_plugin(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, const troupe_env_plugin*> loaded;
  // An absolute path: dlopen would search the library path for a bare name.
  std::error_code ec;
  std::string file = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec).string();
  if (ec) file = path;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = loaded.find(file);
  if (found != loaded.end()) return *found->second;
  const troupe_env_plugin& table = open_plugin(file);
  loaded[file] = &table;
  return table;
}

}  // namespace troupe::bridges::plugin
