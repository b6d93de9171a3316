#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Replays golden vector sets with the VHDL testbench (GHDL) on the gate-level VHDL netlist of the RTL.
#
# usage: testbench/vhdl/run.sh [<set-dir>...]   (default: every golden/*/ holding a vectors.txt;
#                                               a set's vectors.txt path also names the set)
#
# Per set: reads data_bytes from the vectors.txt header and clk_hz / line_rate_bytes_per_s from
# manifest.txt, builds (once per combination, cached under target/golden-vhdl/w<N>[-f<F>-l<L>]/) the
# netlist with scripts/netlist2vhdl.py, analyses it and
# testbench/vhdl/tb_golden.vhd with `ghdl -a --std=08`, elaborates and runs tb_golden, prints the
# testbench's PASS / MISMATCH / `<file>:<line>: <reason>` line and the replay speed. Exits non-zero if
# any set fails. GHDL's full output of each set is kept in target/golden-vhdl/logs/<set>.log.
# Environment: GHDL (default ghdl), YOSYS (default yosys), PYTHON (default python3), RTL_DATA_BYTES
# (builds the DUT with this beat width instead of the set's, to check that the mismatch is reported).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
GHDL=${GHDL:-ghdl}
YOSYS=${YOSYS:-yosys}
PYTHON=${PYTHON:-python3}
GHDLFLAGS=(--std=08)
out=$root/target/golden-vhdl
tb=$root/testbench/vhdl/tb_golden.vhd

now_ns() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }

# build KEY N F L: netlist, analysis and elaboration for DATA_BYTES N, CLK_FREQ_HZ F, LINE_RATE L
# in target/golden-vhdl/KEY (each step skipped when current)
build() {
  local wd=$out/$1 log
  log=$(nice "$PYTHON" "$root/scripts/netlist2vhdl.py" --data-bytes "$2" --clk-freq-hz "$3" \
          --line-rate "$4" --out "$wd" --yosys "$YOSYS" 2>&1) || { echo "$log"; return 1; }
  if [ ! -f "$wd/work-obj08.cf" ] || [ "$wd/dcqcn_cosim_top.vhd" -nt "$wd/work-obj08.cf" ] ||
     [ "$tb" -nt "$wd/work-obj08.cf" ]; then
    rm -f "$wd/work-obj08.cf"
    (cd "$wd" && nice "$GHDL" -a "${GHDLFLAGS[@]}" dcqcn_cosim_top.vhd "$tb") || return 1
  fi
  (cd "$wd" && nice "$GHDL" -e "${GHDLFLAGS[@]}" tb_golden) || return 1
}

sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  for d in "$root"/golden/*/; do
    [ -f "$d/vectors.txt" ] && sets+=("${d%/}")
  done
  [ ${#sets[@]} -gt 0 ] || { echo "run.sh: no golden/*/vectors.txt; usage: $0 <set-dir>..." >&2; exit 2; }
fi

mkdir -p "$out/logs"
declare -A built=()
fail=0
passed=0
for dir in "${sets[@]}"; do
  if [ -f "$dir" ]; then  # a vectors.txt path instead of its set folder
    dir=$(dirname "$dir")
  fi
  vec=$(cd "$dir" 2>/dev/null && pwd)/vectors.txt
  set_name=$(basename "$(cd "$dir" 2>/dev/null && pwd || echo "$dir")")
  if [ ! -f "$vec" ]; then
    echo "$dir/vectors.txt:0: cannot open"
    fail=1
    continue
  fi
  # beat width: the header's data_bytes line (the testbench checks the header in full);
  # clock and line rate, which vectors.txt does not hold, from manifest.txt (RTL defaults without it)
  db=$(awk '/^data_bytes [0-9]+$/ { print $2; exit } /^f / { exit }' "$vec")
  if [ -z "$db" ] || [ "$db" -lt 1 ] || [ "$db" -gt 64 ]; then
    echo "$vec: no \`data_bytes <1..64>\` line in the header"
    fail=1
    continue
  fi
  # RTL_DATA_BYTES forces the DUT's beat width (to check that a mismatch is reported)
  db=${RTL_DATA_BYTES:-$db}
  clk_hz=156250000
  line_rate=1250000000
  if [ -f "$dir/manifest.txt" ]; then
    clk_hz=$(awk -v d="$clk_hz" '$1 == "clk_hz" { d = $2 } END { print d }' "$dir/manifest.txt")
    line_rate=$(awk -v d="$line_rate" '$1 == "line_rate_bytes_per_s" { d = $2 } END { print d }' "$dir/manifest.txt")
  fi
  key=w$db
  [ "$clk_hz.$line_rate" = 156250000.1250000000 ] || key=w$db-f$clk_hz-l$line_rate
  if [ -z "${built[$key]:-}" ]; then
    t0=$(now_ns)
    if build "$key" "$db" "$clk_hz" "$line_rate"; then
      built[$key]=ok
      echo "built $key (DATA_BYTES=$db CLK_FREQ_HZ=$clk_hz LINE_RATE=$line_rate): netlist of" \
           "$(sed -n 's/^-- of dcqcn_cosim_top; \([0-9]*\) cells.*/\1/p' "$out/$key/dcqcn_cosim_top.vhd")" \
           "cells, analysed and elaborated in $(secs $(( $(now_ns) - t0 ))) s"
    else
      built[$key]=failed
    fi
  fi
  if [ "${built[$key]}" != ok ]; then
    echo "$vec: cannot build the $key netlist and testbench (see above)"
    fail=1
    continue
  fi

  # run; the testbench prints START before the first cycle, so the replay is timed from it
  log=$out/logs/$set_name.log
  t0=$(now_ns)
  t_start=""
  t_end=""
  result=""
  while IFS= read -r l; do
    printf '%s\n' "$l" >>"$log"
    case $l in
      "START $set_name") t_start=$(now_ns) ;;
      "PASS "* | "MISMATCH "* | "$vec:"*)
        [ -n "$result" ] || { result=$l; t_end=$(now_ns); } ;;
    esac
  done < <(: >"$log"; cd "$out/$key" && nice "$GHDL" -r "${GHDLFLAGS[@]}" tb_golden \
             "-gVECTORS=$vec" "-gSET_NAME=$set_name" "-gDATA_BYTES=$db" 2>&1; echo "ghdl exit $?")
  t1=$(now_ns)
  status=$(tail -n 1 "$log")
  if [ -z "$result" ]; then
    result="$vec: no verdict from the testbench ($status; see $log)"
  fi
  echo "$result"
  case $result in
    "PASS "*)
      if [ "$status" != "ghdl exit 0" ]; then
        echo "$vec: testbench passed but $status (see $log)"
        fail=1
      else
        passed=$((passed + 1))
        cycles=$(echo "$result" | awk '{ print $3 }')
        replay_ns=$(( t_end - t_start ))
        awk -v c="$cycles" -v r="$replay_ns" -v t="$(( t1 - t0 ))" -v s="$set_name" 'BEGIN {
          printf "  %s: replay %.2f s, %.0f cycles/s (run with checks and elaboration %.2f s, %.0f cycles/s)\n",
                 s, r / 1e9, c / (r > 0 ? r / 1e9 : 1e-9), t / 1e9, c / (t / 1e9) }'
      fi
      ;;
    *)
      fail=1
      ;;
  esac
done
echo "golden VHDL replay: $passed of ${#sets[@]} sets passed"
exit $fail
