#pragma once
// The numeric runtime under LibTorch: which BLAS the process loaded and how
// many threads it and LibTorch use.
#include <string>

namespace troupe::model {

// Keeps freed memory in the process: large temporary tensors otherwise map
// and unmap memory on every forward pass (glibc's defaults; measured several
// times slower for convolutions at large batches). Call once at start-up.
void tune_allocator();

// Sets LibTorch's intra-op threads and, when OpenBLAS is loaded, its threads.
void set_compute_threads(int threads);

// Gives the calling thread set_compute_threads' count, once per thread.
// OpenMP keeps its thread count per thread: a thread LibTorch did not start
// (a model-owner's, a learner's) otherwise computes with one OpenMP thread
// per core, which on a 16-core machine made every small forward pass wait
// for 16 threads (batched inference at 3 agents: 1,560 predictions/s).
void use_compute_threads_here();

// Whether this build links a CUDA-enabled LibTorch (CMake's TROUPE_CUDA).
bool cuda_build();

// CUDA devices this process can use (0 in a CPU-only build).
int cuda_device_count();

// Why `device` ("cpu" or "cuda:N") cannot run a model here: malformed, no
// CUDA in this build, or no such CUDA device; "" when it can.
std::string device_problem(const std::string& device);

// For example "BLAS: OpenBLAS (pthread) 1 thread; LibTorch 1.13.0: 1 intra-op thread".
std::string describe_compute_runtime();

}  // namespace troupe::model
