#!/usr/bin/env bash
# Synthesises rtl/ for UltraScale (Yosys synth_xilinx -family xcu, generic, unplaced) at 8-byte beats
# and prints LUT / FF / DSP / BRAM beside the paper's Table I and upstream SURF through the same flow.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/synth
log=target/synth/yosys.log
# DATA_BYTES defaults to 8 in the RTL; chparam is only used for other widths (re-elaboration by
# chparam makes Yosys 0.23 map the same design slightly differently).
chparam=""
[ "${DATA_BYTES:-8}" = 8 ] || chparam="chparam -set DATA_BYTES ${DATA_BYTES} dcqcn_rl;"
yosys -q -l "$log" -p "read_verilog -sv -Irtl $(ls rtl/*.sv | tr '\n' ' '); $chparam \
  synth_xilinx -family xcu -top dcqcn_rl -flatten; \
  tee -o target/synth/stat.txt stat" >/dev/null
stat=target/synth/stat.txt
count() { awk -v re="$1" '$1 ~ re { n += $2 } END { print n + 0 }' "$stat"; }
lut=$(count '^LUT[1-6]$')
ff=$(count '^FD[RSCP]E$')
dsp=$(count '^DSP48E2$')
bram36=$(count '^RAMB36E2$')
bram18=$(count '^RAMB18E2$')
carry=$(count "^CARRY[48]$")
bram=$(awk -v a="$bram36" -v b="$bram18" 'BEGIN { print a + b / 2 }')
printf '%-10s %12s %22s %28s\n' "resource" "this RTL" "paper Table I (Vivado)" "upstream SURF (same Yosys)"
printf '%-10s %12s %22s %28s\n' "LUT" "$lut" "1337" "~3630"
printf '%-10s %12s %22s %28s\n' "FF" "$ff" "2557" "~4510"
printf '%-10s %12s %22s %28s\n' "DSP" "$dsp" "5" "5"
printf '%-10s %12s %22s %28s\n' "BRAM36" "$bram" "18" "33.5"
printf "%-10s %12s\n" "CARRY4/8" "$carry"
echo "(Yosys 0.23 synth_xilinx -family xcu -flatten, DATA_BYTES=${DATA_BYTES:-8}; full statistics: $stat)"
fail=0
[ "$lut" -lt 1337 ] || { echo "LUT not below Table I" >&2; fail=1; }
[ "$ff" -lt 2557 ] || { echo "FF not below Table I" >&2; fail=1; }
[ "$dsp" -le 5 ] || { echo "DSP above Table I" >&2; fail=1; }
[ "$bram36" -eq 0 ] && [ "$bram18" -eq 0 ] || { echo "BRAM used" >&2; fail=1; }
exit $fail
