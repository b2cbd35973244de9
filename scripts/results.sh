#!/usr/bin/env bash
# The results suite behind docs/results.md: trains every config of the table
# for seeds 1-3, scores each final checkpoint with `troupe eval --episodes
# 100`, and writes the table and one learning-curve figure per game.
#
#   scripts/results.sh [--out DIR] [--seeds "1 2 3"] [--only minatar|pomdp|classic|ppo|long|mujoco|gymnasium]...
#                      [--games "asterix breakout freeway seaquest space_invaders"]
#                      [--set KEY=VALUE]... [--troupe PATH/TO/troupe] [--gymnasium DIR]
#
#   --set     applied to every training run, after the suite's own settings
#             (run.stop.wall_seconds=60, say, for a quick look; such a table
#             is not the published one)
#   --troupe  the binary to run (default: build/troupe of this checkout)
#   --gymnasium  a Gymnasium source tree (its directory holding gymnasium/),
#             for the gymnasium part when the interpreter has no gymnasium
#
#   minatar   configs/minatar_<game>.yaml, 5M frames each, feed-forward and LSTM
#             (--set model.recurrent.kind=lstm --set algo.lr=0.0005): 30 runs,
#             about 1.5 hours on 2 cores
#   pomdp     configs/cartpole_pomdp_lstm.yaml (CartPole seeing [x, theta]) with the
#             LSTM, and the same with a feed-forward policy for comparison
#   classic   configs/cartpole.yaml, acrobot.yaml, pendulum.yaml
#   ppo       PPO: configs/minatar_<game>_ppo.yaml, 10M frames each (15 runs
#             of 10-17 minutes on 2 cores: 3-4 hours), configs/cartpole_ppo.yaml and
#             configs/cartpole_pomdp_lstm_ppo.yaml
#   long      Breakout to 20M frames, A3C (configs/minatar_breakout.yaml) and
#             PPO (configs/minatar_breakout_ppo.yaml), seed 1 only: what the
#             budget buys each (about 30 minutes)
#   mujoco    PPO on HalfCheetah-v4, Hopper-v4, Walker2d-v4 and Ant-v4
#             (configs/mujoco_<task>.yaml), 1M env steps each, the final
#             checkpoint scored over 10 episodes (12 runs of a few minutes),
#             with run.deterministic: each row reproduces exactly
#   gymnasium Gymnasium's Taxi-v3 (configs/gymnasium_taxi_ppo.yaml, masks
#             from info) and Blackjack-v1 (configs/gymnasium_blackjack_ppo.yaml,
#             a Tuple observation), scored greedily over 1000 and 20000
#             episodes (6 runs of up to 5 minutes); not in the default set,
#             since it needs gymnasium
#
# Runs already finished in DIR (a summary.json and an eval.json) are kept, so
# an interrupted suite picks up where it stopped. At the end it calls
# scripts/results_table.py DIR, which writes DIR/results.json, DIR/results.md
# and the figures DIR/curves_<game>.png (A3C), DIR/curves_<game>_ppo.png,
# DIR/curves_breakout_20m.png and DIR/curves_mujoco_<task>.png.
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
out="results"
seeds="1 2 3"
games="asterix breakout freeway seaquest space_invaders"
only=()
sets=()
gymnasium=()
while (($#)); do
  case "$1" in
    --out|--seeds|--games|--only|--set|--troupe|--gymnasium)
      (($# >= 2)) || { echo "results: $1 needs a value (see --help)" >&2; exit 2; } ;;
  esac
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --only)
      case "$2" in
        classic|pomdp|minatar|ppo|long|mujoco|gymnasium) only+=("$2") ;;
        *) echo "results: --only '$2': expected classic, pomdp, minatar, ppo, long, mujoco or gymnasium" >&2; exit 2 ;;
      esac
      shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --troupe) troupe="$2"; shift 2 ;;
    --gymnasium) gymnasium=(--set "env.python_path=[$(cd "$2" && pwd)]"); shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "results: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$troupe" ] || { echo "results: no troupe binary at $troupe (scripts/setup.sh builds it)" >&2; exit 2; }
((${#only[@]})) || only=(classic pomdp minatar ppo long mujoco)
wants() { local s; for s in "${only[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
mkdir -p "$out/runs"

# run NAME CONFIG [--set ...]: one training run and its evaluation (over
# $eval_episodes episodes, with $eval_flags).
eval_episodes=100
eval_flags=()
run() {
  local name="$1" config="$2"
  shift 2
  local dir="$out/runs/$name"
  if [ -f "$dir/summary.json" ] && [ -f "$dir/eval.json" ]; then
    echo "results: $name done already"
    return
  fi
  rm -rf "$dir"
  echo "results: $name ($(date +%H:%M:%S))"
  "$troupe" train "$config" --run-dir "$dir" --set log.progress_seconds=5 "$@" "${sets[@]}" >"$dir.log" 2>&1 ||
    { echo "results: $name failed (see $dir.log)" >&2; return 1; }
  "$troupe" eval "$dir" --episodes "$eval_episodes" "${eval_flags[@]}" --json "$dir/eval.json" >>"$dir.log" 2>&1
}

if wants classic; then
  for seed in $seeds; do
    run "cartpole-s$seed" "$source_dir/configs/cartpole.yaml" --set run.seed="$seed"
    run "acrobot-s$seed" "$source_dir/configs/acrobot.yaml" --set run.seed="$seed"
    run "pendulum-s$seed" "$source_dir/configs/pendulum.yaml" --set run.seed="$seed"
  done
fi
if wants pomdp; then
  for seed in $seeds; do
    run "cartpole_pomdp-lstm-s$seed" "$source_dir/configs/cartpole_pomdp_lstm.yaml" --set run.seed="$seed"
    # Feed-forward, the same budget the LSTM needed at most (wall_seconds).
    run "cartpole_pomdp-ff-s$seed" "$source_dir/configs/cartpole_pomdp_lstm.yaml" --set run.seed="$seed" \
      --set model.recurrent.kind=none
  done
fi
if wants minatar; then
  # Every feed-forward run first: an interrupted suite then has whole rows.
  for core in ff lstm; do
    # The LSTM learns at half the rate: at 0.001 Breakout's LSTM policy fell
    # to one action (return 0) within 0.7M frames, twice in two tries.
    if [ "$core" = ff ]; then core_settings=(--set model.recurrent.kind=none)
    else core_settings=(--set model.recurrent.kind=lstm --set algo.lr=0.0005); fi
    for game in $games; do
      for seed in $seeds; do
        run "$game-$core-s$seed" "$source_dir/configs/minatar_$game.yaml" --set run.seed="$seed" \
          "${core_settings[@]}"
      done
    done
  done
fi
if wants ppo; then
  for seed in $seeds; do
    run "cartpole-ppo-s$seed" "$source_dir/configs/cartpole_ppo.yaml" --set run.seed="$seed"
    run "cartpole_pomdp-lstm_ppo-s$seed" "$source_dir/configs/cartpole_pomdp_lstm_ppo.yaml" --set run.seed="$seed"
  done
  for game in $games; do
    for seed in $seeds; do
      run "$game-ppo-s$seed" "$source_dir/configs/minatar_${game}_ppo.yaml" --set run.seed="$seed"
    done
  done
fi
if wants long; then
  # Seed 1 only: the point is the shape of the curves past 5M frames.
  run "breakout-a3c_20m-s1" "$source_dir/configs/minatar_breakout.yaml" --set run.stop.env_steps=20000000
  run "breakout-ppo_20m-s1" "$source_dir/configs/minatar_breakout_ppo.yaml" --set run.stop.env_steps=20000000
fi
if wants mujoco; then
  # The MuJoCo tasks' protocol: 1M env steps, the final checkpoint scored
  # over 10 episodes, as CleanRL's published numbers are. Deterministic: a
  # reader reproduces a row exactly on the same machine and build, and the
  # mode costs these configs nothing (their agents wait for each rollout to
  # train anyway; docs/determinism.md).
  eval_episodes=10
  for task in halfcheetah hopper walker2d ant; do
    for seed in $seeds; do
      run "mujoco_$task-ppo-s$seed" "$source_dir/configs/mujoco_$task.yaml" --set run.seed="$seed" \
        --set run.deterministic=true
    done
  done
  eval_episodes=100
fi
if wants gymnasium; then
  # Issue #42's protocol: the final checkpoint, greedy.
  eval_flags=(--greedy)
  for seed in $seeds; do
    eval_episodes=1000
    run "gymnasium_taxi-ppo-s$seed" "$source_dir/configs/gymnasium_taxi_ppo.yaml" --set run.seed="$seed" \
      "${gymnasium[@]}"
    eval_episodes=20000
    run "gymnasium_blackjack-ppo-s$seed" "$source_dir/configs/gymnasium_blackjack_ppo.yaml" \
      --set run.seed="$seed" "${gymnasium[@]}"
  done
  eval_flags=()
  eval_episodes=100
fi
python3 "$source_dir/scripts/results_table.py" "$out"
