#include "model/device_transfer.hpp"

#include <array>
#include <stdexcept>

#include "model/compute_runtime.hpp"

#ifdef TROUPE_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <optional>
#endif

namespace troupe::model {

torch::Device parse_device(const std::string& name) {
  if (const std::string problem = device_problem(name); !problem.empty())
    throw std::invalid_argument("device: " + problem);
  if (name == "cpu") return torch::kCPU;
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(std::stoi(name.substr(5))));
}

#ifdef TROUPE_CUDA

namespace {

// Per thread (a model-owner's): two pinned buffers used in turn, so the host
// fills one while the copy out of the other may still run, and a copy stream.
struct staging {
  int device = -1;
  std::array<torch::Tensor, 2> pinned;
  std::array<at::cuda::CUDAEvent, 2> copied;  // the last copy out of each buffer
  int next = 0;
  std::optional<c10::cuda::CUDAStream> stream;
};

}  // namespace

torch::Tensor host_to_device(const torch::Tensor& host, torch::Device device) {
  thread_local staging st;
  const c10::cuda::CUDAGuard guard(device);
  if (st.device != device.index()) {
    st = staging{};
    st.device = device.index();
    st.stream = c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device.index());
  }
  const int k = st.next;
  st.next = 1 - k;
  const std::int64_t n = host.numel();
  if (!st.pinned[k].defined() || st.pinned[k].numel() < n)
    st.pinned[k] = torch::empty({2 * n}, torch::TensorOptions().dtype(host.dtype()).pinned_memory(true));
  st.copied[k].synchronize();  // the copy out of this buffer, two batches ago, is done
  torch::Tensor staged = st.pinned[k].slice(0, 0, n).view(host.sizes());
  staged.copy_(host);
  torch::Tensor on_device;
  {
    const c10::cuda::CUDAStreamGuard on_copy_stream(*st.stream);
    on_device = staged.to(device, /*non_blocking=*/true);
  }
  st.copied[k].record(*st.stream);
  // The forward pass (on the current stream) waits for the copy on the GPU.
  const c10::cuda::CUDAStream compute = c10::cuda::getCurrentCUDAStream(device.index());
  st.copied[k].block(compute);
  c10::cuda::CUDACachingAllocator::recordStream(on_device.storage().data_ptr(), compute);
  return on_device;
}

#else

torch::Tensor host_to_device(const torch::Tensor&, torch::Device device) {
  throw std::logic_error("host_to_device(" + device.str() + "): this build has no CUDA");
}

#endif

actor_critic_output outputs_to_host(const actor_critic_output& out) {
  actor_critic_output host = out;
  host.policy = out.policy.to(torch::kCPU);
  host.values = out.values.to(torch::kCPU);
  if (out.log_std.defined()) host.log_std = out.log_std.to(torch::kCPU);
  return host;
}

}  // namespace troupe::model
