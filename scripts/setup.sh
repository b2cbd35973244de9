#!/usr/bin/env bash
# Installs what Troupe needs from Debian's packages (only what is missing) and
# builds it in Release mode into build/. Idempotent; non-interactive.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh

install_missing "${troupe_packages[@]}"
# A new build directory is a unity build (16 files a translation unit):
# LibTorch's and CAF's headers are parsed once a batch rather than once a
# file, and a cold build took 270 s on 2 cores against 695 s file by file
# (ccache off). An existing one keeps how it was configured: while editing
# one file, `cmake -B build -DCMAKE_UNITY_BUILD=OFF` rebuilds only that file.
unity=()
[ -f build/CMakeCache.txt ] || unity=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16)
# The sanitizer's twins (scripts/sanitize.sh address) are off here, so that
# ctest runs the suites the README names.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTROUPE_ASAN_TWINS=OFF "${unity[@]}" >/dev/null
cmake --build build -j "$(nproc)"
echo "setup: built build/troupe"
