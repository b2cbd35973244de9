#pragma once
// A plugin's shared library (include/troupe/env_plugin.h), loaded once per
// process with dlopen and kept until exit: its environments may live on any
// agent's thread, and unloading code they might still run buys nothing.
#include <string>

#include "troupe/env_plugin.h"

namespace troupe::bridges::plugin {

// The function table of the plugin at `path`, loaded on first use. Throws
// env_key_error naming the file and the reason: it cannot be loaded, it exports
// no troupe_env_plugin_entry, it was built for another ABI version (both
// versions named), or a required function is missing.
const troupe_env_plugin& load_plugin(const std::string& path);

}  // namespace troupe::bridges::plugin
