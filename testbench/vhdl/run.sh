#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Replays golden vector sets with the VHDL testbench (GHDL), on the gate-level VHDL netlist of the SV
# RTL (HDL=netlist, the default) or on the VHDL twin rtl/vhdl/ (HDL=vhdl).
#
# usage: [HDL=netlist|vhdl] testbench/vhdl/run.sh [<set-dir>...]
#                              (default: every golden/*/ holding a vectors.txt; a set's vectors.txt
#                               path also names the set)
#
# Per set: reads data_bytes from the vectors.txt header and clk_hz / line_rate_bytes_per_s from
# manifest.txt, builds the DUT once per combination (cached under target/golden-vhdl/, each step
# skipped when current), elaborates and runs tb_golden, prints the testbench's
# PASS / MISMATCH / `<file>:<line>: <reason>` line and the replay speed. Exits non-zero if any set
# fails. GHDL's full output of each set is kept in target/golden-vhdl/logs/[vhdl-]<set>.log.
#   HDL=netlist: scripts/netlist2vhdl.py makes the netlist of the SV (w<N>[-f<F>-l<L>]/), analysed
#     with the reader testbench/vhdl/golden_reader_pkg.vhd and testbench/vhdl/tb_golden.vhd by
#     `ghdl -a --std=08`.
#   HDL=vhdl: rtl/vhdl/*.vhd, the wrapper testbench/vhdl/dcqcn_cosim_top_vhdl.vhd (+ _tap.vhd),
#     golden_reader_pkg.vhd and tb_golden.vhd analysed by
#     `ghdl -a --std=08 -fsynopsys -frelaxed-rules -fexplicit` (SURF CI's flags) once into vhdl/
#     (the twin is generic: one library for every width), plus a generated
#     configuration tb_golden_<key> per combination that binds the wrapper with the set's
#     DATA_BYTES, CLK_FREQ_HZ and LINE_RATE. tb_golden's component has the port list of the SV
#     wrapper outside lockstep builds (golden format 1's st_* registers); the configuration binds
#     it to a generated entity golden_twin_<key> of those ports, whose instance of the VHDL wrapper
#     leaves the wrapper's other st_* outputs open (an open association in the configuration's
#     binding would draw a warning from GHDL's -Wbinding, one in an instance does not).
# Environment: GHDL (default ghdl; Debian's `ghdl` runs the back end GHDL_BACKEND names: llvm when
# ghdl-llvm is installed, whose compiled simulation replays about 3x faster than mcode's), YOSYS (default yosys), PYTHON (default python3), RTL_DATA_BYTES
# (builds the DUT with this beat width instead of the set's, to check that the mismatch is reported),
# JOBS (sets replayed at once, default one per core), GHDLFLAGS (analysis/elaboration flags; default above, e.g. GHDLFLAGS=--std=08 for the VHDL twin),
# COSIM_ARCH (HDL=vhdl: the wrapper architecture, `tap` or `ext_names`; default ext_names from
# GHDL 3 on, tap before: GHDL 2.0 cannot elaborate VHDL-2008 external names), FEATURES (HDL=vhdl:
# the block's feature configuration, full (default) or base, docs/spec.md 2: a set is replayed only
# where its manifest's `builds` line lists it, SKIP otherwise; a run that replays no set fails).
#
# A set whose manifest says `block dcqcn_mq` (docs/golden-format.md, "The multi-QP block") is
# replayed with tb_golden_mq.vhd on the top level dcqcn_mq of the VHDL twin rtl/vhdl/mq/ (HDL=vhdl;
# with HDL=netlist, or FEATURES other than full, it is SKIPped: there is no netlist of it and it
# has no feature configurations). The twin and the testbench are analysed once into
# target/golden-vhdl/mq/ and elaborated once; QPS, CLK_FREQ_HZ and LINE_RATE come from the
# manifest's qps, clk_hz and line_rate_bytes_per_s as run-time generics (RTL_QPS forces QPS, to
# check that a mismatch is reported). The twin's memories are never reset (spec-mq 4.8), so its
# numeric_std metavalue warnings are switched off for the whole run, not only at time 0; the
# testbench still fails on any output bit that is not a clean 0 or 1.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
GHDL=${GHDL:-ghdl}
YOSYS=${YOSYS:-yosys}
PYTHON=${PYTHON:-python3}
HDL=${HDL:-netlist}
out=$root/target/golden-vhdl
tb=$root/testbench/vhdl/tb_golden.vhd
reader=$root/testbench/vhdl/golden_reader_pkg.vhd  # the reader both testbenches instantiate
case $HDL in
  netlist) default_flags="--std=08" ;;
  vhdl) default_flags="--std=08 -fsynopsys -frelaxed-rules -fexplicit" ;;
  *) echo "run.sh: HDL=$HDL; use netlist or vhdl" >&2; exit 2 ;;
esac
read -r -a GHDLFLAGS <<<"${GHDLFLAGS:-$default_flags}"
FEATURES=${FEATURES:-full}
case $FEATURES in
  full) feature_generics="" ;;
  base) feature_generics="RATE_RULES => false, CONTROL => false, TRACE_DEPTH => 0," ;;
  *) echo "run.sh: FEATURES=$FEATURES; use full or base" >&2; exit 2 ;;
esac
if [ "$FEATURES" != full ] && [ "$HDL" != vhdl ]; then
  echo "run.sh: FEATURES=$FEATURES needs HDL=vhdl (the netlist is of the full SV)" >&2
  exit 2
fi

# Whether the set's manifest lists configuration $FEATURES under `builds` (no line: full only).
listed() {
  local b
  b=$(sed -n 's/^builds //p' "$1/manifest.txt" 2>/dev/null | head -n 1)
  [ -n "$b" ] || b=full
  case " $b " in *" $FEATURES "*) return 0 ;; *) return 1 ;; esac
}
if [ "$GHDL" = ghdl ] && [ -z "${GHDL_BACKEND:-}" ] && command -v ghdl-llvm >/dev/null; then
  export GHDL_BACKEND=llvm
fi
ghdl_major=$("$GHDL" --version 2>/dev/null | sed -n '1s/^GHDL \([0-9]*\)\..*/\1/p')
if [ -z "${COSIM_ARCH:-}" ]; then
  if [ "${ghdl_major:-0}" -ge 3 ]; then COSIM_ARCH=ext_names; else COSIM_ARCH=tap; fi
fi
case $COSIM_ARCH in
  tap | ext_names) ;;
  *) echo "run.sh: COSIM_ARCH=$COSIM_ARCH; use tap or ext_names" >&2; exit 2 ;;
esac
# VHDL twin sources in analysis order, the wrapper (entity and ext_names, then tap), the reader and
# the testbench
vhdl_rtl=(dcqcn_pkg dcqcn_tap_pkg dcqcn_cnp_sync dcqcn_alpha dcqcn_rate_dec dcqcn_rate_inc
          dcqcn_credit_gate dcqcn_regs dcqcn_rl)
vhdl_srcs=()
for u in "${vhdl_rtl[@]}"; do vhdl_srcs+=("$root/rtl/vhdl/$u.vhd"); done
wrapper=$root/testbench/vhdl/dcqcn_cosim_top_vhdl.vhd
vhdl_srcs+=("$wrapper" "$root/testbench/vhdl/dcqcn_cosim_top_tap.vhd" "$reader" "$tb")

# port_decls FILE START END: the port declarations (lines `<name> : in|out ...`, one port a line)
# between the first line matching START and the next line matching END of FILE
port_decls() {
  awk -v s="$2" -v e="$3" '!on && $0 ~ s { on = 1; next }
    on && $0 ~ e { exit }
    on && $2 == ":" && ($3 == "in" || $3 == "out") { print }' "$1"
}
# the ports of tb_golden's component and the names of the wrapper's, for the twin's binding
mapfile -t component_decls < <(port_decls "$tb" '^ *component dcqcn_cosim_top is' '^ *end component' |
                               sed 's/^ */    /')
declare -A component_port=()
for d in "${component_decls[@]}"; do
  read -r p _ <<<"$d"
  component_port[$p]=1
done
mapfile -t wrapper_ports < <(port_decls "$wrapper" '^entity dcqcn_cosim_top is' '^end entity' |
                             awk '{ print $1 }')

now_ns() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }

# build_netlist KEY N F L: netlist, analysis and elaboration for DATA_BYTES N, CLK_FREQ_HZ F,
# LINE_RATE L in target/golden-vhdl/KEY (each step skipped when current)
build_netlist() {
  local wd=$out/$1 log
  log=$(nice "$PYTHON" "$root/scripts/netlist2vhdl.py" --data-bytes "$2" --clk-freq-hz "$3" \
          --line-rate "$4" --out "$wd" --yosys "$YOSYS" 2>&1) || { echo "$log"; return 1; }
  if [ ! -f "$wd/work-obj08.cf" ] || [ "$wd/dcqcn_cosim_top.vhd" -nt "$wd/work-obj08.cf" ] ||
     [ "$reader" -nt "$wd/work-obj08.cf" ] || [ "$tb" -nt "$wd/work-obj08.cf" ] ||
     [ "$(cat "$wd/backend" 2>/dev/null)" != "${GHDL_BACKEND:-}" ]; then
    rm -f "$wd/work-obj08.cf"
    (cd "$wd" && nice "$GHDL" -a "${GHDLFLAGS[@]}" dcqcn_cosim_top.vhd "$reader" "$tb") || return 1
    echo "${GHDL_BACKEND:-}" >"$wd/backend"
  fi
  (cd "$wd" && nice "$GHDL" -e "${GHDLFLAGS[@]}" tb_golden) || return 1
}

# build_vhdl KEY N F L: the twin, its wrapper and tb_golden analysed once into
# target/golden-vhdl/vhdl (again when a source or the flags change), plus the configuration
# tb_golden_<KEY> binding the wrapper architecture COSIM_ARCH with DATA_BYTES (the testbench's
# generic, N at run time), CLK_FREQ_HZ F and LINE_RATE L, through the entity golden_twin_<KEY>
# written with it: tb_golden's component's ports, each from the wrapper's port of its name, the
# wrapper's other ports open
build_vhdl() {
  local wd=$out/vhdl cfg_name=tb_golden_${1//-/_} twin_name=golden_twin_${1//-/_} cfg_file f stale=0
  cfg_file=cfg_$1_$COSIM_ARCH.vhd
  mkdir -p "$wd"
  if [ ! -f "$wd/work-obj08.cf" ] || [ "$(cat "$wd/flags" 2>/dev/null)" != "${GHDL_BACKEND:-} ${GHDLFLAGS[*]}" ]; then
    stale=1
  else
    for f in "${vhdl_srcs[@]}"; do
      [ "$f" -nt "$wd/work-obj08.cf" ] && stale=1
    done
  fi
  if [ $stale = 1 ]; then
    rm -f "$wd"/work-obj08.cf "$wd"/cfg_*.vhd
    local srcs=("${vhdl_srcs[@]}")
    if [ "$COSIM_ARCH" = tap ]; then
      # the wrapper's entity without its ext_names architecture, which GHDL 2.0's LLVM back end
      # cannot analyse (and no GHDL 2.0 back end can elaborate)
      awk '/^architecture ext_names /{ exit } { print }' "$wrapper" >"$wd/dcqcn_cosim_top_entity.vhd"
      srcs=("${srcs[@]/#$wrapper/$wd/dcqcn_cosim_top_entity.vhd}")
    fi
    (cd "$wd" && nice "$GHDL" -a "${GHDLFLAGS[@]}" "${srcs[@]}") || return 1
    echo "${GHDL_BACKEND:-} ${GHDLFLAGS[*]}" >"$wd/flags"
    # the configurations of the other combinations went with the old library: rebuild them too
    for f in "${!built[@]}"; do unset "built[$f]"; done
  fi
  local p i actual
  # (again when this script, which writes it, is newer)
  if [ ! -f "$wd/$cfg_file" ] || [ "$root/testbench/vhdl/run.sh" -nt "$wd/$cfg_file" ]; then
    if [ ${#component_port[@]} -eq 0 ] || [ ${#wrapper_ports[@]} -eq 0 ]; then
      echo "run.sh: no port list in $tb's component dcqcn_cosim_top or $wrapper's entity" >&2
      return 1
    fi
    for p in "${!component_port[@]}"; do
      if ! printf '%s\n' "${wrapper_ports[@]}" | grep -qx "$p"; then
        echo "run.sh: port $p of $tb's component dcqcn_cosim_top is not one of $wrapper's" >&2
        return 1
      fi
    done
    {
      echo "-- generated by testbench/vhdl/run.sh: tb_golden on the VHDL twin, wrapper architecture"
      echo "-- $COSIM_ARCH, CLK_FREQ_HZ $3, LINE_RATE $4, features $FEATURES; DATA_BYTES is the"
      echo "-- testbench's generic"
      echo ""
      echo "library ieee;"
      echo "use ieee.std_logic_1164.all;"
      echo ""
      echo "-- the ports of tb_golden's component dcqcn_cosim_top"
      echo "entity $twin_name is"
      echo "  generic ("
      echo "    DATA_BYTES : positive"
      echo "  );"
      echo "  port ("
      printf '%s\n' "${component_decls[@]}"
      echo "  );"
      echo "end entity $twin_name;"
      echo ""
      echo "architecture wrap of $twin_name is"
      echo "begin"
      echo "  twin : entity work.dcqcn_cosim_top($COSIM_ARCH)"
      echo "    generic map ("
      [ -z "$feature_generics" ] || echo "      $feature_generics"
      echo "      DATA_BYTES  => DATA_BYTES,"
      echo "      CLK_FREQ_HZ => x\"$(printf '%08X' "$3")\","
      echo "      LINE_RATE   => x\"$(printf '%08X' "$4")\""
      echo "    )"
      echo "    port map ("
      for i in "${!wrapper_ports[@]}"; do
        p=${wrapper_ports[$i]}
        actual=open
        [ -n "${component_port[$p]:-}" ] && actual=$p
        [ "$i" -eq $(( ${#wrapper_ports[@]} - 1 )) ] || actual=$actual,
        printf '      %-22s => %s\n' "$p" "$actual"
      done
      echo "    );"
      echo "end architecture wrap;"
      echo ""
      echo "configuration $cfg_name of tb_golden is"
      echo "  for sim"
      echo "    for dut : dcqcn_cosim_top"
      echo "      use entity work.$twin_name(wrap);"
      echo "    end for;"
      echo "  end for;"
      echo "end configuration $cfg_name;"
    } >"$wd/$cfg_file"
    (cd "$wd" && nice "$GHDL" -a "${GHDLFLAGS[@]}" "$cfg_file") || { rm -f "$wd/$cfg_file"; return 1; }
  fi
  (cd "$wd" && nice "$GHDL" -e "${GHDLFLAGS[@]}" "$cfg_name") || return 1
}

build() {
  if [ "$HDL" = vhdl ]; then build_vhdl "$@"; else build_netlist "$@"; fi
}

# The manifest's value of key $2 (empty if absent).
manifest_key() {
  sed -n "s/^$2 //p" "$1/manifest.txt" 2>/dev/null | head -n 1
}

# build_mq: the multi-QP twin (rtl/vhdl/mq/files.f), the reader and tb_golden_mq analysed into
# target/golden-vhdl/mq (again when a source or the flags change) and elaborated; the generics are
# given at run time
mq_srcs=()
while read -r f; do
  [ -n "$f" ] && mq_srcs+=("$root/$f")
done <"$root/rtl/vhdl/mq/files.f"
mq_srcs+=("$reader" "$root/testbench/vhdl/tb_golden_mq.vhd")
build_mq() {
  local wd=$out/mq f stale=0
  mkdir -p "$wd"
  if [ ! -f "$wd/work-obj08.cf" ] || [ "$(cat "$wd/flags" 2>/dev/null)" != "${GHDL_BACKEND:-} ${GHDLFLAGS[*]}" ]; then
    stale=1
  else
    for f in "${mq_srcs[@]}"; do
      [ "$f" -nt "$wd/work-obj08.cf" ] && stale=1
    done
  fi
  if [ $stale = 1 ]; then
    rm -f "$wd/work-obj08.cf"
    (cd "$wd" && nice "$GHDL" -a "${GHDLFLAGS[@]}" "${mq_srcs[@]}") || return 1
    echo "${GHDL_BACKEND:-} ${GHDLFLAGS[*]}" >"$wd/flags"
  fi
  (cd "$wd" && nice "$GHDL" -e "${GHDLFLAGS[@]}" tb_golden_mq) || return 1
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
jobs_set=()
jobs_vec=()
jobs_db=()
jobs_key=()
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
  if [ "$(manifest_key "$dir" block)" = dcqcn_mq ]; then
    if [ "$HDL" != vhdl ] || [ "$FEATURES" != full ]; then
      echo "SKIP  $set_name: a dcqcn_mq set replays on the VHDL twin only (HDL=vhdl, FEATURES=full)"
      continue
    fi
    q=${RTL_QPS:-$(manifest_key "$dir" qps)}
    clk_hz=$(manifest_key "$dir" clk_hz)
    line_rate=$(manifest_key "$dir" line_rate_bytes_per_s)
    if ! [[ $q =~ ^[0-9]+$ && $clk_hz =~ ^[0-9]+$ && $line_rate =~ ^[0-9]+$ ]]; then
      echo "$dir/manifest.txt: no numeric qps, clk_hz or line_rate_bytes_per_s line"
      fail=1
      continue
    fi
    if [ -z "${built[mq]:-}" ]; then
      t0=$(now_ns)
      if build_mq; then
        built[mq]=ok
        echo "built mq: the multi-QP VHDL twin and tb_golden_mq, analysed (${GHDLFLAGS[*]}) and" \
             "elaborated in $(secs $(( $(now_ns) - t0 ))) s"
      else
        built[mq]=failed
      fi
    fi
    if [ "${built[mq]}" != ok ]; then
      echo "$vec: cannot build the multi-QP VHDL twin and tb_golden_mq (see above)"
      fail=1
      continue
    fi
    jobs_set+=("$set_name")
    jobs_vec+=("$vec")
    # the generics for run_one: QPS, and the rates as 8 hex digits
    jobs_db+=("$q:$(printf '%08X' "$clk_hz"):$(printf '%08X' "$line_rate")")
    jobs_key+=(mq)
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
  if ! listed "$dir"; then
    echo "SKIP  $set_name: its manifest does not list the $FEATURES configuration under builds"
    continue
  fi
  key=w$db
  [ "$clk_hz.$line_rate" = 156250000.1250000000 ] || key=w$db-f$clk_hz-l$line_rate
  [ "$FEATURES" = full ] || key=$key-$FEATURES
  if [ -z "${built[$key]:-}" ]; then
    t0=$(now_ns)
    if build "$key" "$db" "$clk_hz" "$line_rate"; then
      built[$key]=ok
      if [ "$HDL" = vhdl ]; then
        echo "built $key (DATA_BYTES=$db CLK_FREQ_HZ=$clk_hz LINE_RATE=$line_rate): VHDL twin," \
             "wrapper architecture $COSIM_ARCH, analysed (${GHDLFLAGS[*]}) and elaborated in" \
             "$(secs $(( $(now_ns) - t0 ))) s"
      else
        echo "built $key (DATA_BYTES=$db CLK_FREQ_HZ=$clk_hz LINE_RATE=$line_rate): netlist of" \
             "$(sed -n 's/^-- of dcqcn_cosim_top; \([0-9]*\) cells.*/\1/p' "$out/$key/dcqcn_cosim_top.vhd")" \
             "cells, analysed and elaborated in $(secs $(( $(now_ns) - t0 ))) s"
      fi
    else
      built[$key]=failed
    fi
  fi
  if [ "${built[$key]}" != ok ]; then
    echo "$vec: cannot build the $key $HDL DUT and testbench (see above)"
    fail=1
    continue
  fi

  jobs_set+=("$set_name")
  jobs_vec+=("$vec")
  jobs_db+=("$db")
  jobs_key+=("$key")
done

# run_one SET VEC DB KEY: replays one set; writes the verdict lines to $out/logs/[vhdl-]SET.result
# and exits 0 on PASS. The testbench prints START before the first cycle, so the replay is timed
# from it (stdout line-buffered: the LLVM back end's executable buffers a pipe in blocks); with
# JOBS sets replaying at once, each figure is that of a shared machine.
run_one() {
  local set_name=$1 vec=$2 db=$3 key=$4 log run_dir top t0 t1 t_start t_end result status l
  if [ "$key" = mq ]; then
    # db is QPS:CLK_FREQ_HZ:LINE_RATE (the rates in hex); the memories hold U until written
    log=$out/logs/$prefix$set_name.log
    run_dir=$out/mq
    top=(tb_golden_mq "-gCLK_FREQ_HZ=$(echo "$db" | cut -d: -f2)" \
         "-gLINE_RATE=$(echo "$db" | cut -d: -f3)" --ieee-asserts=disable)
    db=${db%%:*}
  elif [ "$HDL" = vhdl ]; then
    log=$out/logs/$prefix$set_name.log
    run_dir=$out/vhdl
    # no numeric_std metavalue warnings before the first edge (signals still U at time 0)
    top=("tb_golden_${key//-/_}" --ieee-asserts=disable-at-0)
  else
    log=$out/logs/$set_name.log
    run_dir=$out/$key
    top=(tb_golden)
  fi
  local size_generic=DATA_BYTES
  [ "$key" = mq ] && size_generic=QPS
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
  done < <(: >"$log"; cd "$run_dir" && nice stdbuf -oL "$GHDL" -r "${GHDLFLAGS[@]}" "${top[0]}" \
             "-gVECTORS=$vec" "-gSET_NAME=$set_name" "-g$size_generic=$db" "${top[@]:1}" 2>&1
           echo "ghdl exit $?")
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
        return 1
      fi
      cycles=$(echo "$result" | awk '{ print $3 }')
      awk -v c="$cycles" -v r="$(( t_end - t_start ))" -v t="$(( t1 - t0 ))" -v s="$set_name" 'BEGIN {
        printf "  %s: replay %.2f s, %.0f cycles/s (run with checks and elaboration %.2f s, %.0f cycles/s)\n",
               s, r / 1e9, c / (r > 0 ? r / 1e9 : 1e-9), t / 1e9, c / (t / 1e9) }'
      ;;
    *)
      return 1
      ;;
  esac
}

# JOBS replays at once (default: one per core), verdicts printed in set order
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}
prefix=""
[ "$HDL" = vhdl ] && prefix=vhdl-
[ "$FEATURES" = full ] || prefix=$prefix$FEATURES-
running=0
for k in "${!jobs_set[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n
    running=$((running - 1))
  fi
  res=$out/logs/$prefix${jobs_set[$k]}.result
  ( if run_one "${jobs_set[$k]}" "${jobs_vec[$k]}" "${jobs_db[$k]}" "${jobs_key[$k]}" >"$res.tmp"; then
      echo PASSED >>"$res.tmp"
    fi
    mv "$res.tmp" "$res" ) &
  running=$((running + 1))
done
wait
for k in "${!jobs_set[@]}"; do
  res=$out/logs/$prefix${jobs_set[$k]}.result
  if [ "$(tail -n 1 "$res" 2>/dev/null)" = PASSED ]; then
    sed '$d' "$res"
    passed=$((passed + 1))
  else
    cat "$res" 2>/dev/null || echo "${jobs_vec[$k]}: no verdict (replay did not finish)"
    fail=1
  fi
  rm -f "$res"
done
echo "golden VHDL replay ($HDL, $FEATURES): $passed of ${#jobs_set[@]} sets listing it passed (${#sets[@]} given)"
if [ ${#jobs_set[@]} -eq 0 ]; then
  echo "run.sh: no set lists the $FEATURES configuration: nothing was replayed" >&2
  fail=1
fi
exit $fail
