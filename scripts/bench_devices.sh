#!/usr/bin/env bash
# The end-to-end training benchmark on one device: `troupe train` with a fixed
# number of env steps and the target out of reach, reporting per agent count
# the env steps/s and predict requests/s from summary.json and, on cuda:N, the
# GPU's mean utilisation sampled from nvidia-smi every 200 ms (null on cpu).
# With --cores, each point runs pinned (taskset) to that many cores with that
# many agents, and reports the scaling efficiency against one core.
#
#   scripts/bench_devices.sh [--troupe BIN] [--device cpu|cuda:N] [--config FILE]
#                            [--agents 16,64,256,1024 | --cores 1,2,4,8,16]
#                            [--envs-per-agent N] [--steps N] [--out FILE.json]
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
device=cpu
config="$source_dir/configs/cartpole.yaml"
agent_counts=16,64,256,1024
core_counts=""
envs_per_agent=8
steps=2000000
out=bench-devices.json
while (($#)); do
  case "$1" in
    --troupe) troupe="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --config) config="$2"; shift 2 ;;
    --agents) agent_counts="$2"; shift 2 ;;
    --cores) core_counts="$2"; shift 2 ;;
    --envs-per-agent) envs_per_agent="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_devices: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rows=()
IFS=',' read -ra points <<<"${core_counts:-$agent_counts}"
for point in "${points[@]}"; do
  agents="$point"
  pin=()
  if [ -n "$core_counts" ]; then
    if [ "$point" -gt "$(nproc)" ]; then echo "bench_devices: skipping $point cores (this machine has $(nproc))" >&2; continue; fi
    pin=(taskset -c "0-$((point - 1))")
  fi
  samples="$work/gpu-$point.txt"
  sampler=""
  if [[ "$device" == cuda:* ]] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -i "${device#cuda:}" \
      -lms 200 >"$samples" 2>/dev/null &
    sampler=$!
  fi
  "${pin[@]}" "$troupe" train "$config" --run-dir "$work/run-$point" \
    --set "devices=[$device]" --set agents.count="$agents" --set env.envs_per_agent="$envs_per_agent" \
    --set batching.max_batch=8192 --set run.stop.mean_return=100000 \
    --set run.stop.confirm_episodes=0 --set run.stop.env_steps="$steps" \
    --set run.stop.wall_seconds=300 --set checkpoint.every_seconds=0 \
    --set log.progress=false >"$work/log-$point.txt" 2>&1 || { cat "$work/log-$point.txt" >&2; exit 1; }
  if [ -n "$sampler" ]; then kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; fi
  gpu=null
  if [ -s "$samples" ]; then gpu="$(awk '{s+=$1; n++} END {if (n) printf "%.1f", s/n; else print "null"}' "$samples")"; fi
  row="$(python3 - "$work/run-$point/summary.json" "$agents" "$gpu" "${core_counts:+$point}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
wall = s["wall_seconds"] or 1
row = {"agents": int(sys.argv[2]), "env_steps": s["env_steps"],
       "env_steps_per_s": s["fps"],
       "predict_requests_per_s": s["predict_requests"] / wall,
       "mean_predict_batch": s["mean_predict_batch"],
       "learner_busy_share": s["time_breakdown"]["learner_train_seconds"] / wall,
       "gpu_utilisation_percent": None if sys.argv[3] == "null" else float(sys.argv[3])}
if len(sys.argv) > 4 and sys.argv[4]:
    row["cores"] = int(sys.argv[4])
print(json.dumps(row))
PY
)"
  echo "$row"
  rows+=("$row")
done
python3 - "$out" "$device" "$config" "$envs_per_agent" "${rows[@]}" <<'PY'
import json, sys
out, device, config, envs = sys.argv[1:5]
rows = [json.loads(r) for r in sys.argv[5:]]
if rows and "cores" in rows[0]:
    one = rows[0]["env_steps_per_s"] / rows[0]["cores"]
    for r in rows:
        r["efficiency"] = r["env_steps_per_s"] / (r["cores"] * one)
json.dump({"device": device, "config": config, "envs_per_agent": int(envs), "results": rows},
          open(out, "w"), indent=2)
PY
echo "bench_devices: wrote $out"
