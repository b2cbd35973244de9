#pragma once
// The numeric runtime under LibTorch: which BLAS the process loaded and how
// many threads it and LibTorch use.
#include <string>

namespace troupe::model {

// Sets LibTorch's intra-op threads and, when OpenBLAS is loaded, its threads.
void set_compute_threads(int threads);

// For example "BLAS: OpenBLAS (pthread) 1 thread; LibTorch 1.13.0: 1 intra-op thread".
std::string describe_compute_runtime();

}  // namespace troupe::model
