#!/usr/bin/env bash
# Population-based training against independent runs (docs/results.md,
# "Population-based training"): prints one line per run and writes
# DIR/pbt_results.json.
#
#   scripts/pbt_results.sh [--out DIR] [--seeds "1 2 3"] [--only cartpole|minatar]... [--troupe PATH]
#
#   cartpole  configs/cartpole_ppo_pbt.yaml, 4 members from lr 1e-6..2e-6
#             (log scale over [1e-6, 0.1]), interval 20k env steps, 3M env
#             steps of all members at most; beside it one run at lr 1e-6 for
#             750k env steps (a few minutes a seed)
#   minatar   configs/minatar_breakout_ppo.yaml, 4 members from lr
#             1e-4..3e-3 and entropy 0.001..0.05 (interval 250k), 20M
#             frames of all members; beside it 4 independent runs of 5M
#             frames, each at one member's first draw (about 45 minutes a seed)
#
# Runs already finished in DIR (a summary.json) are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out=runs/pbt_results seeds="1 2 3" only=() troupe=build/troupe
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --troupe) troupe=$2; shift 2 ;;
    *) echo "pbt_results: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ ${#only[@]} -eq 0 ] && only=(cartpole minatar)
mkdir -p "$out"

train() {  # DIR ARGS...: trains into DIR unless it finished before
  local dir=$1; shift
  [ -f "$dir/summary.json" ] && return 0
  rm -rf "$dir"
  "$troupe" train "$@" --run-dir "$dir" --set log.progress=false > "$dir.log" 2>&1
}

report() {  # KIND SEED DIR: one line of what the run did
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
kind, seed, d = sys.argv[1:]
s = json.load(open(d + "/summary.json"))
row = {"kind": kind, "seed": int(seed), "dir": d, "solved": s["solved"], "env_steps": s["env_steps"],
       "env_steps_to_target": s["env_steps_to_target"], "final_mean_return": s["final_mean_return"],
       "wall_seconds": s["wall_seconds"]}
if s.get("pbt"):
    p = s["pbt"]
    row["exploits"] = p["exploits"]
    row["best_member"] = p["best_member"]
    row["members"] = [{"mean_return": m["mean_return"], "hyperparams": m["hyperparams"]} for m in p["members"]]
print(json.dumps(row))
PY
}

results="$out/pbt_results.jsonl"
: > "$results"
for part in "${only[@]}"; do
  for seed in $seeds; do
    case "$part" in
      cartpole)
        train "$out/cartpole_pbt_s$seed" configs/cartpole_ppo_pbt.yaml --set run.seed=$seed \
          --set pbt.population=4 --set pbt.interval_env_steps=20000 \
          --set 'pbt.hyperparams={algo.lr: {min: 0.000001, max: 0.1, scale: log, init: [0.000001, 0.000002]}}' \
          --set run.stop.env_steps=3000000 --set run.stop.wall_seconds=1800
        report cartpole_pbt "$seed" "$out/cartpole_pbt_s$seed" | tee -a "$results"
        train "$out/cartpole_lr1e-6_s$seed" configs/cartpole_ppo_pbt.yaml --set run.seed=$seed \
          --set algo.lr=0.000001 --set run.stop.env_steps=750000 --set run.stop.wall_seconds=1800
        report cartpole_lr1e-6 "$seed" "$out/cartpole_lr1e-6_s$seed" | tee -a "$results"
        ;;
      minatar)
        pbt_dir="$out/breakout_pbt_s$seed"
        train "$pbt_dir" configs/minatar_breakout_ppo.yaml --set run.seed=$seed \
          --set pbt.population=4 --set pbt.interval_env_steps=250000 \
          --set 'pbt.hyperparams={algo.lr: {min: 0.00001, max: 0.01, scale: log, init: [0.0001, 0.003]}, algo.entropy_coef: {min: 0.0001, max: 0.1, scale: log, init: [0.001, 0.05]}}' \
          --set run.stop.env_steps=20000000 --set run.stop.wall_seconds=14400
        report breakout_pbt "$seed" "$pbt_dir" | tee -a "$results"
        for m in 0 1 2 3; do  # each at member m's first draw, as its config.yaml has it
          lr=$(grep -A30 '^algo:' "$pbt_dir/members/$m/config.yaml" | awk '/^  lr:/ {print $2; exit}')
          entropy=$(grep -A30 '^algo:' "$pbt_dir/members/$m/config.yaml" | awk '/^  entropy_coef:/ {print $2; exit}')
          train "$out/breakout_member${m}_s$seed" configs/minatar_breakout_ppo.yaml --set run.seed=$seed \
            --set algo.lr="$lr" --set algo.entropy_coef="$entropy" --set run.stop.env_steps=5000000 \
            --set run.stop.wall_seconds=7200
          report "breakout_independent_$m" "$seed" "$out/breakout_member${m}_s$seed" | tee -a "$results"
        done
        ;;
      *) echo "pbt_results: unknown part $part" >&2; exit 2 ;;
    esac
  done
done
python3 -c "import json,sys; rows=[json.loads(l) for l in open('$results')]; json.dump(rows, open('$out/pbt_results.json','w'), indent=1)"
echo "pbt_results: $out/pbt_results.json"
