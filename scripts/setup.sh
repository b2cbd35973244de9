#!/usr/bin/env bash
# Installs what Troupe needs from Debian's packages (only what is missing) and
# builds it in Release mode into build/. Idempotent; non-interactive.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh

install_missing "${troupe_packages[@]}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
echo "setup: built build/troupe"
