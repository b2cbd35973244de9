#!/usr/bin/env bash
# Run HERE (the Debian machine with apt), before lending the tree to the GPU
# machine: downloads the Debian packages the GPU machine lacks (CAF, yaml-cpp,
# doctest, nlohmann-json, CLI11, libpng and their libraries; the GPU build
# leaves the SDL2 window out: TROUPE_VIEWER=OFF) and unpacks
# them into .deps/root, which git ignores. Then carry `.deps` to the GPU
# machine and run scripts/gpu_build_and_bench.sh there (see its header).
#
#   scripts/gpu_bundle_deps.sh            (about 20-40 MiB unpacked; the carry limit is 64 MiB)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
  libcaf-dev libcaf-core0.17 libcaf-io0.17 libcaf-openssl0.17
  libyaml-cpp-dev libyaml-cpp0.7
  doctest-dev nlohmann-json3-dev libcli11-dev
  libpng-dev libpng16-16
  libssl-dev zlib1g-dev          # headers the GPU image may lack (CAF's TLS, libpng)
)
mkdir -p .deps/debs .deps/root
(cd .deps/debs && apt-get download "${packages[@]}")
for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps/root; done
rm -rf .deps/debs
# Only headers, libraries and CMake files are needed; documentation is not.
rm -rf .deps/root/usr/share/doc .deps/root/usr/share/man
find .deps/root -name "*.a" -delete  # shared libraries only
du -sh .deps
echo "gpu_bundle_deps: unpacked into .deps/root; carry .deps to the GPU machine"
