# Sourced by the scripts that build Troupe: the Debian packages it needs, and
# a function that installs those of a list that are missing.
troupe_packages=(
  build-essential cmake ninja-build ccache pkg-config
  libcaf-dev libtorch-dev libyaml-cpp-dev doctest-dev libsdl2-dev
  nlohmann-json3-dev libcli11-dev libpng-dev
  libssl-dev                    # SHA-256 of checkpoints (and CAF's TLS module)
  libmujoco-dev                 # the MuJoCo tasks (envs/mujoco/)
  libopenblas0-pthread          # LibTorch calls libblas.so.3: ~10x faster than the reference BLAS
  libblas-dev                   # cblas.h and libblas.so: model/mlp_by_hand.cpp calls the same BLAS
  python3 python3-matplotlib    # scripts/plot.py
  python3-numpy                 # Python environments: their host process (bridges/python/)
  xvfb xauth                    # the viewer's headless tests
  openssl                       # the cluster TLS test makes its certificates
  libprotobuf-dev               # the tests read TensorBoard event files back with it
)

# Not needed to build or run Troupe: with them, tests that would say they
# skip run. CI installs them (.ci/run).
troupe_optional_test_packages=(
  python3-torch                 # an exported policy loaded by Python's torch (tests/model/policy_export_test.cpp)
)

# install_missing PACKAGE...: apt-get installs those not installed yet.
install_missing() {
  local missing=() p sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
