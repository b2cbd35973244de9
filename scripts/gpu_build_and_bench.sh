#!/usr/bin/env bash
# Run ON THE GPU MACHINE (CUDA, a python3 with a CUDA build of PyTorch, CMake,
# ninja; no apt, no network), in the repository root, after
# scripts/gpu_bundle_deps.sh filled .deps/ on the Debian machine and .deps was
# carried along. Builds Troupe against PyTorch's own LibTorch (so CMake's
# TROUPE_CUDA is on), then runs the stages named (default: all of them):
#
#   scripts/gpu_build_and_bench.sh [build] [test] [inference] [training] [scaling]
#
#   build      OUT/build.log (every compile error, ninja -k 0), OUT/environment.json
#   test       the whole suite (OUT/ctest.log); the viewer's suite only where
#              xvfb-run exists
#   inference  OUT/inference-{mlp,cnn,lstm}.json: troupe bench inference on cuda:0,
#              16..1024 agents, batched against mutex and copies; and
#              OUT/inference-mlp-rows8.json: 8 observations per request
#   training   OUT/training-{cartpole,breakout}-cuda0.json: env steps/s of
#              training by agent count (scripts/bench_devices.sh)
#   scaling    OUT/scaling-cpu.json: CartPole training pinned to 1..16 cores,
#              one agent per core, with the efficiency against one core
#
# OUT is $OUT when set, else ./gpu-results. The build directory is build-gpu.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/gpu-results}"
mkdir -p "$out"
stages=("$@")
((${#stages[@]})) || stages=(build test inference training scaling)
wants() { local s; for s in "${stages[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
started=$SECONDS
say() { echo "[gpu $((SECONDS - started))s] $*"; }

deps="$PWD/.deps/root"
if [ ! -d "$deps/usr/include/caf" ]; then
  echo "gpu_build_and_bench: $deps has no CAF: run scripts/gpu_bundle_deps.sh on the Debian machine and carry .deps" >&2
  exit 2
fi
export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
torch_prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
torch_lib="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
export LD_LIBRARY_PATH="$torch_lib:$LD_LIBRARY_PATH"
troupe=build-gpu/troupe

if wants build; then
  {
    echo "{"
    echo "  \"commit\": \"$(git rev-parse HEAD 2>/dev/null || echo unknown)\","
    echo "  \"torch\": \"$(python3 -c 'import torch; print(torch.__version__)')\","
    echo "  \"gpu\": \"$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)\","
    echo "  \"cxx\": \"$(c++ --version | head -1)\","
    echo "  \"cores\": $(nproc)"
    echo "}"
  } >"$out/environment.json"
  cat "$out/environment.json"
  # The Debian packages' CMake files and headers live under .deps/root/usr.
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$deps/usr;$deps/usr/lib/x86_64-linux-gnu/cmake" \
    -DCMAKE_INCLUDE_PATH="$deps/usr/include" -DCMAKE_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu" \
    -DCMAKE_CXX_FLAGS="-isystem $deps/usr/include -isystem $deps/usr/include/x86_64-linux-gnu" \
    -DTROUPE_CUDA=ON -DTROUPE_VIEWER=OFF >"$out/build.log" 2>&1 &&
    ninja -C build-gpu -k 0 -j"$(nproc)" >>"$out/build.log" 2>&1
  build_status=$?
  say "build exit $build_status"
  if [ $build_status -ne 0 ]; then
    grep -E "error|Error|undefined reference" "$out/build.log" | head -60
    tail -20 "$out/build.log"
    echo "gpu_build_and_bench: the build failed (see $out/build.log)" >&2
    exit 1
  fi
  # Libraries the binary still cannot find, said plainly.
  ldd "$troupe" | grep "not found" | tee "$out/missing-libraries.txt"
fi

if wants test; then
  exclude=()
  if ! command -v xvfb-run >/dev/null; then
    exclude=(-E viewer)
    say "no xvfb-run here: the viewer suite is left out"
  fi
  ctest --test-dir build-gpu --output-on-failure -j4 "${exclude[@]}" >"$out/ctest.log" 2>&1
  say "ctest exit $? (see $out/ctest.log)"
  grep -E "tests passed|Passed|Failed|\*\*\*|ERROR|REQUIRE" "$out/ctest.log" | head -40
fi

if wants inference; then
  # One-row requests (the hard case: a wake-up per prediction), then agents
  # with 8 environments each (one request carries 8 observations).
  for net in mlp cnn lstm; do
    "$troupe" bench inference --net "$net" --device cuda:0 --modes batched,mutex,copies \
      --agents 16,64,256,1024 --seconds 2 --max-batch 4096 --json "$out/inference-$net.json" 2>&1 |
      tee -a "$out/inference.log"
  done
  "$troupe" bench inference --net mlp --device cuda:0 --modes batched --rows 8 \
    --agents 64,256,1024 --seconds 2 --max-batch 8192 --json "$out/inference-mlp-rows8.json" 2>&1 |
    tee -a "$out/inference.log"
  say "inference done"
fi

if wants training; then
  scripts/bench_devices.sh --troupe "$troupe" --device cuda:0 --agents 16,64,256,1024 \
    --steps 500000 --out "$out/training-cartpole-cuda0.json" 2>&1 | tee -a "$out/training.log"
  scripts/bench_devices.sh --troupe "$troupe" --device cuda:0 --agents 16,64,256 \
    --config configs/breakout.yaml --envs-per-agent 8 --steps 300000 \
    --out "$out/training-breakout-cuda0.json" 2>&1 | tee -a "$out/training.log"
  say "training done"
fi

if wants scaling; then
  scripts/bench_devices.sh --troupe "$troupe" --device cpu --cores 1,2,4,8,16 --steps 500000 \
    --out "$out/scaling-cpu.json" 2>&1 | tee -a "$out/scaling.log"
  say "scaling done"
fi
say "results in $out"
