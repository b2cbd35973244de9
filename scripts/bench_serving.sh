#!/usr/bin/env bash
# The serving comparison of the README, repeated: 64 agents, one observation
# per request, batched against mutex and copies (and echo, the message path
# with nothing computed), REPEATS times for each net, interleaved; prints the
# min / median / max of each mode and of the ratio batched / max(mutex,
# copies), with the machine's floor (thread wake-up round trip, one forward
# pass), and writes them as JSON.
#
#   scripts/bench_serving.sh [--troupe BIN] [--repeats 5] [--agents 64] [--seconds 2]
#                            [--nets "mlp cnn"] [--out FILE.json] [-- EXTRA BENCH FLAGS]
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
repeats=5
agents=64
seconds=2
nets="mlp cnn"
out=bench-serving.json
extra=()
while (($#)); do
  case "$1" in
    --troupe) troupe="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    --agents) agents="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --nets) nets="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_serving: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for ((r = 1; r <= repeats; ++r)); do
  for net in $nets; do
    "$troupe" bench inference --net "$net" --agents "$agents" --seconds "$seconds" \
      --modes echo,batched,mutex,copies --json "$work/$net-$r.json" "${extra[@]}" >/dev/null
    echo "bench_serving: $net repeat $r done" >&2
  done
done
python3 - "$work" "$out" $nets <<'PY'
import glob, json, statistics, sys
work, out, nets = sys.argv[1], sys.argv[2], sys.argv[3:]
summary = {}
for net in nets:
    runs = [json.load(open(f)) for f in sorted(glob.glob("%s/%s-*.json" % (work, net)))]
    by_mode = {}
    ratios, of_echo = [], []
    for run in runs:
        rate = {r["mode"]: r["predictions_per_s"] for r in run["results"]}
        for mode, value in rate.items():
            by_mode.setdefault(mode, []).append(value)
        ratios.append(rate["batched"] / max(rate["mutex"], rate["copies"]))
        of_echo.append(rate["batched"] / rate["echo"])
    spread = lambda v: {"min": min(v), "median": statistics.median(v), "max": max(v)}
    summary[net] = {"modes": {m: spread(v) for m, v in by_mode.items()},
                    "ratio_batched_to_best_of_mutex_and_copies": spread(ratios),
                    "batched_share_of_echo": spread(of_echo),
                    "floor": [run["floor"] for run in runs],
                    "repeats": len(runs)}
    s = summary[net]
    print("%s: batched %s  mutex %s  copies %s  echo %s" % (
        net, *("%.0f/%.0f/%.0f" % (s["modes"][m]["min"], s["modes"][m]["median"], s["modes"][m]["max"])
               for m in ("batched", "mutex", "copies", "echo"))))
    r = s["ratio_batched_to_best_of_mutex_and_copies"]
    e = s["batched_share_of_echo"]
    print("%s: ratio min/median/max %.2f/%.2f/%.2f; batched is %.0f-%.0f %% of echo" % (
        net, r["min"], r["median"], r["max"], 100 * e["min"], 100 * e["max"]))
json.dump(summary, open(out, "w"), indent=2)
print("bench_serving: wrote", out)
PY
