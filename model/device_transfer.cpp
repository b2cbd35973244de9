#include "model/device_transfer.hpp"

#include <array>
#include <stdexcept>

#include "model/compute_runtime.hpp"
#include "model/shared_model_impl.hpp"

#ifdef TROUPE_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#endif

namespace troupe::model {

torch::Device parse_device(const std::string& name) {
  if (const std::string problem = device_problem(name); !problem.empty())
    throw std::invalid_argument("device: " + problem);
  if (name == "cpu") return torch::kCPU;
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(std::stoi(name.substr(5))));
}

#ifdef TROUPE_CUDA

// One thread's way onto a GPU: two pinned buffers used in turn, so the host
// fills one while the copy out of the other may still run, and a copy stream.
// Owned by whoever predicts (a model-owner), and destroyed by it while CUDA
// is still up: a thread_local one was destroyed at thread exit, after CUDA's
// own teardown, and crashed the process.
struct input_staging {
  explicit input_staging(torch::Device d)
      : device(d), stream(c10::cuda::getStreamFromPool(/*isHighPriority=*/false, d.index())) {}
  torch::Device device;
  std::array<torch::Tensor, 2> pinned;
  std::array<at::cuda::CUDAEvent, 2> copied;  // the last copy out of each buffer
  int next = 0;
  c10::cuda::CUDAStream stream;
};

void input_staging_deleter::operator()(input_staging* s) const { delete s; }

input_staging_ptr make_input_staging(const shared_model& model) {
  if (model.device.is_cpu()) return nullptr;
  return input_staging_ptr(new input_staging(model.device));
}

torch::Tensor host_to_device(const torch::Tensor& host, torch::Device device,
                             input_staging* st) {
  if (st == nullptr) return host.to(device);
  const c10::cuda::CUDAGuard guard(device);
  const int k = st->next;
  st->next = 1 - k;
  const std::int64_t n = host.numel();
  if (!st->pinned[k].defined() || st->pinned[k].numel() < n)
    st->pinned[k] = torch::empty({2 * n}, torch::TensorOptions().dtype(host.dtype()).pinned_memory(true));
  st->copied[k].synchronize();  // the copy out of this buffer, two batches ago, is done
  torch::Tensor staged = st->pinned[k].slice(0, 0, n).view(host.sizes());
  staged.copy_(host);
  torch::Tensor on_device;
  {
    const c10::cuda::CUDAStreamGuard on_copy_stream(st->stream);
    on_device = staged.to(device, /*non_blocking=*/true);
  }
  st->copied[k].record(st->stream);
  // The forward pass (on the current stream) waits for the copy on the GPU.
  const c10::cuda::CUDAStream compute = c10::cuda::getCurrentCUDAStream(device.index());
  st->copied[k].block(compute);
  c10::cuda::CUDACachingAllocator::recordStream(on_device.storage().data_ptr(), compute);
  return on_device;
}

#else

struct input_staging {};

void input_staging_deleter::operator()(input_staging* s) const { delete s; }

input_staging_ptr make_input_staging(const shared_model&) { return nullptr; }

torch::Tensor host_to_device(const torch::Tensor& host, torch::Device device, input_staging*) {
  if (device.is_cpu()) return host;
  throw std::logic_error("host_to_device(" + device.str() + "): this build has no CUDA");
}

#endif

actor_critic_output outputs_to_host(const actor_critic_output& out) {
  actor_critic_output host = out;
  host.policy = out.policy.to(torch::kCPU);
  host.values = out.values.to(torch::kCPU);
  if (out.states.defined()) host.states = out.states.to(torch::kCPU);
  if (out.log_std.defined()) host.log_std = out.log_std.to(torch::kCPU);
  return host;
}

}  // namespace troupe::model
