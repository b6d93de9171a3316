#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""synth_mq: the resource table of `make synth-mq`, the multi-QP block dcqcn_mq (docs/spec-mq.md).

Columns: dcqcn_mq at each --qps (spec-mq 9: 64, 1,024 and 4,096), as the SystemVerilog (rtl/mq/,
the files of rtl/mq/files.f) and as the VHDL twin (rtl/vhdl/mq/ through scripts/vhdl2verilog.py
--top dcqcn_mq_core). Both go through the flow of `make synth` (scripts/synth_table.py, whose code
this script uses): Yosys reads the sources, elaborates and flattens them, writes RTLIL, and
synth_xilinx -family xcu -flatten (-abc9 on Yosys 0.70) maps it; --runs > 1 adds runs with the
cells in another order (the LUT spread, as in `make synth`). Rows: LUT, FF, DSP, RAMB18, RAMB36,
LUTRAM, latches, and the seconds of each column's synth_xilinx.

The VHDL path: `ghdl --synth` (GHDL 2.0) keeps each state memory as a Verilog memory but drops its
`ram_style` attribute, so the netlist's memories would be mapped by cost (a 64-deep memory into
LUT RAM). The column's Yosys script puts the attribute back before anything else runs:
`setattr -set ram_style "block" dcqcn_mq_mem_*/ram`, on the array `ram` of the dcqcn_mq_mem entity
(spec-mq 4.8), the one place the VHDL declares it; the SV keeps its own attribute and gets no
setattr. The VHDL netlist's top is dcqcn_mq_core (the only multi-QP top vhdl2verilog.py writes);
its three observation outputs are made internal wires (`delete -port`) after flattening, so both
columns have the ports of dcqcn_mq (spec-mq 3) and synthesis removes the same observation wiring.

Checks (exit 1, each failing figure named on standard error):
* every one of the 19 state-memory copies (spec-mq 4.2: one dcqcn_mq_mem instance per memory and
  reading process, named u_<memory>_<reader>) carries ram_style "block" in the flattened design and
  is mapped by synth_xilinx's memory_libmap to a block RAM ($__XILINX_BLOCKRAM_*), read from the
  run's Yosys log; a copy missing from the design, without the attribute, mapped elsewhere (LUT RAM,
  UltraRAM) or absent from the mapping (turned into flip-flops or removed) is named;
* the VHDL twin at most 5 % above the SV at the same QPS in LUT (max over the runs) and FF (the
  rule of `make synth`);
* no latch.
Exit 2: bad arguments; 3: a tool failed.

--memory-only stops synth_xilinx after its memory mapping (`-run begin:map_ffram`: the DSP and
memory mapping done, no LUT mapping): the memory checks and the DSP, RAMB18, RAMB36 and LUTRAM rows
in minutes where the whole flow takes an hour at QPS 4,096; the LUT, FF and latch rows and the 5 %
check are left out.

A column's statistics and log are reused while its RTLIL, the Yosys script and Yosys are the same
(a run at QPS 1,024 takes over ten minutes): the output says when.
"""

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth_table as st  # noqa: E402  (the flow and the table code of `make synth`)

ROWS = {
    "LUT": st.ROWS["LUT"],
    "FF": st.ROWS["FF"],
    "DSP": st.ROWS["DSP"],
    "RAMB18": r"RAMB18E[12]",
    "RAMB36": r"RAMB36E[12]",
    "LUTRAM": st.ROWS["LUTRAM"],
    "latches": st.ROWS["latches"],
}
# spec-mq 4.2: the memories and their readers; one copy (a dcqcn_mq_mem instance) per pair,
# named u_<memory>_<reader> (the shared RTL conventions): 19 copies.
MEMORIES = {
    "cc_byte_cnt_mem": ("grant", "visit"),
    "grant_cnt_mem": ("grant", "rpt", "visit"),
    "done_cnt_mem": ("grant", "rpt", "visit"),
    "sent_mem": ("rpt", "visit"),
    "req_mem": ("grant", "visit"),
    "cc_rate_mem": ("grant", "visit"),
    "rate_mem": ("visit",),
    "alpha_mem": ("visit",),
    "cnp_merge_mem": ("visit",),
    "byte_counter_mem": ("visit",),
    "t_bc_mem": ("visit",),
}
COPIES = sorted(f"u_{m}_{r}" for m, readers in MEMORIES.items() for r in readers)
assert len(COPIES) == 19
MEM_TOP = "dcqcn_mq_mem"  # the entity / module whose array `ram` is every copy's storage


def qps_arg(s):
    try:
        v = int(s)
    except ValueError:
        v = 0
    if not 1 <= v <= 4096:
        raise argparse.ArgumentTypeError(f"QPS {s!r} (SYNTH_MQ_QPS): use integers from 1 to 4096 (spec-mq 2)")
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--qps", type=qps_arg, nargs="+", default=[64, 1024])
    ap.add_argument("--hdl", choices=["sv", "vhdl", "both"], default="both")
    ap.add_argument("--runs", type=int, default=1, help="runs per column (cells shuffled, as make synth)")
    ap.add_argument("--flow", choices=sorted(st.FLOWS), default="yowasp")
    ap.add_argument("--jobs", type=int, default=1, help="Yosys processes at once (default 1)")
    ap.add_argument("--memory-only", action="store_true",
                    help="stop after synth_xilinx's memory mapping (memory checks, RAMB/DSP/LUTRAM rows)")
    ap.add_argument("--work", type=Path, default=st.ROOT / "target" / "synth-mq")
    args = ap.parse_args()
    if not 1 <= args.runs <= 50 or not 1 <= args.jobs <= 256:
        ap.error("--runs: 1..50, --jobs: 1..256")
    try:
        table(args)
    except st.Error as e:
        print(f"synth-mq: {e}", file=sys.stderr)
        sys.exit(e.code)


def columns_for(args, work):
    """The columns, QPS by QPS, SV before VHDL; the VHDL netlists written first."""
    files = [l.strip() for l in (st.ROOT / "rtl" / "mq" / "files.f").read_text().splitlines()]
    sv_files = " ".join(f for f in files if f and not f.startswith(("+", "#", "//")))
    cols = []
    for q in dict.fromkeys(args.qps):
        if args.hdl in ("sv", "both"):
            cols.append(st.Column(f"{q} SV", "dcqcn_mq", args.runs, work / f"q{q}-sv",
                                  f"read_verilog -sv -Irtl/mq {sv_files}; chparam -set QPS {q} dcqcn_mq",
                                  cache=True, rows=ROWS))
        if args.hdl in ("vhdl", "both"):
            net = work / f"q{q}-vhdl.v"
            st.run([sys.executable, "scripts/vhdl2verilog.py", "--top", "dcqcn_mq_core", "--qps", str(q),
                    "--src", "rtl/vhdl/mq", "--out", st.rel(net)])
            cols.append(st.Column(f"{q} VHDL", "dcqcn_mq_core", args.runs, work / f"q{q}-vhdl",
                                  f'read_verilog {st.rel(net)}; setattr -set ram_style "block" {MEM_TOP}_*/ram',
                                  cache=True, post="delete -port dcqcn_mq_core/obs_*", rows=ROWS))
    return cols


def copy_name(mem):
    """The copy (u_<memory>_<reader>) of a flattened memory name such as u_core.u_req_mem_visit.ram,
    or None for another memory (dfx_mem, GHDL's constant tables)."""
    m = re.search(r"(?:^|[.\\])(u_\w+?_mem_[a-z]+)\.ram$", mem)
    return m.group(1) if m else None


def attribute_check(col):
    """Failures: a copy missing from the column's flattened RTLIL or without ram_style "block"."""
    text = col.stem.with_suffix(".il").read_text()
    found = {}
    attrs = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("attribute "):
            attrs.append(s)
            continue
        if s.startswith("memory "):
            name = copy_name(s.split()[-1])
            if name:
                found[name] = any(re.fullmatch(r'attribute \\ram_style "block"', a) for a in attrs)
        attrs = []
    fails = [f"{col.name}: {c} is not in the design" for c in COPIES if c not in found]
    fails += [f"{col.name}: {c} has no ram_style \"block\" attribute" for c in COPIES if found.get(c) is False]
    fails += [f"{col.name}: unexpected memory copy {c}" for c in found if c not in COPIES]
    return fails


def mapping_check(col):
    """Failures: a copy that run k's memory_libmap did not map to block RAM; and the RAMB cells per
    copy ({copy: cell type}) for the report."""
    fails, where = [], {}
    for k in range(col.runs):
        mapped = {}
        for m in re.finditer(r"^mapping memory (\S+) via (\S+)", col.log(k).read_text(), re.M):
            name = copy_name(m.group(1))
            if name:
                mapped[name] = m.group(2)
        for c in COPIES:
            how = mapped.get(c)
            if how is None:
                fails.append(f"{col.name} run {k}: {c} is not in memory_libmap's mapping (turned into "
                             f"flip-flops or removed; log {st.rel(col.log(k))})")
            elif not how.startswith("$__XILINX_BLOCKRAM"):
                fails.append(f"{col.name} run {k}: {c} mapped via {how}, not block RAM")
            where.setdefault(c, set()).add(how)
    return fails, where


def table(args):
    start = time.monotonic()
    # a stopped flow keeps its files apart, so that it never replaces a whole run's statistics
    work = args.work / args.flow / ("memory-only" if args.memory_only else "")
    work.mkdir(parents=True, exist_ok=True)
    yosys, options, flow_text = st.FLOWS[args.flow]
    if args.memory_only:
        options += " -run begin:map_ffram"
        flow_text += ", up to its memory mapping (-run begin:map_ffram)"
    version = st.run([*yosys, "-V"]).strip()
    cols = columns_for(args, work)
    st.synth_columns(cols, yosys, options, version, args.jobs)
    # the rows the stopped flow has not produced yet
    partial = {"LUT", "FF", "latches"} if args.memory_only else set()

    runs = args.runs
    print(f"make synth-mq: dcqcn_mq, {flow_text}")
    print(f"{runs} run{'s' if runs > 1 else ''} per column"
          + (": run k synthesises the same netlist with its cells in another order" if runs > 1 else
             " (SYNTH_MQ_RUNS=N adds runs with the cells shuffled, as make synth)"))
    reused = [c.name for c in cols if c.reused]
    if reused:
        print(f"statistics reused from a previous run with the same netlist, script and Yosys: {', '.join(reused)}")
    print()
    w = max(12, *(len(c.name) + 2 for c in cols))
    lines = ([("LUT min", "LUT", "min"), ("LUT median", "LUT", "median"), ("LUT max", "LUT", "max")]
             if runs > 1 else [("LUT", "LUT", "max")])
    lines += [(r, r, "max") for r in ROWS if r != "LUT"]
    body = [(label, ["-" if row in partial else st.fmt(st.figure(c, row, how)) for c in cols])
            for label, row, how in lines]
    body.append(("seconds", [f"{sum(c.seconds.values()):.0f}" if not c.reused else "reused" for c in cols]))
    st.print_table([c.name for c in cols], body, w)
    print("rows other than LUT: the max over the runs; LUT: LUT1-LUT6; RAMB18/RAMB36: RAMB18E2/RAMB36E2 "
          "cells; LUTRAM: RAM64M8, RAM32M16, ... (the DFX window dfx_mem, spec-mq 5.9); seconds: synth_xilinx "
          "of the column's runs")
    if args.hdl != "sv":
        print("VHDL: ghdl --synth of dcqcn_mq_core, ram_style \"block\" set again on dcqcn_mq_mem's array by "
              "Yosys setattr (GHDL drops it), the obs_* outputs made internal")

    fails = []
    for c in cols:
        fails += attribute_check(c)
        f, where = mapping_check(c)
        fails += f
        if not f:
            kinds = sorted({h for hs in where.values() for h in hs})
            print(f"{c.name}: all {len(COPIES)} memory copies carry ram_style \"block\" and are block RAM "
                  f"({', '.join(kinds)}): {st.fmt(st.figure(c, 'RAMB18', 'max'))} RAMB18 + "
                  f"{st.fmt(st.figure(c, 'RAMB36', 'max'))} RAMB36")
        if "latches" not in partial and st.figure(c, "latches", "max") > 0:
            fails.append(f"{c.name} has {st.fmt(st.figure(c, 'latches', 'max'))} latches")
    for q in dict.fromkeys(args.qps):
        sv = next((c for c in cols if c.name == f"{q} SV"), None)
        vh = next((c for c in cols if c.name == f"{q} VHDL"), None)
        if sv and vh and not partial:
            for row in ("LUT", "FF"):
                a, b = st.figure(sv, row, "max"), st.figure(vh, row, "max")
                if b > a * st.VHDL_MARGIN:
                    fails.append(f"{vh.name} {row} {st.fmt(b)} is more than 5 % above {sv.name}'s {st.fmt(a)} "
                                 f"({b / a - 1:+.1%}; max of {runs} run{'s' if runs > 1 else ''} each)")
            print(f"QPS {q}: VHDL / SV LUT {st.figure(vh, 'LUT', 'max') / st.figure(sv, 'LUT', 'max'):.3f}, "
                  f"FF {st.figure(vh, 'FF', 'max') / st.figure(sv, 'FF', 'max'):.3f}")
    print(f"logs and statistics: {st.rel(work)}/; {time.monotonic() - start:.0f} s")
    for f in fails:
        print(f"FAIL: {f}", file=sys.stderr)
    if fails:
        sys.exit(1)
    checked = [f"the {len(COPIES)} memory copies block RAM with the attribute"]
    if args.hdl == "both" and not partial:
        checked.append("the VHDL twin within 5 % of the SV in LUT (max) and FF")
    if not partial:
        checked.append("no latch")
    print(f"checks passed: {'; '.join(checked)}")


if __name__ == "__main__":
    main()
