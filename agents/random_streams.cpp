#include "agents/random_streams.hpp"

#include <random>

namespace troupe::agents {

std::uint64_t stream_seed(std::uint64_t run_seed, std::uint64_t stream, std::uint64_t segment) {
  std::seed_seq seq{run_seed, stream, segment};
  std::uint64_t out[1];
  seq.generate(reinterpret_cast<std::uint32_t*>(out), reinterpret_cast<std::uint32_t*>(out) + 2);
  return out[0];
}

}  // namespace troupe::agents
