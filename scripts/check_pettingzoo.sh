#!/usr/bin/env bash
# Checks Troupe's native ConnectFour-v0 against PettingZoo's own
# connect_four_v3 (docs/multiagent.md, "Against the real PettingZoo"): a
# barely trained policy plays GAMES games from each seat against
# scripts/pettingzoo/connect_four_replay.py, which replays each game in
# PettingZoo and compares every observation and action mask it is given.
# Exits 1 when any position differs. PettingZoo is not one of Troupe's
# dependencies: give the interpreter and the path that have it (with
# Gymnasium and numpy).
#
#   scripts/check_pettingzoo.sh [--python PATH] [--path DIR[,DIR...]] [--games N] [--out DIR] [--troupe PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
python=python3 path="" games=25 out=runs/check_pettingzoo troupe=build/troupe
while [ $# -gt 0 ]; do
  case "$1" in
    --python) python=$2; shift 2 ;;
    --path) path=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --troupe) troupe=$2; shift 2 ;;
    *) echo "check_pettingzoo: unknown argument $1" >&2; exit 2 ;;
  esac
done
players="$(pwd)/scripts/pettingzoo"
python_path="[${path:+$path,}$players]"
if ! PYTHONPATH="${path//,/:}" "$python" -c "import pettingzoo.classic.connect_four_v3" 2>/dev/null; then
  echo "check_pettingzoo: $python cannot import pettingzoo.classic.connect_four_v3${path:+ from $path}" >&2
  exit 2
fi
rm -rf "$out" && mkdir -p "$out"
export REPLAY_LOG="$(cd "$out" && pwd)/positions.jsonl"
# A policy of a few updates: near-random moves make long games.
"$troupe" train configs/connect_four_selfplay.yaml --run-dir "$out/run" --set run.stop.env_steps=2000 \
  --set log.progress=false --set env.python="$python" --set "env.python_path=$python_path" > "$out/train.log"
for seed in $(seq 1 "$games"); do
  for seat in first second; do
    REPLAY_SEED=$seed "$troupe" eval "$out/run" --episodes 1 --seat "$seat" --seed "$seed" \
      --opponent python:connect_four_replay:player > /dev/null
  done
done
"$python" - "$REPLAY_LOG" <<'SUMMARY'
import json, sys
positions = [json.loads(line) for line in open(sys.argv[1])]
differ = [p for p in positions if not (p["observation_equal"] and p["mask_equal"])]
print("check_pettingzoo: %d positions, %d with a full column, up to %d pieces; %d differ from connect_four_v3"
      % (len(positions), sum(p["full_columns"] > 0 for p in positions),
         max(p["pieces"] for p in positions), len(differ)))
sys.exit(1 if differ or not positions else 0)
SUMMARY
