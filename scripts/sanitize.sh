#!/usr/bin/env bash
# Builds the tests instrumented by a sanitizer and runs them:
#
#   scripts/sanitize.sh address [CTEST ARGS]   ASan + UBSan (build-asan/): every
#                                              suite but the end-to-end one
#   scripts/sanitize.sh thread [DOCTEST ARGS]  TSan (build-tsan/): the
#                                              concurrency tests
#
# Any report fails the run. Suppressions cover only what the uninstrumented
# libraries do inside themselves (LibTorch, OpenBLAS, CAF); tests/sanitizers/
# explains each one. Extra arguments go to ctest (e.g. -R model) or to the
# test binary (e.g. --test-case='*torn*').
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh

kind="${1:-}"
case "$kind" in
  address) dir=build-asan ;;
  thread) dir=build-tsan ;;
  -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "sanitize: expected 'address' or 'thread', got '$kind' (see --help)" >&2; exit 2 ;;
esac
shift

install_missing "${troupe_packages[@]}"
# -O1 with line tables only (-g1): reports name files and lines, and the
# build takes half the time of -O2 -g.
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DTROUPE_SANITIZE="$kind" >/dev/null
cmake --build "$dir" -j "$(nproc)" --target troupe_tests
if [ "$kind" = address ]; then
  ctest --test-dir "$dir" -L unit --output-on-failure "$@"
else
  # The tests of the concurrency claims (the README's table), each a loop of
  # many rounds on real threads: the critical section, judging parameters,
  # the model-owner and its reply courier, the rollout pipeline, replicas.
  "$dir/tests/troupe_tests" \
    --source-file='*/critical_section_test.cpp,*/judge_parameters_test.cpp,*/model_owner_test.cpp,*/pipeline_test.cpp,*/replicas_test.cpp' "$@"
fi
