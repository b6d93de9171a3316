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
# what a build depends on: the sources and the RTL's includes (found with -I rtl)
deps=("${rtl[@]}" "$root"/rtl/*.svh)
FEATURES=${FEATURES:-full}
case $FEATURES in
    full) params=() ;;
    base) params=(RATE_RULES=0 CONTROL=0 TRACE_DEPTH=0) ;;
    *) echo "run.sh: FEATURES=$FEATURES; use full or base" >&2; exit 2 ;;
esac
build=$build/$FEATURES
mkdir -p "$build"

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
            verilator --binary --timing -O2 -I"$root/rtl" -GDATA_BYTES="$w" "${params[@]/#/-G}" \
                --top-module tb_golden --Mdir "$build/w$w" -o tb_golden "${rtl[@]}" \
                >"$build/w$w.log" 2>&1 || { cat "$build/w$w.log" >&2; return 1; }
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
            iverilog -g2012 -I"$root/rtl" -Ptb_golden.DATA_BYTES="$w" "${params[@]/#/-Ptb_golden.}" \
                -s tb_golden -o "$exe" \
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
    if ! listed "$dir"; then
        echo "SKIP  $sim $name: its manifest does not list the $FEATURES configuration under builds"
        continue
    fi
    replayed=$((replayed + 1))
    # RTL_DATA_BYTES forces the RTL's beat width (to check that a mismatch is reported).
    w=${RTL_DATA_BYTES:-$(width_of "$dir")}
    # A header without a beat width still runs: the testbench reports the exact line.
    cmd=$(build "${w:-8}") || { echo "FAIL  $sim $name: build failed"; status=1; continue; }
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
