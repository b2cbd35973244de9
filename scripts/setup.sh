#!/usr/bin/env bash
# Installs what Troupe needs from Debian's packages (only what is missing) and
# builds it in Release mode into build/. Idempotent; non-interactive.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libcaf-dev libtorch-dev libyaml-cpp-dev doctest-dev libsdl2-dev
  nlohmann-json3-dev libcli11-dev libpng-dev
  libssl-dev                    # SHA-256 of checkpoints (and CAF's TLS module)
  libopenblas0-pthread          # LibTorch calls libblas.so.3: ~10x faster than the reference BLAS
  python3 python3-matplotlib    # scripts/plot.py
  python3-numpy                 # Python environments: their host process (envs/python/)
  xvfb xauth                    # the viewer's headless tests
  openssl                       # the cluster TLS test makes its certificates
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
echo "setup: built build/troupe"
