#!/usr/bin/env bash
# What watching costs training: env steps/s of the same fixed-step CartPole-v1
# run without a viewer and with `--view` (a live window under xvfb-run, open
# for the whole run), run interleaved, medians over the repeats.
#
#   scripts/bench_view.sh [--troupe BIN] [--repeats N] [--steps N]
#
#   --troupe BIN  the binary to measure (default build/troupe)
#   --repeats N   pairs of runs (default 5)
#   --steps N     env steps per run (default 2000000)
#
# Prints each run's env steps/s (summary.json "fps": samples collected per
# wall second, start-up included) and the medians.
set -euo pipefail

source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
repeats=5
steps=2000000
while (($#)); do
  case "$1" in
    --troupe) troupe="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_view: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
command -v xvfb-run > /dev/null || { echo "bench_view: needs xvfb-run (scripts/setup.sh)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/troupe-bench-view.XXXXXX")"
trap 'rm -rf "$work"' EXIT
config="$source_dir/configs/cartpole.yaml"
fixed=(--set run.stop.mean_return=100000 --set run.stop.env_steps="$steps" --set log.progress=false)

fps_of() { python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["fps"]))' "$1"; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "bench_view: load average $(cut -d' ' -f1-3 /proc/loadavg) before"
without=(); with=()
for ((i = 1; i <= repeats; i++)); do
  "$troupe" train "$config" "${fixed[@]}" --run-dir "$work/plain$i" > "$work/plain$i.log" 2>&1
  without+=("$(fps_of "$work/plain$i/summary.json")")
  xvfb-run -a -s '-screen 0 1280x1024x24' \
    "$troupe" train "$config" "${fixed[@]}" --run-dir "$work/view$i" --view > "$work/view$i.log" 2>&1
  with+=("$(fps_of "$work/view$i/summary.json")")
  shown="$(grep -o '[0-9]* frames shown ([0-9]* dropped)' "$work/view$i.log" || echo '? frames shown')"
  echo "bench_view: repeat $i: without ${without[-1]}/s, with --view ${with[-1]}/s ($shown)"
done
m_without=$(median "${without[@]}")
m_with=$(median "${with[@]}")
echo "bench_view: load average $(cut -d' ' -f1-3 /proc/loadavg) after"
python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f"bench_view: median env steps/s without {a:,.0f}, with --view {b:,.0f}: {100 * (b - a) / a:+.1f}%")' "$m_without" "$m_with"
