#include "envs/action_labels.hpp"

#include "envs/env_vector.hpp"
#include "envs/minatar/minatar_env.hpp"

namespace troupe::envs {

std::vector<std::string> action_labels(const env& e) {
  if (const auto* v = dynamic_cast<const vector_as_env*>(&e)) return v->action_labels();
  if (const auto* m = dynamic_cast<const minatar_env*>(&e)) {
    // MinAtar's full action set, indexed by its action numbers.
    static const char* names[] = {"noop", "left", "up", "right", "down", "fire"};
    std::vector<std::string> out;
    for (int a : m->action_set()) out.push_back(names[a]);
    return out;
  }
  const std::string& id = e.spec().id;
  if (id == "CartPole-v1") return {"left", "right"};
  if (id == "MountainCar-v0") return {"left", "none", "right"};
  if (id == "Acrobot-v1") return {"-1", "0", "+1"};
  return {};
}

}  // namespace troupe::envs
