#include "model/gpu_monitor.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace troupe::model {

namespace {

// One reading of nvidia-smi's utilization.gpu for GPU `index`, or -1.
double read_utilisation(const std::string& index) {
  const std::string command = "nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -i " +
                              index + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return -1;
  char line[64] = {0};
  const bool got = std::fgets(line, sizeof line, pipe) != nullptr;
  const int status = pclose(pipe);
  if (!got || status != 0) return -1;
  char* end = nullptr;
  const double value = std::strtod(line, &end);
  return end == line ? -1 : value;
}

}  // namespace

gpu_monitor::gpu_monitor(const std::string& device) {
  if (device.rfind("cuda:", 0) != 0) return;
  const std::string index = device.substr(5);
  running_ = true;
  sampler_ = std::thread([this, index] {
    while (running_.load()) {
      const double u = read_utilisation(index);
      if (u >= 0) {
        sum_ += u;
        ++samples_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
}

std::optional<double> gpu_monitor::stop() {
  running_ = false;
  if (sampler_.joinable()) sampler_.join();  // sum_ and samples_ are ours from here
  if (samples_ == 0) return std::nullopt;
  return sum_ / samples_;
}

gpu_monitor::~gpu_monitor() { stop(); }

}  // namespace troupe::model
