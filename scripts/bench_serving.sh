#!/usr/bin/env bash
# The serving comparison of docs/serving.md, repeated: 64 agents, one observation
# per request, REPEATS times for each net, interleaved. Each repeat runs, in
# one process: batched (the owner asked through its lane), batched-messages
# (the same owner asked by actor messages), mutex, copies, and echo (the
# request path with nothing computed).
#
# Prints min / median / max of each mode's predictions/s, its CPU per
# prediction, the ratio batched / max(mutex, copies), and two bounds:
#   one owner's ceiling  1 / (1/echo + its share of a forward pass at the
#                        mean batch), and the ratio it allows;
#   the machine's floor  cores / (half a thread wake-up round trip of CPU +
#                        that share of a forward pass): the most any design
#                        that wakes each waiting agent can serve, the ratio
#                        it allows, and batched's share of it.
# Writes them all as JSON.
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
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_serving: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for ((r = 1; r <= repeats; ++r)); do
  for net in $nets; do
    "$troupe" bench inference --net "$net" --agents "$agents" --seconds "$seconds" \
      --modes echo,batched,batched-messages,mutex,copies --json "$work/$net-$r.json" "${extra[@]}" >/dev/null
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
    ratios, of_echo, ceilings, of_ceiling, best_ratios = [], [], [], [], []
    floors, of_floor, floor_ratios, message_ratios = [], [], [], []
    cpu_by_mode = {}
    for run in runs:
        rate = {r["mode"]: r["predictions_per_s"] for r in run["results"]}
        for mode, value in rate.items():
            by_mode.setdefault(mode, []).append(value)
        for r in run["results"]:
            cpu_by_mode.setdefault(r["mode"], []).append(r["cpu_us_per_prediction"])
        best_other = max(rate["mutex"], rate["copies"])
        ratios.append(rate["batched"] / best_other)
        message_ratios.append(rate["batched-messages"] / best_other)
        of_echo.append(rate["batched"] / rate["echo"])
        # The ceiling of one owner: each prediction costs it its share of
        # the message path (what echo sustains, nothing computed) plus its
        # share of a forward pass at the batch it reached.
        batched = next(r for r in run["results"] if r["mode"] == "batched")
        forward_s = batched["forward_at_mean_batch_us"] * 1e-6 / batched["mean_batch"]
        ceiling = 1.0 / (1.0 / rate["echo"] + forward_s)
        ceilings.append(ceiling)
        of_ceiling.append(rate["batched"] / ceiling)
        best_ratios.append(ceiling / best_other)
        floor_cpu_s = run["floor"]["wake_round_trip_cpu_us"] * 1e-6 / 2 + forward_s
        floor_rate = run["cores"] / floor_cpu_s
        floors.append(floor_rate)
        of_floor.append(rate["batched"] / floor_rate)
        floor_ratios.append(floor_rate / best_other)
    spread = lambda v: {"min": min(v), "median": statistics.median(v), "max": max(v)}
    summary[net] = {"modes": {m: spread(v) for m, v in by_mode.items()},
                    "cpu_us_per_prediction": {m: spread(v) for m, v in cpu_by_mode.items()},
                    "wake_round_trip_cpu_us": spread([run["floor"]["wake_round_trip_cpu_us"] for run in runs]),
                    "ratio_batched_to_best_of_mutex_and_copies": spread(ratios),
                    "ratio_batched_messages_to_best_of_mutex_and_copies": spread(message_ratios),
                    "batched_share_of_echo": spread(of_echo),
                    "owner_ceiling": spread(ceilings),
                    "batched_share_of_ceiling": spread(of_ceiling),
                    "ratio_the_ceiling_allows": spread(best_ratios),
                    "floor_rate": spread(floors),
                    "batched_share_of_floor": spread(of_floor),
                    "ratio_the_floor_allows": spread(floor_ratios),
                    "floor": [run["floor"] for run in runs],
                    "repeats": len(runs)}
    s = summary[net]
    modes = ("batched", "batched-messages", "mutex", "copies", "echo")
    print("%s: batched %s  batched-messages %s  mutex %s  copies %s  echo %s" % (
        net, *("%.0f/%.0f/%.0f" % (s["modes"][m]["min"], s["modes"][m]["median"], s["modes"][m]["max"])
               for m in modes)))
    print("%s: CPU us per prediction: batched %s  batched-messages %s  mutex %s  copies %s  echo %s; a wake-up round trip %s" % (
        net, *("%.1f/%.1f/%.1f" % (c["min"], c["median"], c["max"])
               for c in [s["cpu_us_per_prediction"][m] for m in modes]
               + [s["wake_round_trip_cpu_us"]])))
    r = s["ratio_batched_to_best_of_mutex_and_copies"]
    m = s["ratio_batched_messages_to_best_of_mutex_and_copies"]
    e = s["batched_share_of_echo"]
    print("%s: ratio min/median/max %.2f/%.2f/%.2f (batched-messages %.2f/%.2f/%.2f); batched is %.0f-%.0f %% of echo" % (
        net, r["min"], r["median"], r["max"], m["min"], m["median"], m["max"], 100 * e["min"], 100 * e["max"]))
    c, b, a = s["owner_ceiling"], s["ratio_the_ceiling_allows"], s["batched_share_of_ceiling"]
    print("%s: one owner's ceiling %.0f/%.0f/%.0f (ratio it allows %.2f/%.2f/%.2f); batched is %.0f/%.0f/%.0f %% of it" % (
        net, c["min"], c["median"], c["max"], b["min"], b["median"], b["max"],
        100 * a["min"], 100 * a["median"], 100 * a["max"]))
    f, fr, fs = s["floor_rate"], s["ratio_the_floor_allows"], s["batched_share_of_floor"]
    print("%s: the floor's rate %.0f/%.0f/%.0f (ratio it allows %.2f/%.2f/%.2f); batched is %.0f/%.0f/%.0f %% of it" % (
        net, f["min"], f["median"], f["max"], fr["min"], fr["median"], fr["max"],
        100 * fs["min"], 100 * fs["median"], 100 * fs["max"]))
json.dump(summary, open(out, "w"), indent=2)
print("bench_serving: wrote", out)
PY
