#!/usr/bin/env bash
# The end-to-end training benchmark on one device: `troupe train` on
# CartPole-v1 with 16 to 1024 agents (8 environments each), a fixed number of
# env steps with the target out of reach, reporting per agent count the env
# steps/s and predict requests/s (8 observations each) from summary.json and, on cuda:N, the GPU's mean
# utilisation sampled from nvidia-smi every 200 ms (null on cpu).
#
#   scripts/bench_devices.sh [--troupe BIN] [--device cpu|cuda:N] [--agents 16,64,256,1024]
#                            [--steps N] [--out FILE.json]
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
device=cpu
agent_counts=16,64,256,1024
steps=2000000
out=bench-devices.json
while (($#)); do
  case "$1" in
    --troupe) troupe="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --agents) agent_counts="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_devices: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rows=()
IFS=',' read -ra counts <<<"$agent_counts"
for agents in "${counts[@]}"; do
  samples="$work/gpu-$agents.txt"
  sampler=""
  if [[ "$device" == cuda:* ]] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -i "${device#cuda:}" \
      -lms 200 >"$samples" 2>/dev/null &
    sampler=$!
  fi
  "$troupe" train "$source_dir/configs/cartpole.yaml" --run-dir "$work/run-$agents" \
    --set "devices=[$device]" --set agents.count="$agents" --set env.envs_per_agent=8 \
    --set batching.max_batch=8192 --set run.stop.mean_return=100000 \
    --set run.stop.confirm_episodes=0 --set run.stop.env_steps="$steps" \
    --set run.stop.wall_seconds=300 --set log.progress=false >"$work/log-$agents.txt" 2>&1
  if [ -n "$sampler" ]; then kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; fi
  gpu=null
  if [ -s "$samples" ]; then gpu="$(awk '{s+=$1; n++} END {if (n) printf "%.1f", s/n; else print "null"}' "$samples")"; fi
  row="$(python3 - "$work/run-$agents/summary.json" "$agents" "$gpu" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
wall = s["wall_seconds"] or 1
print(json.dumps({"agents": int(sys.argv[2]), "env_steps": s["env_steps"],
                  "env_steps_per_s": s["fps"],
                  "predict_requests_per_s": s["predict_requests"] / wall,
                  "mean_predict_batch": s["mean_predict_batch"],
                  "gpu_utilisation_percent": None if sys.argv[3] == "null" else float(sys.argv[3])}))
PY
)"
  echo "$row"
  rows+=("$row")
done
{
  echo "{\"device\": \"$device\", \"config\": \"configs/cartpole.yaml, 8 envs per agent\", \"results\": ["
  (IFS=','; echo "${rows[*]}")
  echo "]}"
} >"$out"
echo "bench_devices: wrote $out"
