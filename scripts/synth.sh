#!/usr/bin/env bash
# Synthesises rtl/ for UltraScale (Yosys synth_xilinx -family xcu, generic, unplaced) at 8-byte beats
# and prints LUT / FF / DSP / BRAM beside the paper's Table I and upstream SURF through the same flow.
# HDL=sv (default): the SV RTL only. HDL=vhdl or HDL=both: also the VHDL twin rtl/vhdl/ (ghdl --synth
# through scripts/vhdl2verilog.py, then the same synth_xilinx), in a column beside the SV; it fails
# if the twin needs more than 5 % more LUTs or FFs than the SV, more DSPs, any BRAM or any latch.
set -euo pipefail
cd "$(dirname "$0")/.."
HDL=${HDL:-sv}
case $HDL in sv | vhdl | both) ;; *) echo "synth.sh: HDL=$HDL; use sv, vhdl or both" >&2; exit 2 ;; esac
mkdir -p target/synth
# DATA_BYTES defaults to 8 in the RTL; chparam is only used for other widths (re-elaboration by
# chparam makes Yosys 0.23 map the same design slightly differently).
chparam=""
[ "${DATA_BYTES:-8}" = 8 ] || chparam="chparam -set DATA_BYTES ${DATA_BYTES} dcqcn_rl;"
yosys -q -l target/synth/yosys.log -p "read_verilog -sv -Irtl $(ls rtl/*.sv | tr '\n' ' '); $chparam \
  synth_xilinx -family xcu -top dcqcn_rl -flatten; \
  tee -o target/synth/stat.txt stat" >/dev/null
if [ "$HDL" != sv ]; then
  mkdir -p target/synth/vhdl
  python3 scripts/vhdl2verilog.py --data-bytes "${DATA_BYTES:-8}" --out target/synth/vhdl/dcqcn_rl.v
  yosys -q -l target/synth/vhdl/yosys.log -p "read_verilog target/synth/vhdl/dcqcn_rl.v; \
    synth_xilinx -family xcu -top dcqcn_rl -flatten; tee -o target/synth/vhdl/stat.txt stat" >/dev/null
fi
# count <stat file> <cell name regex>
count() { awk -v re="$2" '$1 ~ re { n += $2 } END { print n + 0 }' "$1"; }
# resources <stat file>: sets lut ff dsp bram36 bram18 bram carry latch
resources() {
  lut=$(count "$1" '^LUT[1-6]$')
  ff=$(count "$1" '^FD[RSCP]E$')
  dsp=$(count "$1" '^DSP48E2$')
  bram36=$(count "$1" '^RAMB36E2$')
  bram18=$(count "$1" '^RAMB18E2$')
  carry=$(count "$1" '^CARRY[48]$')
  latch=$(count "$1" '^LD[CP]E$')
  bram=$(awk -v a="$bram36" -v b="$bram18" 'BEGIN { print a + b / 2 }')
}
# check_sv: the SV below Table I, no BRAM (after resources target/synth/stat.txt)
fail=0
check_sv() {
  [ "$lut" -lt 1337 ] || { echo "LUT $lut not below Table I's 1337 (+$((lut - 1337)))" >&2; fail=1; }
  [ "$ff" -lt 2557 ] || { echo "FF $ff not below Table I's 2557 (+$((ff - 2557)))" >&2; fail=1; }
  [ "$dsp" -le 5 ] || { echo "DSP $dsp above Table I's 5 (+$((dsp - 5)))" >&2; fail=1; }
  [ "$bram36" -eq 0 ] && [ "$bram18" -eq 0 ] || { echo "BRAM used" >&2; fail=1; }
}
resources target/synth/stat.txt
note="(Yosys 0.23 synth_xilinx -family xcu -flatten, DATA_BYTES=${DATA_BYTES:-8}; full statistics:"
if [ "$HDL" = sv ]; then
  printf '%-10s %12s %22s %28s\n' "resource" "this RTL" "paper Table I (Vivado)" "upstream SURF (same Yosys)"
  printf '%-10s %12s %22s %28s\n' "LUT" "$lut" "1337" "~3630"
  printf '%-10s %12s %22s %28s\n' "FF" "$ff" "2557" "~4510"
  printf '%-10s %12s %22s %28s\n' "DSP" "$dsp" "5" "5"
  printf '%-10s %12s %22s %28s\n' "BRAM36" "$bram" "18" "33.5"
  printf "%-10s %12s\n" "CARRY4/8" "$carry"
  echo "$note target/synth/stat.txt)"
  check_sv
  exit $fail
fi
sv=("$lut" "$ff" "$dsp" "$bram" "$carry" "$latch")
check_sv
resources target/synth/vhdl/stat.txt
vh=("$lut" "$ff" "$dsp" "$bram" "$carry" "$latch")
row='%-10s %10s %12s %22s %28s\n'
printf "$row" "resource" "SV RTL" "VHDL twin" "paper Table I (Vivado)" "upstream SURF (same Yosys)"
printf "$row" "LUT" "${sv[0]}" "${vh[0]}" "1337" "~3630"
printf "$row" "FF" "${sv[1]}" "${vh[1]}" "2557" "~4510"
printf "$row" "DSP" "${sv[2]}" "${vh[2]}" "5" "5"
printf "$row" "BRAM36" "${sv[3]}" "${vh[3]}" "18" "33.5"
printf "$row" "CARRY4/8" "${sv[4]}" "${vh[4]}" "" ""
printf "$row" "latches" "${sv[5]}" "${vh[5]}" "" ""
echo "$note target/synth/stat.txt, target/synth/vhdl/stat.txt)"
# the twin: at most 5 % more LUTs and FFs than the SV, no more DSPs, no BRAM, no latch
[ $((vh[0] * 100)) -le $((sv[0] * 105)) ] || { echo "VHDL LUT more than 5 % above the SV" >&2; fail=1; }
[ $((vh[1] * 100)) -le $((sv[1] * 105)) ] || { echo "VHDL FF more than 5 % above the SV" >&2; fail=1; }
[ "${vh[2]}" -le "${sv[2]}" ] || { echo "VHDL DSP above the SV" >&2; fail=1; }
[ "$bram36" -eq 0 ] && [ "$bram18" -eq 0 ] || { echo "VHDL uses BRAM" >&2; fail=1; }
[ "${vh[5]}" -eq 0 ] || { echo "VHDL netlist has latches" >&2; fail=1; }
exit $fail
