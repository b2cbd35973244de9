#!/usr/bin/env bash
# Seconds and env steps to a confirmed 475 on CartPole-v1, in one sitting:
# A3C (configs/cartpole.yaml) deterministic and asynchronous, and PPO
# (configs/cartpole_ppo.yaml) deterministic, over seeds 1-5, each repeated,
# interleaved; with a second binary, its A3C runs beside this build's (a
# comparison in the same sitting). Prints min / median / max per kind.
#
#   scripts/cartpole_timing.sh [--repeats N] [--other PATH] [--out DIR]
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
repeats=2
other=""
out="${TMPDIR:-/tmp}/troupe_cartpole_timing"
while (($#)); do
  case "$1" in
    --repeats) repeats="$2"; shift 2 ;;
    --other) other="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "cartpole_timing: unknown argument '$1' (see the header)" >&2; exit 2 ;;
  esac
done
rm -rf "$out" && mkdir -p "$out"
cd "$source_dir"
builds=("this:$source_dir/build/troupe")
[ -n "$other" ] && builds+=("other:$other")
for rep in $(seq "$repeats"); do
  for seed in 1 2 3 4 5; do
    for b in "${builds[@]}"; do
      name="${b%%:*}" bin="${b#*:}"
      "$bin" train configs/cartpole.yaml --run-dir "$out/a3c-deterministic-$name-s$seed-r$rep" \
        --set run.deterministic=true --set run.seed="$seed" --set log.progress=false >/dev/null
      "$bin" train configs/cartpole.yaml --run-dir "$out/a3c-asynchronous-$name-s$seed-r$rep" \
        --set run.seed="$seed" --set log.progress=false >/dev/null
    done
    build/troupe train configs/cartpole_ppo.yaml --run-dir "$out/ppo-deterministic-this-s$seed-r$rep" \
      --set run.deterministic=true --set run.seed="$seed" --set log.progress=false >/dev/null
  done
done
python3 - "$out" <<'PY'
import collections, glob, json, statistics, sys
runs = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + "/*/summary.json")):
    kind = "-".join(f.split("/")[-2].split("-")[:3])
    s = json.load(open(f))
    runs[kind].append((s["seconds_to_target"], s["env_steps_to_target"] / 1000))
for kind, v in sorted(runs.items()):
    sec, steps = [x[0] for x in v], [x[1] for x in v]
    print(f"{kind}: {len(v)} runs, seconds {min(sec):.2f} / {statistics.median(sec):.2f} / {max(sec):.2f}, "
          f"env steps (k) {min(steps):.0f} / {statistics.median(steps):.0f} / {max(steps):.0f}")
PY
