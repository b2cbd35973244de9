#include "bridges/python/shared_region.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include <nlohmann/json.hpp>

namespace troupe::bridges::python {

namespace {
constexpr std::size_t line = 64;
std::size_t round_up(std::size_t bytes) { return (bytes + line - 1) / line * line; }
}  // namespace

region_layout region_layout::for_envs(int count, int obs_size, int action_size, int mask_size) {
  region_layout l;
  const std::size_t n = std::size_t(count);
  std::size_t at = 0;
  auto take = [&at](std::size_t bytes) {
    const std::size_t offset = at;
    at += round_up(bytes);
    return offset;
  };
  l.actions = take(n * std::size_t(action_size) * sizeof(float));
  l.seeds = take(n * sizeof(std::uint64_t));
  l.observations = take(n * std::size_t(obs_size) * sizeof(float));
  l.final_observations = take(n * std::size_t(obs_size) * sizeof(float));
  l.rewards = take(n * sizeof(double));
  l.terminated = take(n);
  l.truncated = take(n);
  l.action_masks = take(n * std::size_t(mask_size));
  l.size = at;
  return l;
}

std::string region_layout::json() const {
  return nlohmann::json{{"actions", actions},
                        {"seeds", seeds},
                        {"observations", observations},
                        {"final_observations", final_observations},
                        {"rewards", rewards},
                        {"terminated", terminated},
                        {"truncated", truncated},
                        {"action_masks", action_masks},
                        {"size", size}}
      .dump();
}

shared_region::shared_region() : fd_(memfd_create("troupe_env_host", MFD_CLOEXEC)) {
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
}

shared_region::~shared_region() {
  if (base_) munmap(base_, layout_.size);
  if (fd_ >= 0) close(fd_);
}

void shared_region::map(const region_layout& layout) {
  if (ftruncate(fd_, off_t(layout.size)) != 0)
    throw std::system_error(errno, std::generic_category(), "ftruncate of the shared memory");
  void* base = mmap(nullptr, layout.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (base == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
  if (base_) munmap(base_, layout_.size);
  base_ = base;
  layout_ = layout;
}

}  // namespace troupe::bridges::python
