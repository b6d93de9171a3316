#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""formal_nscc_ack: proves the SystemVerilog nscc_mq_ack_exec (rtl/nscc/) and its VHDL twin
(rtl/vhdl/nscc/) combinationally equivalent: every output bit equal for every input
(docs/spec-nscc.md 5, 6; the NSCC ACK process's execution of one event).

The module has no state, so the proof is one miter. The twin is read as Verilog through `ghdl --synth`
with vhdl2verilog's repairs (wide constants, case defaults), like scripts/formal_mq.py. GHDL names a
record port per field (`flow_rd_cwnd`); a generated wrapper packs them into the SV's packed structs,
whose layouts are read from rtl/nscc/nscc_mq_pkg.sv (first field at the most significant bits), so
both sides have the same ports. Yosys builds the miter (`miter -equiv -flatten`), bit-blasts it
(`techmap`, the same multiplier and shifter structure on both sides), and ABC proves its output
constant 0 (`iprove`: SAT sweeping finds the internal equivalences, so the multipliers, fed by
operands proven equal, merge instead of being compared as wholes). A counterexample is replayed with
Yosys `sat` on the word-level miter to name the differing output.

Usage: formal_nscc_ack.py [--line-win N ...] [--sv-dir DIR] [--vhdl-dir DIR] [--work DIR]
Exit 0 when proven at every LINE_WIN, 1 when the designs differ or the proof is undecided, 2 on bad
input (a tool failure).
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(Path(__file__).resolve().parent))
import vhdl2verilog as v2v  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOP = "nscc_mq_ack_exec"
# the module's struct ports and their package types
STRUCT_PORTS = {"flow_rd": "nscc_flow_t", "cfg": "nscc_regs_t", "flow_wd": "nscc_flow_t",
                "outcome": "nscc_out_t"}
OUTPUTS = ("flow_wd", "outcome")
# the twin's RECIP table is a ROM in GHDL's netlist: mapped to logic like formal.py's PREP does
PREP = "proc; flatten; memory -nomap; memory_map -rom-only; memory_map; opt_clean"


class Error(Exception):
    pass


def run(cmd, log, timeout=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        log.write_text(f"timeout after {timeout} s\n{e.stdout or ''}{e.stderr or ''}")
        raise Error(f"{cmd[0]} timed out after {timeout} s (log {log})") from e
    log.write_text(p.stdout + p.stderr)
    return p


def structs(pkg_text):
    """{typedef name: [(field, width)]} of the package's packed structs, in declaration order."""
    out = {}
    for m in re.finditer(r"typedef\s+struct\s+packed\s*\{(.*?)\}\s*(\w+)\s*;", pkg_text, re.S):
        fields = []
        for line in m.group(1).splitlines():
            line = line.split("//", 1)[0].strip()
            f = re.fullmatch(r"logic\s*(?:\[(\d+):0\])?\s*(\w+)\s*;", line)
            if f:
                fields.append((f.group(2), int(f.group(1)) + 1 if f.group(1) else 1))
            elif line:
                raise Error(f"nscc_mq_pkg.sv: cannot read struct line `{line}`")
        out[m.group(2)] = fields
    return out


def twin_verilog(vhdl_dir, line_win, work):
    """The twin's Verilog (ghdl --synth and vhdl2verilog's two repairs), module renamed *_vhdl."""
    srcs = [str(vhdl_dir / "nscc_mq_pkg.vhd"), str(vhdl_dir / f"{TOP}.vhd")]
    texts = {}
    for out in ("verilog", "vhdl"):
        with tempfile.TemporaryDirectory(prefix="nscc-ghdl-") as wd:
            cmd = ["ghdl", "--synth", *v2v.FLAGS, f"--workdir={wd}", f"-gLINE_WIN={line_win}",
                   f"--out={out}", *srcs, "-e", TOP]
            p = run(cmd, work / f"ghdl_{out}.log")
        if p.returncode != 0:
            raise Error(f"{' '.join(cmd)} failed (log {work / f'ghdl_{out}.log'})")
        texts[out] = p.stdout
    fixed = re.sub(r'"([01]+)"', lambda m: f"{len(m.group(1))}'b{m.group(1)}", texts["verilog"])
    left = re.search(r'"[^"\n]*"', fixed)
    if left:
        raise Error(f"ghdl --synth output still holds a string literal: {left.group(0)[:80]}")
    try:
        fixed, _ = v2v.add_case_defaults(fixed, texts["vhdl"])
    except v2v.Error as e:
        raise Error(str(e)) from e
    return re.sub(rf"^module {TOP}\b", f"module {TOP}_vhdl", fixed, count=1, flags=re.M)


def wrapper(layouts):
    """A Verilog module `vhdl_side` with the SV's ports (packed structs as vectors) around the
    twin's per-field ports."""
    ports, conns = [], []
    # the scalar ports, as the SV module declares them (name, width), in its order
    scalars = [("gbytes", 32), ("old", 1), ("now", 32), ("cc_en", 1), ("ev_kind", 2),
               ("ev_bytes", 24), ("ev_ecn", 1), ("ev_rtt_valid", 1), ("ev_rtt", 24),
               ("ev_pend", 7), ("ev_rc", 1)]
    for name, w in scalars:
        ports.append(f"  input  [{w - 1}:0] {name}")
        conns.append(f"    .{name}({name})")
    for port, ty in STRUCT_PORTS.items():
        fields = layouts[ty]
        total = sum(w for _, w in fields)
        d = "output" if port in OUTPUTS else "input "
        ports.append(f"  {d} [{total - 1}:0] {port}")
        msb = total - 1
        for field, w in fields:
            conns.append(f"    .{port}_{field}({port}[{msb}:{msb - w + 1}])")
            msb -= w
    return (f"module vhdl_side (\n" + ",\n".join(ports) + "\n);\n"
            f"  {TOP}_vhdl u_twin (\n" + ",\n".join(conns) + "\n  );\nendmodule\n")


def prove(sv_dir, vhdl_dir, line_win, work, timeout):
    layouts = structs((sv_dir / "nscc_mq_pkg.sv").read_text())
    for ty in set(STRUCT_PORTS.values()):
        if ty not in layouts:
            raise Error(f"nscc_mq_pkg.sv: no packed struct {ty}")
    (work / "twin.v").write_text(twin_verilog(vhdl_dir, line_win, work))
    (work / "wrap.v").write_text(wrapper(layouts))
    svs = f"{sv_dir / 'nscc_mq_pkg.sv'} {sv_dir / f'{TOP}.sv'}"

    def read(miter_opts):
        """Both designs as `gold` (SV) and `gate` (twin), and their miter as the top."""
        return (f"read_verilog -sv {svs}; hierarchy -top {TOP} -chparam LINE_WIN {line_win}; "
                f"{PREP}; rename {TOP} gold; design -stash sv; "
                f"read_verilog {work / 'twin.v'} {work / 'wrap.v'}; hierarchy -top vhdl_side; "
                f"{PREP}; rename vhdl_side gate; design -stash vh; "
                "design -copy-from sv -as gold gold; design -copy-from vh -as gate gate; "
                f"check -assert; miter -equiv -flatten {miter_opts} gold gate miter; hierarchy -top miter; ")

    # bit-level miter for ABC: one output `trigger`, 1 when some output differs
    # an x constant left in either netlist becomes a free input: if it reaches an output, the proof fails
    # (techmap's shifters make x for out-of-range amounts, hence again after it)
    script = (read("") + "setundef -undriven -anyseq; opt; wreduce; opt_clean; techmap; opt -fast; aigmap; "
              "setundef -undriven -anyseq; opt_clean; "
              f"write_aiger -zinit {work / 'miter.aig'}; stat")
    p = run(["yosys", "-q", "-p", script], work / "yosys_miter.log")
    if p.returncode != 0:
        raise Error(f"yosys failed building the miter (log {work / 'yosys_miter.log'})")
    p = run(["yosys-abc", "-c", f"read_aiger {work / 'miter.aig'}; strash; print_stats; iprove -v"],
            work / "abc.log", timeout)
    text = p.stdout + p.stderr
    # ABC's iprove prints UNSATISFIABLE / SATISFIABLE for the miter's output
    if "Networks are equivalent" in text or re.search(r"\bUNSAT(ISFIABLE)?\b", text):
        return True, ""
    if re.search(r"\bSAT(ISFIABLE)?\b|not equivalent|NOT EQUIVALENT", text):
        # name the differing outputs: Yosys sat on the word-level miter
        p = run(["yosys", "-p", read("-make_outputs") + "sat -prove trigger 0 -show-outputs -timeout 600 miter"],
                work / "yosys_sat.log")
        diffs = sorted(set(re.findall(r"\\(?:gold|gate)_(\w+)", p.stdout)))
        return False, "designs differ" + (f" (outputs {', '.join(diffs)}; log {work / 'yosys_sat.log'})"
                                          if diffs else f" (log {work / 'abc.log'})")
    return False, f"undecided (log {work / 'abc.log'})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--line-win", type=int, nargs="+", default=[8192],
                    help="LINE_WIN values (bytes per 1024 cycles, 1..2^24 - 1; default 8192)")
    ap.add_argument("--sv-dir", type=Path, default=ROOT / "rtl" / "nscc")
    ap.add_argument("--vhdl-dir", type=Path, default=ROOT / "rtl" / "vhdl" / "nscc")
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "formal-nscc-ack")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds for ABC per LINE_WIN")
    a = ap.parse_args()
    ok = True
    try:
        for lw in a.line_win:
            if not 0 < lw < 1 << 24:
                raise Error(f"--line-win {lw}: must be 1..2^24 - 1")
            work = a.work / f"lw{lw}"
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            t0 = time.monotonic()
            proven, why = prove(a.sv_dir.resolve(), a.vhdl_dir.resolve(), lw, work, a.timeout)
            dt = time.monotonic() - t0
            if proven:
                print(f"formal_nscc_ack: LINE_WIN {lw}: SV == VHDL, every output bit proven ({dt:.1f} s)")
            else:
                print(f"formal_nscc_ack: LINE_WIN {lw}: FAIL: {why} ({dt:.1f} s)")
                ok = False
    except Error as e:
        print(f"formal_nscc_ack: error: {e}", file=sys.stderr)
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
