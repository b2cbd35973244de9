#!/usr/bin/env bash
# What Python environments cost (docs/benchmarks.md, "Python environments"):
#
#   1. the bridge: `troupe bench envs --env python:cartpole_py:make`, 64 envs in
#      one process, stepped through the bridge and by the host alone; the
#      difference per env step in wall and in CPU time, min / median / max of
#      the medians of 5 over the repeats; left to the scheduler, and with
#      --pin (the host on one CPU, the stepping thread on the other);
#   2. training throughput: fixed-step runs of configs/cartpole_python.yaml and
#      configs/cartpole.yaml (the same settings, native CartPole), interleaved,
#      env steps per wall second from summary.json;
#   3. time to solve: configs/cartpole_python.yaml over seeds 1-3.
#
# Prints markdown tables and writes OUT/bench-python.json.
#
#   scripts/bench_python.sh [--troupe BIN] [--out DIR] [--repeats N] [--steps N] [--quick]
set -euo pipefail

source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
out_dir="$PWD"
repeats=3
train_steps=2000000
bridge_steps=640000
seeds="1 2 3"
while (($#)); do
  case "$1" in
    --troupe) troupe="$2"; shift 2 ;;
    --out) out_dir="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    --steps) train_steps="$2"; shift 2 ;;
    --quick) repeats=1; train_steps=100000; bridge_steps=64000; seeds="1"; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_python: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ ! -x "$troupe" ]; then
  echo "bench_python: $troupe is not an executable: build first (scripts/setup.sh)" >&2
  exit 2
fi
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"
cd "$source_dir"  # the configs name examples/python_env relative to here
work="$(mktemp -d "${TMPDIR:-/tmp}/troupe-bench-python.XXXXXX")"
trap 'rm -rf "$work"' EXIT
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
python_path="--set env.python_path=[examples/python_env]"
fixed="--set run.stop.mean_return=100000 --set run.stop.confirm_episodes=0 --set log.progress=false"

for r in $(seq "$repeats"); do
  echo "bench_python: bridge, repeat $r" >&2
  "$troupe" bench envs --env python:cartpole_py:make $python_path --steps "$bridge_steps" \
    --repeats 5 --json "$work/bridge_$r.json" >/dev/null
  "$troupe" bench envs --env python:cartpole_py:make $python_path --steps "$bridge_steps" \
    --repeats 5 --pin --json "$work/pinned_$r.json" >/dev/null
  for config in cartpole_python cartpole; do
    echo "bench_python: $config, $train_steps env steps, repeat $r" >&2
    "$troupe" train "configs/$config.yaml" --run-dir "$work/${config}_$r" $fixed \
      --set run.stop.env_steps="$train_steps" >/dev/null
  done
done
for s in $seeds; do
  echo "bench_python: solving, seed $s" >&2
  "$troupe" train configs/cartpole_python.yaml --run-dir "$work/solve_$s" --set run.seed="$s" \
    --set log.progress=false >/dev/null
done

WORK="$work" OUT="$out_dir" REPEATS="$repeats" SEEDS="$seeds" LOAD_BEFORE="$load_before" \
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)" python3 - <<'EOF'
import json, os, statistics

work, repeats = os.environ["WORK"], int(os.environ["REPEATS"])
seeds = os.environ["SEEDS"].split()
def summary(name):
    with open(os.path.join(work, name, "summary.json")) as f:
        return json.load(f)
def spread(values):
    return {"min": min(values), "median": statistics.median(values), "max": max(values),
            "values": values}

bridge = [json.load(open(os.path.join(work, "bridge_%d.json" % r)))["results"][0]
          for r in range(1, repeats + 1)]
pinned = [json.load(open(os.path.join(work, "pinned_%d.json" % r)))["results"][0]
          for r in range(1, repeats + 1)]
result = {
    "load_before": os.environ["LOAD_BEFORE"], "load_after": os.environ["LOAD_AFTER"],
    "bridge_cost_ns": spread([b["bridge_cost_ns_per_step"] for b in bridge]),
    "bridge_cpu_cost_ns": spread([b["bridge_cpu_cost_ns_per_step"] for b in bridge]),
    "pinned_env_alone_ns": spread([b["ns_per_step"] for b in pinned]),
    "pinned_bridge_cost_ns": spread([b["bridge_cost_ns_per_step"] for b in pinned]),
    "pinned_bridge_cpu_cost_ns": spread([b["bridge_cpu_cost_ns_per_step"] for b in pinned]),
    "env_alone_ns": spread([b["ns_per_step"] for b in bridge]),
    "through_bridge_ns": spread([b["bridge_ns_per_step"] for b in bridge]),
    "python_fps": spread([summary("cartpole_python_%d" % r)["fps"] for r in range(1, repeats + 1)]),
    "native_fps": spread([summary("cartpole_%d" % r)["fps"] for r in range(1, repeats + 1)]),
    "solve": {s: {k: summary("solve_" + s).get(k) for k in
                  ("solved", "seconds_to_target", "env_steps_to_target", "fps")} for s in seeds},
}
solved = [v["seconds_to_target"] for v in result["solve"].values() if v["solved"]]
result["solve_seconds"] = spread(solved) if solved else None
with open(os.path.join(os.environ["OUT"], "bench-python.json"), "w") as f:
    json.dump(result, f, indent=2)

def row(name, d, fmt):
    return "| %s | %s | %s | %s |" % (name, fmt % d["min"], fmt % d["median"], fmt % d["max"])
print("load average before %s, after %s; %d repeats" % (result["load_before"], result["load_after"], repeats))
print()
print("| | min | median | max |")
print("| --- | ---: | ---: | ---: |")
print(row("CartPole in the host alone, ns per env step", result["env_alone_ns"], "%.0f"))
print(row("through the bridge, ns per env step", result["through_bridge_ns"], "%.0f"))
print(row("the bridge's cost, ns per env step", result["bridge_cost_ns"], "%.0f"))
print(row("the bridge's cost in CPU time, ns per env step", result["bridge_cpu_cost_ns"], "%.0f"))
print(row("pinned (--pin): CartPole in the host alone, ns per env step", result["pinned_env_alone_ns"], "%.0f"))
print(row("pinned (--pin): the bridge's cost, ns per env step", result["pinned_bridge_cost_ns"], "%.0f"))
print(row("pinned (--pin): the bridge's cost in CPU time, ns per env step", result["pinned_bridge_cpu_cost_ns"], "%.0f"))
print(row("training, Python CartPole, env steps/s", result["python_fps"], "%.0f"))
print(row("training, native CartPole, env steps/s", result["native_fps"], "%.0f"))
if result["solve_seconds"]:
    print(row("Python CartPole, seconds to solve (seeds %s)" % " ".join(seeds), result["solve_seconds"], "%.2f"))
print()
for s, v in result["solve"].items():
    print("seed %s: solved %s, %.2f s, %s env steps, %.0f env steps/s" % (
        s, v["solved"], v["seconds_to_target"] or float("nan"), v["env_steps_to_target"], v["fps"]))
EOF
