#!/usr/bin/env bash
# Replays golden vector sets on the SystemVerilog testbench (tb_golden.sv) with Verilator or Icarus.
#
#   [FEATURES=full|base] testbench/sv/run.sh verilator|icarus SET_DIR...
#
# FEATURES (default full) is the block's feature configuration (docs/spec.md 2: base is
# RATE_RULES=0 CONTROL=0 TRACE_DEPTH=0); a set is replayed only where its manifest's `builds` line
# lists it (SKIP otherwise; a set without the line is a full one), and a run that replays no set fails.
# Builds the testbench once per beat width (the set's, or RTL_DATA_BYTES) (cached under $BUILD, default target/tb-<simulator>),
# replays every set, prints one line per set with its replay speed, and exits non-zero if any set
# fails (mismatch, malformed vectors, build error). Needs only the simulator, bash and coreutils.
#
# A set whose manifest says `block dcqcn_mq` (docs/golden-format.md, "The multi-QP block") is
# replayed on tb_golden_mq.sv, which drives the top level dcqcn_mq (rtl/mq/files.f) built with the
# manifest's qps, clk_hz and line_rate_bytes_per_s (RTL_QPS forces QPS, to check that a mismatch
# is reported); it has no feature configurations, so FEATURES=base skips it. dcqcn_mq checks its
# parameters itself (an elaboration-time $fatal on Verilator, a time-0 one on Icarus).
#
# An illegal parameter (spec 2) stops the build with the RTL's own message: Verilator turns the
# elaboration-time $fatal into an error (every warning is fatal), and for Icarus, which has no
# elaboration-time $fatal, the build runs the design's time-0 parameter checks once
# (dcqcn_cosim_top alone, same parameters) before the testbench is used.
set -u
sim=${1:?usage: run.sh verilator|icarus SET_DIR...}
shift
[ $# -gt 0 ] || { echo "usage: run.sh verilator|icarus SET_DIR..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/target/tb-$sim}
rtl=("$root"/rtl/*.sv "$root/verilator/dcqcn_cosim_top.sv" "$root/testbench/sv/tb_golden.sv")
# what a build depends on: the sources, the RTL's includes (found with -I rtl) and the reader the
# testbenches include (golden_reader.svh, found with -I testbench/sv)
reader=$root/testbench/sv/golden_reader.svh
deps=("${rtl[@]}" "$root"/rtl/*.svh "$reader")
FEATURES=${FEATURES:-full}
case $FEATURES in
    full) params=() ;;
    base) params=(RATE_RULES=0 CONTROL=0 TRACE_DEPTH=0) ;;
    *) echo "run.sh: FEATURES=$FEATURES; use full or base" >&2; exit 2 ;;
esac
build=$build/$FEATURES
mkdir -p "$build"

# The manifest's value of key $2 (empty if absent).
manifest_key() {
    sed -n "s/^$2 //p" "$1/manifest.txt" 2>/dev/null | head -n 1
}

# The multi-QP block's sources in compile order (rtl/mq/files.f, paths from the repository root).
mq_rtl=()
while read -r f; do
    case $f in '' | +*) ;; *) mq_rtl+=("$root/$f") ;; esac
done <"$root/rtl/mq/files.f"
mq_srcs=("${mq_rtl[@]}" "$root/testbench/sv/tb_golden_mq.sv")
mq_deps=("${mq_srcs[@]}" "$reader")

# Builds tb_golden_mq for QPS $1, CLK_FREQ_HZ $2, LINE_RATE $3 unless an up-to-date build exists;
# prints the command that runs it.
build_mq() {
    local key=mq-q$1-f$2-l$3 exe
    local gen=(QPS="$1" CLK_FREQ_HZ="32'd$2" LINE_RATE="32'd$3")
    case $sim in
    verilator)
        exe=$build/$key/tb_golden_mq
        if [ ! -x "$exe" ] || [ -n "$(find "${mq_deps[@]}" -newer "$exe" 2>/dev/null)" ]; then
            verilator --binary --timing -O2 -I"$root/rtl/mq" -I"$root/testbench/sv" \
                "${gen[@]/#/-G}" --top-module tb_golden_mq --Mdir "$build/$key" -o tb_golden_mq \
                "${mq_srcs[@]}" >"$build/$key.log" 2>&1 || { cat "$build/$key.log" >&2; return 1; }
        fi
        echo "$exe"
        ;;
    icarus)
        exe=$build/tb_$key.vvp
        if [ ! -f "$exe" ] || [ -n "$(find "${mq_deps[@]}" -newer "$exe" 2>/dev/null)" ]; then
            iverilog -g2012 -I"$root/rtl/mq" -I"$root/testbench/sv" "${gen[@]/#/-Ptb_golden_mq.}" \
                -s tb_golden_mq -o "$exe" "${mq_srcs[@]}" >"$build/$key.log" 2>&1 \
                || { cat "$build/$key.log" >&2; rm -f "$exe"; return 1; }
        fi
        echo "vvp -n $exe"
        ;;
    *)
        echo "unknown simulator '$sim' (verilator or icarus)" >&2
        return 2
        ;;
    esac
}

# Whether the set's manifest lists configuration $FEATURES under `builds` (no line: full only).
listed() {
    local b
    b=$(sed -n 's/^builds //p' "$1/manifest.txt" 2>/dev/null | head -n 1)
    [ -n "$b" ] || b=full
    case " $b " in *" $FEATURES "*) return 0 ;; *) return 1 ;; esac
}

# The beat width a set was generated for (line `data_bytes N` of vectors.txt).
width_of() {
    sed -n 's/^data_bytes \([0-9]*\)$/\1/p' "$1/vectors.txt" | head -n 1
}

# Builds the testbench for DATA_BYTES=$1 unless an up-to-date build exists; prints the command
# that runs it.
build() {
    local w=$1 exe
    case $sim in
    verilator)
        exe=$build/w$w/tb_golden
        if [ ! -x "$exe" ] || [ -n "$(find "${deps[@]}" -newer "$exe" 2>/dev/null)" ]; then
            verilator --binary --timing -O2 -I"$root/rtl" -I"$root/testbench/sv" -GDATA_BYTES="$w" \
                "${params[@]/#/-G}" --top-module tb_golden --Mdir "$build/w$w" -o tb_golden \
                "${rtl[@]}" >"$build/w$w.log" 2>&1 || { cat "$build/w$w.log" >&2; return 1; }
        fi
        echo "$exe"
        ;;
    icarus)
        exe=$build/tb_w$w.vvp
        if [ ! -f "$exe" ] || [ -n "$(find "${deps[@]}" -newer "$exe" 2>/dev/null)" ]; then
            # Icarus 11 notes "constant selects in always_* processes" on the RTL: harmless.
            # the parameter checks first: no clock, so the run ends at time 0 unless a check fails
            iverilog -g2012 -I"$root/rtl" -Pdcqcn_cosim_top.DATA_BYTES="$w" \
                "${params[@]/#/-Pdcqcn_cosim_top.}" -s dcqcn_cosim_top \
                -o "$build/check_w$w.vvp" "$root"/rtl/*.sv "$root/verilator/dcqcn_cosim_top.sv" \
                >"$build/w$w.log" 2>&1 && vvp -n "$build/check_w$w.vvp" >>"$build/w$w.log" 2>&1 \
                && ! grep -q "FATAL" "$build/w$w.log" \
                || { grep -v "sorry: constant selects" "$build/w$w.log" >&2; rm -f "$exe"; return 1; }
            iverilog -g2012 -I"$root/rtl" -I"$root/testbench/sv" -Ptb_golden.DATA_BYTES="$w" \
                "${params[@]/#/-Ptb_golden.}" -s tb_golden -o "$exe" \
                "${rtl[@]}" >>"$build/w$w.log" 2>&1 || { cat "$build/w$w.log" >&2; return 1; }
        fi
        echo "vvp -n $exe"
        ;;
    *)
        echo "unknown simulator '$sim' (verilator or icarus)" >&2
        return 2
        ;;
    esac
}

status=0
replayed=0
for dir in "$@"; do
    dir=${dir%/}
    name=$(basename "$dir")
    if [ ! -f "$dir/vectors.txt" ]; then
        echo "FAIL  $sim $name: $dir/vectors.txt: no such file"
        status=1
        continue
    fi
    block=$(manifest_key "$dir" block)
    if [ "$block" = dcqcn_mq ] && [ "$FEATURES" != full ]; then
        echo "SKIP  $sim $name: a dcqcn_mq set (the multi-QP block has no feature configurations)"
        continue
    fi
    if [ "$block" != dcqcn_mq ] && ! listed "$dir"; then
        echo "SKIP  $sim $name: its manifest does not list the $FEATURES configuration under builds"
        continue
    fi
    replayed=$((replayed + 1))
    if [ "$block" = dcqcn_mq ]; then
        # the generics from the manifest (the testbench checks QPS against the vectors' header)
        q=${RTL_QPS:-$(manifest_key "$dir" qps)}
        f=$(manifest_key "$dir" clk_hz)
        l=$(manifest_key "$dir" line_rate_bytes_per_s)
        if ! [[ $q =~ ^[0-9]+$ && $f =~ ^[0-9]+$ && $l =~ ^[0-9]+$ ]]; then
            echo "FAIL  $sim $name: $dir/manifest.txt: no numeric qps, clk_hz or line_rate_bytes_per_s line"
            status=1
            continue
        fi
        cmd=$(build_mq "$q" "$f" "$l") || { echo "FAIL  $sim $name: build failed"; status=1; continue; }
    else
        # RTL_DATA_BYTES forces the RTL's beat width (to check that a mismatch is reported).
        w=${RTL_DATA_BYTES:-$(width_of "$dir")}
        # A header without a beat width still runs: the testbench reports the exact line.
        cmd=$(build "${w:-8}") || { echo "FAIL  $sim $name: build failed"; status=1; continue; }
    fi
    start=$(date +%s.%N)
    out=$($cmd +vectors="$dir/vectors.txt" +set="$name" 2>&1)
    rc=$?
    end=$(date +%s.%N)
    pass=$(printf '%s\n' "$out" | grep -m1 "^PASS ")
    if [ $rc -eq 0 ] && [ -n "$pass" ]; then
        cycles=$(echo "$pass" | awk '{print $3}')
        awk -v s="$sim" -v n="$name" -v c="$cycles" -v a="$start" -v b="$end" \
            'BEGIN { t = b - a; printf "PASS  %-9s %-28s %8d cycles %6.1f s %9.0f cycles/s\n", s, n, c, t, c / t }'
    else
        echo "FAIL  $sim $name"
        printf '%s\n' "$out" | grep -v -e "^- " -e "Verilog \$finish" | sed 's/^/      /' | head -n 20
        status=1
    fi
done
if [ $replayed -eq 0 ]; then
    echo "FAIL  $sim: no set lists the $FEATURES configuration: nothing was replayed" >&2
    exit 1
fi
exit $status
