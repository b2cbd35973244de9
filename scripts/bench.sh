#!/usr/bin/env bash
# Troupe's benchmark suite, in one go (about 4-6 minutes on 2 cores):
#
#   1. inference: `troupe bench inference`, mlp and cnn nets, 1/4/16/64 agents,
#      every mode (the batching model-owner against a mutex and per-thread copies);
#   2. CartPole-v1 time-to-solve over 5 seeds (configs/cartpole.yaml): median,
#      min and max of seconds and env steps to the target, from each summary.json;
#   3. end-to-end env steps/s of `troupe train` on CartPole-v1 and
#      MinAtar/Breakout-v1: fixed-step runs with the target out of reach;
#   4. `troupe bench envs`: ns per step of every environment, one thread.
#
# Writes OUT/bench-results.json and OUT/bench-results.md (the table in
# docs/benchmarks.md) and prints the table with the machine it ran on.
#
#   scripts/bench.sh [--troupe BIN] [--out DIR] [--quick]
#
#   --troupe BIN  the binary to measure (default build/troupe)
#   --out DIR     where the results go (default: the current directory)
#   --quick       shorter measurements, for checking the script (~1 minute)
set -euo pipefail

source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
out_dir="$PWD"
quick=0
while (($#)); do
  case "$1" in
    --troupe) troupe="$2"; shift 2 ;;
    --out) out_dir="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ ! -x "$troupe" ]; then
  echo "bench: $troupe is not an executable: build first (scripts/setup.sh) or pass --troupe" >&2
  exit 2
fi
troupe="$(cd "$(dirname "$troupe")" && pwd)/$(basename "$troupe")"
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"

# Sizes of each part (the full suite: about 4-6 minutes on 2 shared cores).
inference_seconds=5     # per net, mode and agent count: 2 nets x 4 modes x 4 counts
solve_seeds="1 2 3 4 5"
cartpole_steps=5000000  # fixed-step runs for env steps/s
breakout_steps=1000000
envs_steps=1000000
if ((quick)); then
  inference_seconds=0.2; solve_seeds="1 2"; cartpole_steps=200000; breakout_steps=30000
  envs_steps=20000
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/troupe-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
log() { echo "bench: [$(($(date +%s) - started)) s] $*"; }

# --- the machine -------------------------------------------------------------------
cpu_model="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
cores="$(nproc)"
log "machine: $cpu_model, $cores cores; load average $load_before; binary $troupe"

# --- 1. inference ------------------------------------------------------------------
for net in mlp cnn; do
  log "inference: $net, agents 1,4,16,64, $inference_seconds s per point"
  "$troupe" bench inference --net "$net" --agents 1,4,16,64 --seconds "$inference_seconds" \
    --json "$work/inference_$net.json" | tee "$work/inference_$net.log"
done

# --- 2. CartPole-v1 time-to-solve ------------------------------------------------------
for seed in $solve_seeds; do
  log "CartPole-v1 time-to-solve: seed $seed"
  "$troupe" train "$source_dir/configs/cartpole.yaml" --run-dir "$work/solve_$seed" \
    --set run.seed="$seed" --set log.progress=false > "$work/solve_$seed.log" 2>&1 ||
    { cat "$work/solve_$seed.log"; exit 1; }
  tail -2 "$work/solve_$seed.log" | head -1
done
start_line="$(grep -m1 'LibTorch' "$work/solve_${solve_seeds%% *}.log" || true)"

# --- 3. end-to-end env steps/s -----------------------------------------------------------
log "CartPole-v1 end-to-end: $cartpole_steps env steps"
"$troupe" train "$source_dir/configs/cartpole.yaml" --run-dir "$work/fps_cartpole" \
  --set run.stop.env_steps="$cartpole_steps" --set run.stop.mean_return=1e9 \
  --set run.stop.wall_seconds=0 --set log.progress=false > "$work/fps_cartpole.log" 2>&1 ||
  { cat "$work/fps_cartpole.log"; exit 1; }
tail -2 "$work/fps_cartpole.log" | head -1
log "MinAtar/Breakout-v1 end-to-end: $breakout_steps env steps"
"$troupe" train "$source_dir/configs/breakout.yaml" --run-dir "$work/fps_breakout" \
  --set run.stop.env_steps="$breakout_steps" --set run.stop.mean_return=1e9 \
  --set run.stop.wall_seconds=0 --set log.progress=false > "$work/fps_breakout.log" 2>&1 ||
  { cat "$work/fps_breakout.log"; exit 1; }
tail -2 "$work/fps_breakout.log" | head -1

# --- 4. environments ---------------------------------------------------------------------
log "bench envs: $envs_steps steps x 3 repeats per environment"
"$troupe" bench envs --steps "$envs_steps" --json "$work/envs.json"

# --- results -------------------------------------------------------------------------------
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
elapsed=$(($(date +%s) - started))
commit="$(git -C "$source_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if ! git -C "$source_dir" diff --quiet HEAD 2>/dev/null; then commit="$commit (with local changes)"; fi

WORK="$work" OUT="$out_dir" CPU="$cpu_model" CORES="$cores" START_LINE="$start_line" \
LOAD_BEFORE="$load_before" LOAD_AFTER="$load_after" ELAPSED="$elapsed" COMMIT="$commit" \
SEEDS="$solve_seeds" QUICK="$quick" INFERENCE_SECONDS="$inference_seconds" \
python3 - <<'EOF'
import json, os, re, statistics, time

env = os.environ
work = env["WORK"]

def load(name):
    with open(os.path.join(work, name)) as f:
        return json.load(f)

start_line = env["START_LINE"]
torch = re.search(r"LibTorch ([0-9][^:]*)", start_line)
blas = re.search(r"BLAS: ([^;]*)", start_line)
machine = {
    "cpu": env["CPU"],
    "cores": int(env["CORES"]),
    "libtorch": torch.group(1).strip() if torch else "unknown",
    "blas": blas.group(1).split(" [")[0].strip() if blas else "unknown",
    "start_line": start_line.strip(),
    "load_average_before": env["LOAD_BEFORE"],
    "load_average_after": env["LOAD_AFTER"],
    "date": time.strftime("%Y-%m-%d %H:%M %Z"),
    "commit": env["COMMIT"],
    "suite_seconds": int(env["ELAPSED"]),
    "quick": env["QUICK"] == "1",
}

inference = {net: load("inference_%s.json" % net) for net in ("mlp", "cnn")}

seeds = env["SEEDS"].split()
runs = []
for seed in seeds:
    s = load("solve_%s/summary.json" % seed)
    runs.append({"seed": int(seed), "solved": s["solved"], "seconds_to_target": s["seconds_to_target"],
                 "env_steps_to_target": s["env_steps_to_target"], "wall_seconds": s["wall_seconds"],
                 "fps": s["fps"]})
solved = [r for r in runs if r["solved"]]
def stats(key):
    values = [r[key] for r in solved]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}
solve = {"config": "configs/cartpole.yaml", "target_mean_return": 475, "seeds": len(runs),
         "solved": len(solved), "seconds": stats("seconds_to_target"),
         "env_steps": stats("env_steps_to_target"), "runs": runs}

def fps_of(name, env_id):
    s = load("fps_%s/summary.json" % name)
    return {"env": env_id, "env_steps": s["env_steps"], "wall_seconds": s["wall_seconds"],
            "env_steps_per_s": s["fps"], "mean_predict_batch": s["mean_predict_batch"],
            "updates": s["updates"], "mean_policy_lag": s["mean_policy_lag"]}
end_to_end = [fps_of("cartpole", "CartPole-v1"), fps_of("breakout", "MinAtar/Breakout-v1")]
envs = load("envs.json")["results"]

results = {"machine": machine, "inference": inference, "cartpole_time_to_solve": solve,
           "end_to_end": end_to_end, "envs": envs}
with open(os.path.join(env["OUT"], "bench-results.json"), "w") as f:
    json.dump(results, f, indent=2)
    f.write("\n")

def n(v, digits=0):
    return "{:,.{}f}".format(v, digits)

md = []
md.append("Machine: %s, %d cores; LibTorch %s, %s; load average %s before, %s after "
          "(1/5/15 min); %s; commit %s; the suite took %d s%s." % (
              machine["cpu"], machine["cores"], machine["libtorch"], machine["blas"],
              machine["load_average_before"], machine["load_average_after"], machine["date"],
              machine["commit"], machine["suite_seconds"],
              " (--quick: shortened, not for comparison)" if machine["quick"] else ""))
md.append("")
md.append("**Inference** (`troupe bench inference`, %s s per point): predictions/s of one "
          "model-owner that batches (`batched`), one that does not (`unbatched`), a model shared "
          "under a mutex (`mutex`) and one copy per agent thread (`copies`)." % env["INFERENCE_SECONDS"])
md.append("")
md.append("| net | agents | batched | unbatched | mutex | copies | mean batch (batched) | p99 us (batched) |")
md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for net, data in inference.items():
    by = {}
    for r in data["results"]:
        by.setdefault(r["agents"], {})[r["mode"]] = r
    for agents in sorted(by):
        row = by[agents]
        cell = lambda mode: n(row[mode]["predictions_per_s"]) if mode in row else "-"
        b = row.get("batched")
        md.append("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
            net, agents, cell("batched"), cell("unbatched"), cell("mutex"), cell("copies"),
            n(b["mean_batch"], 1) if b else "-", n(b["p99_us"]) if b else "-"))
md.append("")
md.append("**CartPole-v1 time to solve** (`configs/cartpole.yaml`, mean return of the last 100 "
          "episodes >= 475), seeds %s: %d of %d solved." % (", ".join(seeds), len(solved), len(runs)))
md.append("")
md.append("| | median | min | max |")
md.append("| --- | ---: | ---: | ---: |")
if solve["seconds"]:
    md.append("| seconds | %s | %s | %s |" % tuple(n(solve["seconds"][k], 2) for k in ("median", "min", "max")))
    md.append("| env steps | %s | %s | %s |" % tuple(n(solve["env_steps"][k]) for k in ("median", "min", "max")))
md.append("")
md.append("Per seed (seconds / env steps to the target): " + "; ".join(
    "%d: %s" % (r["seed"], "%s s / %s" % (n(r["seconds_to_target"], 2), n(r["env_steps_to_target"]))
                if r["solved"] else "not solved in %s s" % n(r["wall_seconds"], 1)) for r in runs) + ".")
md.append("")
md.append("**End to end** (`troupe train`, fixed number of env steps, target out of reach; "
          "env steps / wall seconds including start-up):")
md.append("")
md.append("| env | env steps | wall s | env steps/s | mean predict batch | updates | mean policy lag |")
md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in end_to_end:
    md.append("| %s | %s | %s | %s | %s | %s | %s |" % (
        r["env"], n(r["env_steps"]), n(r["wall_seconds"], 1), n(r["env_steps_per_s"]),
        n(r["mean_predict_batch"], 1), n(r["updates"]), n(r["mean_policy_lag"], 2)))
md.append("")
md.append("**Environments** (`troupe bench envs`, random actions, one thread, median of 3):")
md.append("")
md.append("| env | ns/step | steps/s |")
md.append("| --- | ---: | ---: |")
for r in envs:
    md.append("| %s | %s | %s |" % (r["env"], n(r["ns_per_step"], 1), n(1e9 / r["ns_per_step"])))
text = "\n".join(md) + "\n"
with open(os.path.join(env["OUT"], "bench-results.md"), "w") as f:
    f.write(text)
print()
print(text)
EOF
log "wrote $out_dir/bench-results.json and $out_dir/bench-results.md"
