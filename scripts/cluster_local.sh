#!/bin/bash
# Tries cluster mode on one machine: a learner (troupe serve) and N workers
# (troupe join) over loopback TCP. Usage:
#   scripts/cluster_local.sh [CONFIG] [WORKERS] [AGENTS_PER_WORKER] [-- extra serve args]
# The learner runs with no agents of its own; its run directory is printed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
troupe="${TROUPE:-$here/build/troupe}"
config="${1:-$here/configs/cartpole.yaml}"
workers="${2:-2}"
agents="${3:-1}"
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
[ -x "$troupe" ] || { echo "cluster_local: $troupe not built (run scripts/setup.sh)" >&2; exit 2; }

token="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
logs="$(mktemp -d /tmp/troupe-cluster-XXXXXX)"
"$troupe" serve "$config" --listen 127.0.0.1:0 --token "$token" --set agents.count=0 "$@" \
  > >(tee "$logs/learner.log") 2>&1 &
learner=$!
trap 'kill $learner 2>/dev/null || true; wait' INT TERM

address=""
for _ in $(seq 1 300); do
  address="$(grep -o 'listening for workers on [0-9.]*:[0-9]*' "$logs/learner.log" 2>/dev/null | awk '{print $5}')" || true
  [ -n "$address" ] && break
  kill -0 $learner 2>/dev/null || { echo "cluster_local: the learner exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$address" ] || { echo "cluster_local: the learner did not start listening" >&2; exit 1; }

for i in $(seq 1 "$workers"); do
  "$troupe" join "$address" --token "$token" --agents "$agents" --name "worker-$i" \
    > "$logs/worker-$i.log" 2>&1 &
done
echo "cluster_local: learner at $address, $workers workers x $agents agents; logs in $logs"
wait $learner
status=$?
wait
exit $status
