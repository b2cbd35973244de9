#include "model/compute_runtime.hpp"

#include <dlfcn.h>
#include <malloc.h>
#include <link.h>

#include <climits>
#include <cstdlib>
#include <cstring>

#include <ATen/Parallel.h>
#include <torch/torch.h>
#include <torch/version.h>

namespace troupe::model {

namespace {

// The real path of the libblas.so.3 this process loaded (the system's
// alternatives decide which one that is).
std::string loaded_blas_path() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        const char* name = info->dlpi_name;
        if (name && std::strstr(name, "libblas.so")) {
          char resolved[PATH_MAX];
          *static_cast<std::string*>(out) = realpath(name, resolved) ? resolved : name;
          return 1;
        }
        return 0;
      },
      &found);
  return found;
}

using get_threads_fn = int (*)();
using set_threads_fn = void (*)(int);

}  // namespace

void tune_allocator() {
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

void set_compute_threads(int threads) {
  torch::set_num_threads(threads);
  if (auto set = reinterpret_cast<set_threads_fn>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    set(threads);
}

void use_compute_threads_here() {
  thread_local bool done = false;
  if (done) return;
  at::init_num_threads();
  done = true;
}

std::string describe_compute_runtime() {
  const std::string path = loaded_blas_path();
  std::string blas;
  if (path.empty())
    blas = "no libblas.so loaded";
  else if (path.find("openblas") != std::string::npos)
    blas = "OpenBLAS";
  else if (path.find("/blas/") != std::string::npos)
    blas = "reference BLAS (slow: install libopenblas0-pthread)";
  else
    blas = "unknown BLAS";
  if (auto get = reinterpret_cast<get_threads_fn>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")))
    blas += ", " + std::to_string(get()) + " thread(s)";
  if (!path.empty()) blas += " [" + path + "]";
  return "BLAS: " + blas + "; LibTorch " + TORCH_VERSION + ": " +
         std::to_string(torch::get_num_threads()) + " intra-op thread(s)";
}

bool cuda_build() {
#ifdef TROUPE_CUDA
  return true;
#else
  return false;
#endif
}

int cuda_device_count() { return cuda_build() ? static_cast<int>(torch::cuda::device_count()) : 0; }

std::string device_problem(const std::string& device) {
  if (device == "cpu") return "";
  const std::string prefix = "cuda:";
  const std::string number = device.rfind(prefix, 0) == 0 ? device.substr(prefix.size()) : "";
  if (number.empty() || number.size() > 3 ||
      number.find_first_not_of("0123456789") != std::string::npos)
    return "expected 'cpu' or 'cuda:N', got '" + device + "'";
  if (!cuda_build())
    return "'" + device + "' needs a CUDA build of Troupe; this one's LibTorch is CPU-only " +
           "(use cpu, e.g. devices: [cpu, cpu])";
  const int count = cuda_device_count();
  if (std::stoi(number) >= count)
    return "'" + device + "': this machine has " + std::to_string(count) + " CUDA device(s)";
  return "";
}

}  // namespace troupe::model
