#pragma once
// GPU utilisation while a benchmark runs, sampled from nvidia-smi on a
// thread of its own (about every 100 ms). No CUDA, no LibTorch: where there
// is no nvidia-smi, or the device is the CPU, nothing is measured.
#include <atomic>
#include <optional>
#include <string>
#include <thread>

namespace troupe::model {

class gpu_monitor {
 public:
  // `device`: "cuda:N" starts sampling GPU N; anything else samples nothing.
  explicit gpu_monitor(const std::string& device);
  ~gpu_monitor();
  gpu_monitor(const gpu_monitor&) = delete;
  gpu_monitor& operator=(const gpu_monitor&) = delete;

  // Stops sampling; the mean utilisation in percent over the samples, or
  // nothing when none was taken.
  std::optional<double> stop();

 private:
  std::atomic<bool> running_{false};
  std::thread sampler_;
  double sum_ = 0;
  int samples_ = 0;
};

}  // namespace troupe::model
