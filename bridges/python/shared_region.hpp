#pragma once
// The shared memory between Troupe and one Python environment host: a
// memfd the host inherits, laid out as arrays for `count` environments, so
// that a step copies no more than the caller's own buffers need.
#include <cstddef>
#include <cstdint>
#include <string>

namespace troupe::bridges::python {

// Byte offsets of each array; every array starts on a cache line.
struct region_layout {
  std::size_t actions = 0;             // count x action_size float32
  std::size_t seeds = 0;               // count uint64: reset seeds
  std::size_t observations = 0;        // count x obs_size float32
  std::size_t final_observations = 0;  // count x obs_size float32: where episodes ended
  std::size_t rewards = 0;             // count float64
  std::size_t terminated = 0;          // count uint8
  std::size_t truncated = 0;           // count uint8
  std::size_t action_masks = 0;        // count x mask_size uint8 (none when mask_size is 0)
  std::size_t size = 0;                // bytes in all

  static region_layout for_envs(int count, int obs_size, int action_size, int mask_size = 0);
  std::string json() const;  // what the host's "map" command reads
};

class shared_region {
 public:
  shared_region();  // an empty memfd; throws std::system_error
  ~shared_region();
  shared_region(const shared_region&) = delete;
  shared_region& operator=(const shared_region&) = delete;

  int fd() const { return fd_; }
  // Sizes the memfd and maps it.
  void map(const region_layout& layout);
  const region_layout& layout() const { return layout_; }

  float* actions() { return at<float>(layout_.actions); }
  std::uint64_t* seeds() { return at<std::uint64_t>(layout_.seeds); }
  const float* observations() { return at<float>(layout_.observations); }
  const float* final_observations() { return at<float>(layout_.final_observations); }
  const double* rewards() { return at<double>(layout_.rewards); }
  const std::uint8_t* terminated() { return at<std::uint8_t>(layout_.terminated); }
  const std::uint8_t* truncated() { return at<std::uint8_t>(layout_.truncated); }
  const std::uint8_t* action_masks() { return at<std::uint8_t>(layout_.action_masks); }

 private:
  template <class T>
  T* at(std::size_t offset) {
    return reinterpret_cast<T*>(static_cast<char*>(base_) + offset);
  }
  int fd_ = -1;
  void* base_ = nullptr;
  region_layout layout_;
};

}  // namespace troupe::bridges::python
