#!/usr/bin/env bash
# The scaling suite behind docs/results.md's "More agents, more machines":
# how A3C and PPO learn as agents are added on one machine and as cluster
# workers join over loopback TCP, and A3C trained far past its target.
#
#   scripts/scaling.sh [--out DIR] [--only cartpole|cluster|breakout|past]...
#                      [--seeds "1 2 3 4 5"] [--agents "1 2 4 8 16 32"] [--troupe PATH]
#
#   cartpole  configs/cartpole.yaml (A3C) and configs/cartpole_ppo.yaml with
#             agents.count 1, 2, 4, 8, 16, 32, seeds 1-5 (60 runs of 1-5 s)
#   cluster   the same two configs served (troupe serve, no local agents) to
#             2 workers x 4 agents (one SIGKILLed 4 s in) and 4 workers x 4
#             agents (troupe join), over loopback, seeds 1-5; then 10 tries
#             of A3C with 2 x 4, one killed 4 s in, and 10 with it killed
#             1.5 s in (before the run solves), for the tally
#   breakout  configs/minatar_breakout.yaml (A3C) and _ppo.yaml at 5M frames
#             with agents.count 1, 2, 4, 8, 16, 32, seeds 1-3 (36 runs: A3C
#             about 2-3 minutes a run on 2 cores, PPO about 7)
#   past      configs/cartpole.yaml with no reachable target, its whole budget
#             (3M env steps), seeds 1-40 (about 8 s each), then `troupe eval
#             --best` of each
#
# Runs already finished in DIR (a summary.json) are kept, so an interrupted
# suite goes on where it stopped. At the end scripts/scaling_table.py DIR
# writes DIR/scaling.md (the tables) and DIR/scaling.json.
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
troupe="$source_dir/build/troupe"
out="results"
seeds=""
agent_counts="1 2 4 8 16 32"
only=()
while (($#)); do
  case "$1" in
    --out|--only|--seeds|--agents|--troupe)
      (($# >= 2)) || { echo "scaling: $1 needs a value (see --help)" >&2; exit 2; } ;;
  esac
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --agents) agent_counts="$2"; shift 2 ;;
    --troupe) troupe="$2"; shift 2 ;;
    --only)
      case "$2" in
        cartpole|cluster|breakout|past) only+=("$2") ;;
        *) echo "scaling: --only '$2': expected cartpole, cluster, breakout or past" >&2; exit 2 ;;
      esac
      shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "scaling: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$troupe" ] || { echo "scaling: no troupe binary at $troupe (scripts/setup.sh builds it)" >&2; exit 2; }
((${#only[@]})) || only=(cartpole cluster breakout past)
wants() { local s; for s in "${only[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
mkdir -p "$out/runs"
quiet=(--set log.progress=false --set log.plot=false)

# train NAME CONFIG [--set ...]: one training run into $out/runs/NAME.
train() {
  local name="$1" config="$2"
  shift 2
  local dir="$out/runs/$name"
  if [ -f "$dir/summary.json" ]; then echo "scaling: $name done already"; return; fi
  rm -rf "$dir"
  echo "scaling: $name"
  "$troupe" train "$config" --run-dir "$dir" "${quiet[@]}" "$@" > "$dir.log" 2>&1 ||
    echo "scaling: $name exited with $? (see $dir.log)"
}

# serve NAME CONFIG WORKERS AGENTS KILL_AFTER [--set ...]: a learner with no
# agents of its own and WORKERS workers of AGENTS agents each on loopback;
# the first worker is SIGKILLed KILL_AFTER seconds in (0: none is).
serve() {
  local name="$1" config="$2" workers="$3" agents="$4" kill_after="$5"
  shift 5
  local dir="$out/runs/$name"
  if [ -f "$dir/summary.json" ]; then echo "scaling: $name done already"; return; fi
  rm -rf "$dir" "$dir.killed"
  echo "scaling: $name"
  local token
  token="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  "$troupe" serve "$config" --listen 127.0.0.1:0 --token "$token" --run-dir "$dir" \
    --set agents.count=0 "${quiet[@]}" "$@" > "$dir.log" 2>&1 &
  local learner=$! address="" i
  for _ in $(seq 1 300); do
    address="$(grep -o 'listening for workers on [0-9.]*:[0-9]*' "$dir.log" 2>/dev/null | awk '{print $5}')" || true
    [ -n "$address" ] && break
    sleep 0.05
  done
  [ -n "$address" ] || { echo "scaling: $name: the learner did not listen (see $dir.log)"; kill $learner; wait $learner || true; return; }
  local pids=()
  for i in $(seq 1 "$workers"); do
    "$troupe" join "$address" --token "$token" --agents "$agents" --name "worker-$i" \
      > "$dir.worker-$i.log" 2>&1 &
    pids+=($!)
  done
  if [ "$kill_after" != 0 ]; then
    ( sleep "$kill_after"; kill -KILL "${pids[0]}" 2>/dev/null && echo "killed worker-1 at ${kill_after}s" > "$dir.killed" ) &
  fi
  wait $learner || echo "scaling: $name exited with $? (see $dir.log)"
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  wait
}

a3c="$source_dir/configs/cartpole.yaml"
ppo="$source_dir/configs/cartpole_ppo.yaml"
if wants cartpole; then
  for s in ${seeds:-1 2 3 4 5}; do
    for n in $agent_counts; do
      train "cartpole-a3c-a$n-s$s" "$a3c" --set run.seed="$s" --set agents.count="$n"
      train "cartpole-ppo-a$n-s$s" "$ppo" --set run.seed="$s" --set agents.count="$n"
    done
  done
fi
if wants cluster; then
  for s in ${seeds:-1 2 3 4 5}; do
    for kind in a3c ppo; do
      config="$a3c"; [ $kind = ppo ] && config="$ppo"
      serve "cartpole-$kind-w2x4-s$s" "$config" 2 4 4 --set run.seed="$s"
      serve "cartpole-$kind-w4x4-s$s" "$config" 4 4 0 --set run.seed="$s"
    done
  done
  for t in 1 2 3 4 5 6 7 8 9 10; do
    serve "cluster-try-$t" "$a3c" 2 4 4 --set run.seed="$((100 + t))"
    # The same with the kill 1.5 s in, while the run is still learning.
    serve "cluster-try-early-$t" "$a3c" 2 4 1.5 --set run.seed="$((100 + t))"
  done
fi
if wants breakout; then
  for s in ${seeds:-1 2 3}; do
    for n in $agent_counts; do
      train "breakout-a3c-a$n-s$s" "$source_dir/configs/minatar_breakout.yaml" \
        --set run.seed="$s" --set agents.count="$n"
      train "breakout-ppo-a$n-s$s" "$source_dir/configs/minatar_breakout_ppo.yaml" \
        --set run.seed="$s" --set agents.count="$n" --set run.stop.env_steps=5000000
    done
  done
fi
if wants past; then
  for s in ${seeds:-$(seq -s " " 1 40)}; do
    name="past-a3c-s$s"
    # Checkpoints as often as the SIGKILL end-to-end test writes them: the
    # writer's pauses change the timing the learner trains with.
    train "$name" "$a3c" --set run.seed="$s" --set run.stop.mean_return=100000 \
      --set checkpoint.every_seconds=0.05
    if [ -f "$out/runs/$name/summary.json" ] && [ ! -f "$out/runs/$name/eval_best.json" ]; then
      "$troupe" eval "$out/runs/$name" --best --episodes 100 --json "$out/runs/$name/eval_best.json" > /dev/null ||
        echo "scaling: eval --best of $name failed"
    fi
  done
fi
python3 "$source_dir/scripts/scaling_table.py" "$out"
