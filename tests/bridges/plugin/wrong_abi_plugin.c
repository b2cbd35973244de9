/* A plugin built for a future ABI: Troupe must refuse it, naming the file and
   both versions, before it calls anything in the table. */
#include <troupe/env_plugin.h>

TROUPE_ENV_PLUGIN_EXPORT const troupe_env_plugin* troupe_env_plugin_entry(void) {
  static const troupe_env_plugin plugin = {TROUPE_ENV_PLUGIN_ABI_VERSION + 1, "from the future"};
  return &plugin;
}
