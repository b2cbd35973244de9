#!/usr/bin/env bash
# Fuzzes one of Troupe's parsers and validators with libFuzzer (clang, with
# ASan and UBSan): config (YAML and --set), checkpoint (the loader, past the
# checksum into the content), basp (the cluster port's frame reader) or
# messages (cluster messages and viewer frames, decoded as CAF decodes them
# off the network, then checked). See tests/fuzz/fuzz_targets.hpp.
#
#   scripts/fuzz.sh TARGET SECONDS [-- LIBFUZZER FLAGS]   one target
#   scripts/fuzz.sh all SECONDS                           each target in turn
#   scripts/fuzz.sh --merge TARGET                        adds what the runs found
#                                                         that reaches new code to
#                                                         tests/fuzz/corpus/TARGET
#   scripts/fuzz.sh --write-seeds                         rewrites the seed inputs
#
# The run starts from tests/fuzz/corpus/TARGET and tests/fuzz/regressions/TARGET
# and keeps what it finds in build-fuzz/corpus/TARGET. A crash, a broken
# promise (fuzz_finding), a leak, an input slower than 10 s or one that makes
# the target allocate more than 1 GiB stops it: the input is saved under
# build-fuzz/findings/TARGET/ and the script exits 1. Once fixed, copy it to
# tests/fuzz/regressions/TARGET/ (the test suite replays those).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
targets=(config checkpoint basp messages)
mode=run
extra=()
case "${1:-}" in
  -h|--help) usage; exit 0 ;;
  "") usage >&2; exit 2 ;;
  --merge) mode=merge; target="${2:?--merge needs a target}" ;;
  --write-seeds) mode=seeds ;;
  *) target="$1"; seconds="${2:?give the seconds to run}"; shift 2
     [ "${1:-}" = "--" ] && shift
     extra=("$@") ;;
esac
if [ "$mode" != seeds ] && [ "$target" != all ] && [[ ! " ${targets[*]} " =~ " $target " ]]; then
  echo "fuzz: unknown target '$target' (expected one of: ${targets[*]}, all)" >&2
  exit 2
fi
if [ "$mode" = run ] && ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz: SECONDS must be a whole number, got '$seconds'" >&2
  exit 2
fi

if [ "$mode" = seeds ]; then
  install_missing "${troupe_packages[@]}"
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build --target troupe_tests
  ./build/tests/troupe_tests --test-case='fuzz: write the seed corpora' --no-skip
  exit
fi

install_missing "${troupe_packages[@]}" clang libclang-rt-14-dev
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTROUPE_FUZZ=ON -DTROUPE_VIEWER=OFF >/dev/null
if [ "$target" = all ]; then chosen=("${targets[@]}"); else chosen=("$target"); fi
cmake --build build-fuzz --target "${chosen[@]/#/fuzz_}"

# Leaks are looked for (LibTorch's and OpenBLAS's own lasting allocations
# are suppressed, see tests/sanitizers/lsan.supp); UBSan stops at the first
# report, as in the test build.
export ASAN_OPTIONS="detect_odr_violation=0"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$PWD/tests/sanitizers/ubsan.supp"

if [ "$mode" = merge ]; then
  mkdir -p "build-fuzz/corpus/$target"
  "build-fuzz/tests/fuzz_$target" -merge=1 "tests/fuzz/corpus/$target" "build-fuzz/corpus/$target"
  exit
fi

status=0
for t in "${chosen[@]}"; do
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/findings/$t"
  seeds=("tests/fuzz/corpus/$t")
  [ -d "tests/fuzz/regressions/$t" ] && seeds+=("tests/fuzz/regressions/$t")
  max_len=4096
  [ "$t" = checkpoint ] && max_len=65536
  echo "fuzz: $t for $seconds s"
  if "build-fuzz/tests/fuzz_$t" -max_total_time="$seconds" -timeout=10 -malloc_limit_mb=1024 \
       -rss_limit_mb=4096 -max_len="$max_len" -print_final_stats=1 \
       -artifact_prefix="build-fuzz/findings/$t/" "${extra[@]}" \
       "build-fuzz/corpus/$t" "${seeds[@]}" 2> "build-fuzz/fuzz-$t.log"; then
    echo "fuzz: $t: no finding in $seconds s ($(grep -E '^stat::number_of_executed_units' "build-fuzz/fuzz-$t.log" | awk '{print $2}') inputs run); log: build-fuzz/fuzz-$t.log"
  else
    status=1
    tail -n 40 "build-fuzz/fuzz-$t.log"
    echo "fuzz: $t: FOUND something; the input is in build-fuzz/findings/$t/; log: build-fuzz/fuzz-$t.log" >&2
  fi
done
exit "$status"
