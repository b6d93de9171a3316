#!/usr/bin/env bash
# Instructions per cycle of each `make bench` harness, under callgrind: deterministic where the wall
# clock of a shared machine is not. Each harness runs in its own process on the same recorded
# stimulus (crates/dcqcn-cosim/examples/per_cycle.rs); the recording alone ("none") is subtracted.
# Usage: scripts/bench_instructions.sh <per_cycle binary> [repeat]
set -euo pipefail
bin=${1:?usage: bench_instructions.sh <per_cycle binary> [repeat]}
repeat=${2:-4}
command -v valgrind >/dev/null || { echo "error: valgrind not found (make deps installs it)" >&2; exit 2; }
# "<instructions> <cycles replayed>" of one harness (per_cycle prints the cycles it replayed).
refs() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$repeat" 2>&1 \
    | awk '/Collected/ { n = $4 } / cycles$/ { c = $2 } END { print n, c }'
}
read -r base cycles < <(refs none)
printf '%-10s %12s  (%d cycles each, callgrind, the recording subtracted)\n' harness instr/cycle "$cycles"
declare -A per
for h in model model-all bare lockstep; do
  read -r n _ < <(refs "$h")
  per[$h]=$(awk -v n="$n" -v b="$base" -v c="$cycles" 'BEGIN { printf "%.1f", (n - b) / c }')
  printf '%-10s %12s\n' "$h" "${per[$h]}"
done
awk -v l="${per[lockstep]}" -v b="${per[bare]}" -v m="${per[model]}" 'BEGIN {
  printf "lockstep - bare = %.1f instructions per cycle (the model %.1f, the rest the bridge and the comparison); bare / lockstep = %.3f\n", l - b, m, b / l }'
