#include "model/critical_section.hpp"

#include <map>
#include <mutex>

namespace troupe::model {

namespace {

struct resource_claims {
  std::mutex mutex;
  std::multimap<const void*, std::pair<const critical_section*, claim>> by_resource;
};

resource_claims& claims() {
  static resource_claims instance;
  return instance;
}

}  // namespace

critical_section::critical_section(std::string name, std::vector<const void*> resources,
                                   claim mode)
    : name_(std::move(name)), resources_(std::move(resources)), mode_(mode) {
  auto& registry = claims();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const void* r : resources_) {
    auto [first, last] = registry.by_resource.equal_range(r);
    for (auto it = first; it != last; ++it)
      if (mode_ == claim::exclusive || it->second.second == claim::exclusive)
        throw std::logic_error("critical sections '" + it->second.first->name() + "' and '" +
                               name_ +
                               "' both claim the same resource; only claims marked "
                               "shared (read-only) may overlap");
  }
  for (const void* r : resources_) registry.by_resource.emplace(r, std::make_pair(this, mode_));
}

critical_section::~critical_section() {
  auto& registry = claims();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (auto it = registry.by_resource.begin(); it != registry.by_resource.end();)
    it = it->second.first == this ? registry.by_resource.erase(it) : std::next(it);
}

}  // namespace troupe::model
