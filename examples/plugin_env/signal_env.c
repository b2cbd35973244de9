/*
 * A Troupe environment plugin in plain C: "Signal". Each step shows which
 * of two lights is on (the observation is one-hot, two floats); pressing the
 * matching button (action 0 or 1) earns 1, the other 0, and the light changes
 * at random. An episode lasts `length` steps (an option, 10 by default), so
 * a perfect policy scores `length`. Trivially learnable: it shows the plugin
 * interface, not a challenge. It draws itself too (both lights, the lit one
 * yellow), so `troupe view` and `troupe train --view` can show it.
 *
 * Build it against an installed Troupe (see CMakeLists.txt beside it), then
 *   troupe train examples/plugin_env/signal.yaml --set env.id=plugin:PATH/libsignal_env.so
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <troupe/env_plugin.h>

enum { cell = 40, frame_width = 2 * cell, frame_height = cell };

struct troupe_env {
  int length;      /* steps per episode */
  int t;           /* steps so far in this episode */
  int lit;         /* which light is on: 0 or 1 */
  uint64_t rng;    /* splitmix64 state */
  char error[256];
  uint8_t frame[frame_width * frame_height * 3];
};

static const double low[2] = {0.0, 0.0};
static const double high[2] = {1.0, 1.0};

static uint64_t next_random(struct troupe_env* env) {
  uint64_t z = (env->rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void observe(const struct troupe_env* env, float* observation) {
  observation[0] = env->lit == 0 ? 1.0f : 0.0f;
  observation[1] = env->lit == 1 ? 1.0f : 0.0f;
}

/* Options: a JSON object; this plugin reads one integer, "length". */
static troupe_env* signal_create(const char* options_json, char* error, size_t error_capacity) {
  int length = 10;
  const char* key = options_json ? strstr(options_json, "\"length\"") : NULL;
  if (key) {
    const char* colon = strchr(key, ':');
    if (!colon || sscanf(colon + 1, "%d", &length) != 1 || length < 1) {
      snprintf(error, error_capacity, "option \"length\" must be a positive integer");
      return NULL;
    }
  }
  struct troupe_env* env = calloc(1, sizeof *env);
  if (!env) {
    snprintf(error, error_capacity, "out of memory");
    return NULL;
  }
  env->length = length;
  return env;
}

static void signal_destroy(troupe_env* env) { free(env); }

static void signal_observation_space(const troupe_env* env, troupe_space* out) {
  (void)env;
  memset(out, 0, sizeof *out);
  out->kind = TROUPE_SPACE_BOX;
  out->rank = 1;
  out->shape[0] = 2;
  out->low = low;
  out->high = high;
}

static void signal_action_space(const troupe_env* env, troupe_space* out) {
  (void)env;
  memset(out, 0, sizeof *out);
  out->kind = TROUPE_SPACE_DISCRETE;
  out->n = 2;
}

static int32_t signal_max_episode_steps(const troupe_env* env) { return env->length; }

static int signal_reset(troupe_env* env, uint64_t seed, float* observation) {
  env->rng = seed;
  env->t = 0;
  env->lit = (int)(next_random(env) & 1);
  observe(env, observation);
  return 0;
}

static int signal_step(troupe_env* env, const float* action, float* observation, double* reward,
                       int* terminated, int* truncated) {
  const int pressed = (int)action[0];
  if (pressed != 0 && pressed != 1) {
    snprintf(env->error, sizeof env->error, "action %g is neither 0 nor 1", (double)action[0]);
    return 1;
  }
  *reward = pressed == env->lit ? 1.0 : 0.0;
  env->t += 1;
  env->lit = (int)(next_random(env) & 1);
  *terminated = 0;
  *truncated = env->t >= env->length;
  observe(env, observation);
  return 0;
}

static const char* signal_last_error(const troupe_env* env) { return env->error; }

static const uint8_t* signal_render(troupe_env* env, int32_t* width, int32_t* height) {
  for (int y = 0; y < frame_height; ++y)
    for (int x = 0; x < frame_width; ++x) {
      uint8_t* p = env->frame + (y * frame_width + x) * 3;
      const int light = x / cell;
      const int dx = x % cell - cell / 2, dy = y - cell / 2;
      const int inside = dx * dx + dy * dy <= (cell / 2 - 4) * (cell / 2 - 4);
      const uint8_t on = light == env->lit;
      p[0] = inside ? (on ? 255 : 60) : 20;
      p[1] = inside ? (on ? 220 : 60) : 20;
      p[2] = inside ? (on ? 0 : 60) : 20;
    }
  *width = frame_width;
  *height = frame_height;
  return env->frame;
}

TROUPE_ENV_PLUGIN_EXPORT const troupe_env_plugin* troupe_env_plugin_entry(void) {
  static const troupe_env_plugin plugin = {
      TROUPE_ENV_PLUGIN_ABI_VERSION,
      "signal",
      signal_create,
      signal_destroy,
      signal_observation_space,
      signal_action_space,
      signal_max_episode_steps,
      signal_reset,
      signal_step,
      signal_last_error,
      signal_render,
  };
  return &plugin;
}
