/*
 * troupe/env_plugin.h: the C interface of a Troupe environment plugin.
 *
 * A plugin is a shared library that exports one function,
 * troupe_env_plugin_entry, returning a table of function pointers. Troupe
 * loads it with dlopen for `env.id: plugin:PATH.so` and makes one environment
 * per create() call, each with the run's `env.kwargs` as a JSON object
 * string. Troupe calls an environment from one thread at a time (an agent's),
 * but different environments of one plugin from several threads at once:
 * keep all state in the environment, none in globals.
 *
 * Pure C (C99), so a plugin may be written in C, C++ or anything that can
 * export a C function. Compatibility: TROUPE_ENV_PLUGIN_ABI_VERSION changes
 * whenever this header changes incompatibly; Troupe refuses a plugin built
 * with another version (naming the file and both versions). abi_version is
 * the table's first member in every version, so that check is always safe.
 *
 * Conventions:
 *   - Observations are float32, row-major, as many as the observation space's
 *     flat size (the product of its shape).
 *   - An action is float32 too: a discrete action is its index (0 .. n-1)
 *     as a float; a box action has the space's flat size of values, already
 *     clipped to its bounds.
 *   - Functions returning int return 0 on success; otherwise last_error()
 *     says why, and Troupe restarts the agent whose environment failed.
 *   - The environment applies its own time limit: step() sets *truncated
 *     when it cuts an episode. max_episode_steps() only informs.
 */
#ifndef TROUPE_ENV_PLUGIN_H
#define TROUPE_ENV_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define TROUPE_ENV_PLUGIN_ABI_VERSION 1
#define TROUPE_SPACE_MAX_RANK 8

#ifdef __cplusplus
extern "C" {
#endif

enum troupe_space_kind { TROUPE_SPACE_DISCRETE = 0, TROUPE_SPACE_BOX = 1 };

typedef struct troupe_space {
  int32_t kind; /* TROUPE_SPACE_DISCRETE or TROUPE_SPACE_BOX */
  int32_t n;    /* discrete: the number of actions */
  int32_t rank; /* box: the number of dimensions in shape (1 .. TROUPE_SPACE_MAX_RANK) */
  int32_t shape[TROUPE_SPACE_MAX_RANK];
  /* box: the bounds, flat size values each (may be +-INFINITY); owned by
     the environment and valid until it is destroyed. */
  const double* low;
  const double* high;
} troupe_space;

/* An environment: the plugin's own type, opaque to Troupe. */
typedef struct troupe_env troupe_env;

typedef struct troupe_env_plugin {
  /* TROUPE_ENV_PLUGIN_ABI_VERSION as the plugin was compiled. */
  uint32_t abi_version;
  /* A short name for messages. */
  const char* name;

  /* A new environment configured by `options_json` (a JSON object, "{}"
     when env.kwargs is not set). On failure: NULL, with the reason written
     into `error` (at most error_capacity bytes, NUL included). */
  troupe_env* (*create)(const char* options_json, char* error, size_t error_capacity);
  void (*destroy)(troupe_env* env);

  /* The spaces. The observation space must be a box. */
  void (*observation_space)(const troupe_env* env, troupe_space* out);
  void (*action_space)(const troupe_env* env, troupe_space* out);
  /* The episode limit step() applies, 0 when there is none. */
  int32_t (*max_episode_steps)(const troupe_env* env);

  /* Starts an episode from `seed` and writes its first observation. */
  int (*reset)(troupe_env* env, uint64_t seed, float* observation);
  /* One step with `action`: the next observation, the reward, and whether the
     episode terminated (a terminal state) or was truncated (cut short). */
  int (*step)(troupe_env* env, const float* action, float* observation, double* reward,
              int* terminated, int* truncated);
  /* Why the last call on `env` failed. */
  const char* (*last_error)(const troupe_env* env);

  /* Optional (NULL when the environment cannot draw itself): the current
     state as width x height RGB pixels, row-major, 3 bytes each, in a
     buffer the environment owns until its next call. NULL on failure. */
  const uint8_t* (*render)(troupe_env* env, int32_t* width, int32_t* height);
} troupe_env_plugin;

/* The one symbol a plugin exports; Troupe looks it up by this name. */
#define TROUPE_ENV_PLUGIN_ENTRY_NAME "troupe_env_plugin_entry"
typedef const troupe_env_plugin* (*troupe_env_plugin_entry_fn)(void);

#if defined(__GNUC__)
#define TROUPE_ENV_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define TROUPE_ENV_PLUGIN_EXPORT
#endif

#ifdef __cplusplus
}
#endif

#endif /* TROUPE_ENV_PLUGIN_H */
