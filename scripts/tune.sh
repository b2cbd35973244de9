#!/usr/bin/env bash
# Reruns a config's search: each candidate setting trained on each seed in
# deterministic mode (run.deterministic=true, so every row reproduces on the
# same machine and build), the final checkpoint scored, and a table of
# min / median / max per candidate printed and written as JSON.
#
#   scripts/tune.sh CONFIG [--seeds "1 2 3"] [--eval-episodes N] [--out DIR]
#                   [--troupe PATH] [--set KEY=VALUE]... -- CANDIDATE...
#
#   CANDIDATE  one quoted string of KEY=VALUE pairs, space-separated, applied
#              after --set; "" is the config as shipped
#   --set      applied to every run (run.stop.env_steps=300000, say, for a
#              shorter horizon than the config's)
#   --out      where the runs and tune.json go (default: tune/<config name>)
#
# Each tuned config's comment names the candidates and seeds its values
# were chosen from, and the command that reruns the search; e.g.
#
#   scripts/tune.sh configs/mujoco_halfcheetah.yaml --seeds "1 2 3 4 5 11 12 13" -- \
#     "model.log_std_init=-0.5" "model.log_std_init=-1.0"
#
# Runs already finished in DIR are kept, so an interrupted search resumes.
# Per candidate the table has: solved runs, env steps and seconds to the
# target (solved runs only), the final mean return of training, and the
# evaluation of the final checkpoint (`troupe eval`, sampled actions).
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
config=""
seeds="1 2 3"
eval_episodes=10
out=""
sets=()
candidates=()
while (($#)); do
  case "$1" in
    --seeds|--eval-episodes|--out|--troupe|--set)
      (($# >= 2)) || { echo "tune: $1 needs a value (see --help)" >&2; exit 2; } ;;
  esac
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --eval-episodes) eval_episodes="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --troupe) troupe="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; candidates=("$@"); break ;;
    -*) echo "tune: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    *) [ -z "$config" ] || { echo "tune: one config, got '$config' and '$1'" >&2; exit 2; }
       config="$1"; shift ;;
  esac
done
[ -n "$config" ] || { echo "tune: no config given (see --help)" >&2; exit 2; }
[ -f "$config" ] || { echo "tune: no config file at $config" >&2; exit 2; }
[ -x "$troupe" ] || { echo "tune: no troupe binary at $troupe (scripts/setup.sh builds it)" >&2; exit 2; }
((${#candidates[@]})) || candidates=("")
[[ "$eval_episodes" =~ ^[0-9]+$ ]] || { echo "tune: --eval-episodes '$eval_episodes' is not a count" >&2; exit 2; }
[ -n "$out" ] || out="tune/$(basename "$config" .yaml)"
mkdir -p "$out/runs"

index=0
manifest="$out/candidates.txt"
: >"$manifest"
for candidate in "${candidates[@]}"; do
  extra=()
  for pair in $candidate; do
    [[ "$pair" == *=* ]] || { echo "tune: candidate '$candidate': '$pair' is not KEY=VALUE" >&2; exit 2; }
    extra+=(--set "$pair")
  done
  printf '%s\t%s\n' "$index" "$candidate" >>"$manifest"
  for seed in $seeds; do
    dir="$out/runs/c$index-s$seed"
    if [ -f "$dir/summary.json" ] && { [ "$eval_episodes" = 0 ] || [ -f "$dir/eval.json" ]; }; then continue; fi
    rm -rf "$dir"
    echo "tune: candidate $index ('$candidate') seed $seed ($(date +%H:%M:%S))"
    "$troupe" train "$config" --run-dir "$dir" --set run.deterministic=true --set run.seed="$seed" \
      --set log.progress_seconds=5 "${sets[@]}" "${extra[@]}" >"$dir.log" 2>&1 ||
      { echo "tune: candidate $index seed $seed failed (see $dir.log)" >&2; exit 1; }
    if [ "$eval_episodes" != 0 ]; then
      "$troupe" eval "$dir" --episodes "$eval_episodes" --json "$dir/eval.json" >>"$dir.log" 2>&1 ||
        { echo "tune: evaluating candidate $index seed $seed failed (see $dir.log)" >&2; exit 1; }
    fi
  done
  index=$((index + 1))
done
python3 "$source_dir/scripts/tune_table.py" "$out" "$seeds"
