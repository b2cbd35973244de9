#!/usr/bin/env bash
# Run ON THE GPU MACHINE (CUDA, a python3 with a CUDA build of PyTorch, CMake,
# ninja; no apt, no network), in the repository root, after
# scripts/gpu_bundle_deps.sh filled .deps/ on the Debian machine and .deps was
# carried along. One command builds Troupe against PyTorch's own LibTorch (so
# CMake's TROUPE_CUDA is on), runs the whole test suite, then the benchmarks
# on cuda:0 and on cpu, and writes every result as JSON under OUT:
#
#   scripts/gpu_build_and_bench.sh [OUT]      (default: $OUT, else ./gpu-results)
#
#   OUT/build.log, OUT/ctest.log               build and test output
#   OUT/inference-{mlp,cnn}-{cuda0,cpu}.json   troupe bench inference, 16..1024 agents
#   OUT/training-{cuda0,cpu}.json              scripts/bench_devices.sh: env steps/s, predict
#                                              requests/s and GPU utilisation by agents
#   OUT/environment.json                       GPU, driver, torch version, commit
#
# Not run yet: no GPU machine was lent to the session that wrote it.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-${OUT:-$PWD/gpu-results}}"
mkdir -p "$out"
deps="$PWD/.deps/root"
if [ ! -d "$deps/usr/include/caf" ]; then
  echo "gpu_build_and_bench: $deps has no CAF: run scripts/gpu_bundle_deps.sh on the Debian machine and carry .deps" >&2
  exit 2
fi
export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
torch_prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
torch_lib="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
export LD_LIBRARY_PATH="$torch_lib:$LD_LIBRARY_PATH"

{
  echo "{"
  echo "  \"commit\": \"$(git rev-parse HEAD 2>/dev/null || echo unknown)\","
  echo "  \"torch\": \"$(python3 -c 'import torch; print(torch.__version__)')\","
  echo "  \"gpu\": \"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)\","
  echo "  \"cores\": $(nproc)"
  echo "}"
} > "$out/environment.json"

# The Debian packages' CMake files and headers live under .deps/root/usr.
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$torch_prefix;$deps/usr;$deps/usr/lib/x86_64-linux-gnu/cmake" \
  -DCMAKE_INCLUDE_PATH="$deps/usr/include" -DCMAKE_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu" \
  -DCMAKE_CXX_FLAGS="-isystem $deps/usr/include" \
  -DTROUPE_CUDA=ON >"$out/build.log" 2>&1 &&
  ninja -C build-gpu -j"$(nproc)" >>"$out/build.log" 2>&1
build_status=$?
if [ $build_status -ne 0 ]; then
  tail -40 "$out/build.log"
  echo "gpu_build_and_bench: the build failed (see $out/build.log)" >&2
  exit 1
fi
# Libraries the binary still cannot find, said plainly.
ldd build-gpu/troupe | grep "not found" | tee "$out/missing-libraries.txt"

ctest --test-dir build-gpu --output-on-failure >"$out/ctest.log" 2>&1
echo "ctest exit code $? (see $out/ctest.log)"

troupe=build-gpu/troupe
for net in mlp cnn; do
  for device in cuda:0 cpu; do
    tag="${device/:/}"
    "$troupe" bench inference --net "$net" --device "$device" --modes batched \
      --agents 16,64,256,1024 --seconds 2 --max-batch 1024 --json "$out/inference-$net-$tag.json"
  done
done
for device in cuda:0 cpu; do
  scripts/bench_devices.sh --troupe "$troupe" --device "$device" --out "$out/training-${device/:/}.json"
done
echo "gpu_build_and_bench: results in $out"
