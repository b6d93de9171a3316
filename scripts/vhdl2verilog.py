#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""vhdl2verilog: the VHDL twin (rtl/vhdl/) as Verilog through `ghdl --synth`, for Verilator and Yosys.

Two outputs:

* `--out FILE.v`: `ghdl --synth --out=verilog` of entity dcqcn_rl with the given generics, with the
  two repairs GHDL 2.0's Verilog writer needs (its netlist is right, its Verilog text is not):
  1. constants wider than 64 bits come out as string literals (`"0101..."`), which a Verilog tool
     reads as 8-bit ASCII characters; each becomes a sized binary literal (`154'b0101...`). Any
     other string literal left in the output is an error.
  2. a parallel multiplexer (a VHDL `case` with `when others`) is written as `always @* case`
     without its `default:` item, so when no choice matches the output holds its previous value
     (a latch) instead of taking the `others` value. The same netlist written as VHDL
     (`--out=vhdl`, same net names) has `<default> when others;` for each; that value is added as
     `default:` to the matching Verilog `case`. Every `case` must get one, or the script fails.

* `--inject FILE.svh` (optional): the same bit ranges written, `dut.<instance>.r[hi:lo] <= in_<name>;`
  at a rising edge of `inj_clk`, for the wrapper's state injection (DCQCN_INJECT); with the registers
  the wrapper shows as ports (m_axis_*, s_axil_b*/r*) every bit of every `r` is written (checked).

* `--state FILE.svh` (optional): the `assign st_<name> = dut.<instance>.r[hi:lo];` lines that the
  lockstep wrapper verilator/dcqcn_cosim_top.sv includes for the VHDL twin. GHDL keeps each block's
  state record as one vector `reg [N-1:0] r` (first record element at the least significant bits,
  nested records packed the same way), under the VHDL instance names. The st_* list and the record
  path of each (e.g. `st_cfg_rai` <- `u_regs.r.cfg.rai`) are read from the VHDL cosim wrapper's
  `ext_names` architecture (testbench/vhdl/dcqcn_cosim_top_vhdl.vhd), the field widths from the
  record declarations in dcqcn_pkg.vhd of the sources. Each record's computed width is checked against
  the width of `r` in the synthesised module, so a layout this script gets wrong stops the build.
  The event trace's storage (spec 4.10) is no record field but a memory of dcqcn_regs, `trace_mem`,
  which GHDL keeps as `reg [67:0] trace_mem[63:0]` (entry i at index i, the VHDL entry's bits as
  they are); the st_trace_last_* outputs (spec 7: the most recent entry, 0 while the window is
  empty) read it at `trace_wptr - 1`, and the injection writes all 64 entries from `in_trace_mem`.

Usage: vhdl2verilog.py --data-bytes N [--clk-freq-hz F] [--line-rate L] [--src DIR] --out FILE.v
                       [--state FILE.svh] [--inject FILE.svh] [--ghdl GHDL]
                       [--generic NAME=VALUE]...
       vhdl2verilog.py --top dcqcn_mq_core --qps N [--clk-freq-hz F] [--line-rate L] --src DIR
                       --out FILE.v [--inject FILE.svh] [--ghdl GHDL]
       vhdl2verilog.py --top dcqcn_mq_core --qps N --src rtl/mq --sv-inject FILE.svh

With `--top dcqcn_mq_core` (the multi-QP block, docs/spec-mq.md) the sources are every .vhd file of
--src (rtl/vhdl/mq/), in an order where each file comes after the packages and entities it names
(`use work.X`, `entity work.X`); the generics are QPS, CLK_FREQ_HZ and LINE_RATE; the two repairs
apply as above; there is no --state (its lockstep reads the core's obs_* ports). `--inject FILE.svh`
writes the twin's dcqcn_mq_inject.svh, `--sv-inject FILE.svh` (no GHDL, --src rtl/mq) the
SystemVerilog's: the state injection and memory dumps of verilator/dcqcn_mq_cosim_top.sv (see the
section "multi-QP block's state injection" below).
Python 3 standard library only; GHDL's work files go to a temporary directory.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRAPPER = ROOT / "testbench" / "vhdl" / "dcqcn_cosim_top_vhdl.vhd"
# analysis order (the tap package is simulation-only and dropped by synthesis)
UNITS = ["dcqcn_pkg", "dcqcn_tap_pkg", "dcqcn_cnp_sync", "dcqcn_alpha", "dcqcn_rate_dec",
         "dcqcn_rate_inc", "dcqcn_credit_gate", "dcqcn_regs", "dcqcn_rl"]
FLAGS = ["--std=08", "-fsynopsys", "-frelaxed-rules", "-fexplicit"]


class Error(Exception):
    pass


def word32(s):
    v = int(s, 0)
    if not 0 <= v < 2**32:
        raise argparse.ArgumentTypeError(f"{s} is not a 32-bit value")
    return v


FEATURE_GENERICS = {"RATE_RULES": ("true", "false"), "CONTROL": ("true", "false"),
                    "TRACE_DEPTH": ("0", "64")}


def feature_generic(s):
    """--generic NAME=VALUE: one of the feature generics (spec 2) at a legal value."""
    name, eq, val = s.partition("=")
    if not eq or name not in FEATURE_GENERICS or val not in FEATURE_GENERICS[name]:
        legal = "; ".join(f"{n}={'|'.join(v)}" for n, v in FEATURE_GENERICS.items())
        raise argparse.ArgumentTypeError(f"{s!r}: expected one of {legal}")
    return f"{name}={val}"


def units_in_order(src):
    """Every .vhd file of `src`, each after the units of `src` it names (`use work.X`,
    `entity work.X`, a component of that name); ties in name order."""
    files = sorted(src.glob("*.vhd"))
    defines, needs = {}, {}
    for f in files:
        text = "\n".join(strip_comment(l) for l in f.read_text().lower().splitlines())
        for m in re.finditer(r"^\s*(?:entity|package)\s+(\w+)\s+is\b", text, re.M):
            defines[m.group(1)] = f
        needs[f] = set(re.findall(r"\bwork\.(\w+)", text))
        needs[f] |= set(re.findall(r"^\s*component\s+(\w+)", text, re.M))
    order, done = [], set()

    def visit(f, path):
        if f in done:
            return
        if f in path:
            raise Error(f"{src}: circular unit references through {f.name}")
        for u in sorted(needs[f]):
            if u in defines and defines[u] != f:
                visit(defines[u], path | {f})
        done.add(f)
        order.append(f)

    for f in files:
        visit(f, frozenset())
    return [str(f) for f in order]


def ghdl_synth(args, out):
    """`ghdl --synth --out=<out>` of dcqcn_rl (or --top): the netlist as text."""
    if args.top != "dcqcn_rl":
        return ghdl_run(args, out, units_in_order(args.src), [f"-gQPS={args.qps}"])
    srcs = [str(args.src / f"{u}.vhd") for u in UNITS]
    generics = [f"-gDATA_BYTES={args.data_bytes}"]
    for name, val in (("CLK_FREQ_HZ", args.clk_freq_hz), ("LINE_RATE", args.line_rate)):
        if val is not None:
            generics.append(f'-g{name}=x"{val:08x}"')
    # spec 2: the features (RATE_RULES=false, TRACE_DEPTH=0, ...), as GHDL takes them
    generics += [f"-g{g}" for g in getattr(args, "generic", [])]
    return ghdl_run(args, out, srcs, generics)


def ghdl_run(args, out, srcs, generics):
    """`ghdl --synth` of entity --top from `srcs` with `generics` (CLK_FREQ_HZ and LINE_RATE added
    as 32-bit vectors, as both blocks declare them)."""
    if args.top != "dcqcn_rl":
        for name, val in (("CLK_FREQ_HZ", args.clk_freq_hz), ("LINE_RATE", args.line_rate)):
            if val is not None:
                generics.append(f'-g{name}=x"{val:08x}"')
    with tempfile.TemporaryDirectory(prefix="dcqcn-ghdl-") as wd:
        cmd = [args.ghdl, "--synth", *FLAGS, f"--workdir={wd}", *generics, f"--out={out}", *srcs,
               "-e", args.top]
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise Error(f"{' '.join(cmd)} failed (exit {p.returncode}):\n{p.stderr}")
    return p.stdout


def vhdl_value(text):
    """A value of GHDL's VHDL netlist (net name, "bits", 'b') as Verilog."""
    text = text.strip()
    if re.fullmatch(r"n\d+_[a-z]+|\w+", text):
        return text
    m = re.fullmatch(r'"([01]+)"', text)
    if m:
        return f"{len(m.group(1))}'b{m.group(1)}"
    m = re.fullmatch(r"'([01])'", text)
    if m:
        return f"1'b{m.group(1)}"
    # a selection that lists every pattern: GHDL gives `others` the value X (never taken)
    m = re.fullmatch(r"\((\d+)\s+downto\s+(\d+)\s*=>\s*'X'\)", text)
    if m:
        return f"{int(m.group(1)) - int(m.group(2)) + 1}'bx"
    if text == "'X'":
        return "1'bx"
    raise Error(f"cannot translate the `others` value `{text}` of GHDL's VHDL netlist")


def add_case_defaults(verilog, vhdl):
    """Repair 2 (module docstring): each `case` gets the `others` value of the VHDL netlist."""
    defaults = {}
    for m in re.finditer(r"with\s+(\w+)\s+select\s+(\w+)\s*<=(.*?);", vhdl, re.S):
        others = re.search(r",\s*([^,]*?)\s+when\s+others\s*$", m.group(3), re.S)
        if not others:
            raise Error(f"GHDL's VHDL netlist: selection of {m.group(2)} has no `when others`")
        defaults[(m.group(1), m.group(2))] = vhdl_value(others.group(1))
    added = 0

    def repair(m):
        nonlocal added
        sel, body = m.group(1), m.group(2)
        target = re.search(r":\s*(\w+)\s*<=", body)
        key = (sel, target.group(1)) if target else None
        if key not in defaults:
            raise Error(f"no `when others` value in GHDL's VHDL netlist for `case ({sel})`")
        added += 1
        return f"case ({sel}){body}      default: {key[1]} <= {defaults[key]};\n    endcase"

    fixed = re.sub(r"case \((\w+)\)(.*?)    endcase", repair, verilog, flags=re.S)
    if added != len(defaults):
        raise Error(f"{len(defaults)} selections in GHDL's VHDL netlist, {added} `case` repaired")
    return fixed, added


def synth(args):
    verilog = ghdl_synth(args, "verilog")
    fixed, n = re.subn(r'"([01]+)"', lambda m: f"{len(m.group(1))}'b{m.group(1)}", verilog)
    left = re.search(r'"[^"\n]*"', fixed)
    if left:
        raise Error(f"ghdl --synth output still holds a string literal: {left.group(0)[:80]}")
    fixed, cases = add_case_defaults(fixed, ghdl_synth(args, "vhdl"))
    return fixed, n, cases


def strip_comment(line):
    return line.split("--", 1)[0]


def records(pkg_text):
    """{record type: [(field, width or type name or None)]} from the package's declarations."""
    subtypes = {}
    for m in re.finditer(r"subtype\s+(\w+)\s+is\s+(\w+)\s*\((\d+)\s+downto\s+(\d+)\)", pkg_text, re.I):
        subtypes[m.group(1).lower()] = int(m.group(3)) - int(m.group(4)) + 1
    recs = {}
    for m in re.finditer(r"type\s+(\w+)\s+is\s+record(.*?)end\s+record", pkg_text, re.I | re.S):
        fields = []
        for line in m.group(2).splitlines():
            line = strip_comment(line).strip()
            if not line:
                continue
            f = re.fullmatch(r"(\w+)\s*:\s*(\w+)\s*(?:\((\d+)\s+downto\s+(\d+)\))?\s*;", line, re.I)
            if not f:
                raise Error(f"dcqcn_pkg.vhd: record {m.group(1)}: cannot read field `{line}`")
            name, ty = f.group(1).lower(), f.group(2).lower()
            if f.group(3) is not None:
                fields.append((name, int(f.group(3)) - int(f.group(4)) + 1))
            elif ty in ("std_logic", "std_ulogic"):
                fields.append((name, 1))
            elif ty in subtypes:
                fields.append((name, subtypes[ty]))
            elif ty in ("std_logic_vector", "unsigned", "signed"):
                fields.append((name, None))  # unconstrained: constrained where the object is declared
            else:
                fields.append((name, ty))  # a nested record
        recs[m.group(1).lower()] = fields
    return recs


def width(recs, ty, constraints):
    total = 0
    for name, w in recs[ty]:
        total += field_width(recs, name, w, constraints)
    return total


def field_width(recs, name, w, constraints):
    if isinstance(w, int):
        return w
    if w is None:
        if name not in constraints:
            raise Error(f"unconstrained field {name} without a constraint in the wrapper's alias")
        return constraints[name]
    return width(recs, w, constraints)


def offset(recs, ty, path, constraints):
    """(lsb, width) of the field `path` (list of names) inside a record of type `ty`."""
    lsb = 0
    for name, w in recs[ty]:
        fw = field_width(recs, name, w, constraints)
        if name == path[0]:
            if len(path) == 1:
                return lsb, fw
            sub_lsb, sub_w = offset(recs, w, path[1:], constraints)
            return lsb + sub_lsb, sub_w
        lsb += fw
    raise Error(f"record {ty} has no field {path[0]}")


def state_fields(verilog, src, data_bytes):
    """([(register, path of r, lsb, width)] of the st_* outputs, the same plus the registers the
    wrapper shows as ports): every register of spec 7 as a bit range of its block's record."""
    pkg = (src / "dcqcn_pkg.vhd").read_text()
    recs = records(pkg)
    wrapper = WRAPPER.read_text()
    arch = re.search(r"architecture\s+ext_names\b(.*?)end\s+architecture", wrapper, re.I | re.S)
    if not arch:
        raise Error(f"{WRAPPER}: no architecture ext_names")
    body = arch.group(1)
    # alias <name> is << signal ^.dut.<inst>.r : <Type>[(field(expr downto 0), ...)] >>;
    aliases = {}
    for m in re.finditer(r"alias\s+(\w+)\s+is\s+<<\s*signal\s+\^\.dut\.((?:\w+\.)*)r\s*:\s*(\w+)(.*?)>>",
                         body, re.I | re.S):
        inst = m.group(2).rstrip(".")
        constraints = {}
        for c in re.finditer(r"(\w+)\s*\(([^()]*)\s+downto\s+0\)", m.group(4)):
            expr = c.group(2).replace("DATA_BYTES", str(data_bytes))
            if not re.fullmatch(r"[\d\s+*-]+", expr):
                raise Error(f"{WRAPPER}: alias {m.group(1)}: cannot evaluate `{c.group(2)}`")
            constraints[c.group(1).lower()] = eval(expr) + 1  # digits and + - * only
        aliases[m.group(1).lower()] = (inst, m.group(3).lower(), constraints)
    # widths of `r` in the synthesised modules, by instance path
    modules = {}
    for m in re.finditer(r"^module\s+(\w+)(.*?)^endmodule", verilog, re.M | re.S):
        modules[m.group(1)] = m.group(2)

    def module_of(inst):
        mod = "dcqcn_rl"
        for part in [p for p in inst.split(".") if p]:
            m = re.search(rf"^\s*(\w+)\s+{part}\s*\(", modules[mod], re.M)
            if not m:
                raise Error(f"instance {part} not found in synthesised module {mod}")
            mod = m.group(1)
        return mod

    checked = {}
    fields = []  # (register name, Verilog path of r, lsb, width)

    def field(name, alias, path):
        inst, ty, constraints = aliases[alias]
        if ty not in recs:
            raise Error(f"{WRAPPER}: {name}: record type {ty} not in dcqcn_pkg.vhd")
        if inst not in checked:
            mod = module_of(inst)
            d = re.search(r"^\s*reg\s+\[(\d+):0\]\s+r;", modules[mod], re.M)
            total = width(recs, ty, constraints)
            if not d or int(d.group(1)) + 1 != total:
                got = int(d.group(1)) + 1 if d else "no `reg [..:0] r`"
                raise Error(f"record {ty} is {total} bits by dcqcn_pkg.vhd, but r in {mod} is {got}")
            checked[inst] = total
        lsb, w = offset(recs, ty, path, constraints)
        fields.append((name, f"dut.{inst}.r" if inst else "dut.r", lsb, w))

    memory_seen = set()
    for m in re.finditer(r"^\s*(st_\w+)\s*<=\s*(.*?);", body, re.M):
        st, rhs = m.group(1), m.group(2)
        if st in MEMORY_OUTPUTS:
            memory_seen.add(st)
            continue
        ref = re.search(r"(\w+)((?:\.\w+)+)", rhs)
        if not ref or ref.group(1).lower() not in aliases:
            raise Error(f"{WRAPPER}: {st}: `{rhs}` names no state alias")
        field(st[3:], ref.group(1).lower(), [p.lower() for p in ref.group(2).split(".")[1:]])
    if not fields:
        raise Error(f"{WRAPPER}: no st_* assignments in architecture ext_names")
    if memory_seen != set(MEMORY_OUTPUTS):
        raise Error(f"{WRAPPER}: the trace memory outputs {', '.join(sorted(set(MEMORY_OUTPUTS) - memory_seen))} "
                    "are not assigned in architecture ext_names")
    st_count = len(fields)
    # the registers of spec 7 that the wrapper shows as ports instead (m_axis_*, s_axil_b*/r*)
    for ty, names in OUTPUT_REGISTERS.items():
        alias = [a for a, (_, t, _) in aliases.items() if t == ty]
        if len(alias) != 1:
            raise Error(f"{WRAPPER}: expected one state alias of type {ty}, found {len(alias)}")
        for name in names:
            field(name, alias[0], [name])
    return fields[:st_count], fields


# Registers of spec 7 that are port outputs of the wrapper, by state record type.
OUTPUT_REGISTERS = {
    "creditgateregtype": ["m_valid", "m_data", "m_keep", "m_last"],
    "regsregtype": ["bvalid", "bresp", "rvalid", "rdata", "rresp"],
}


# The event trace's storage (spec 4.10): a memory of dcqcn_regs, not a record field; the outputs that
# show it (spec 7: its most recent entry) with their bits of an entry, and its geometry.
MEMORY_OUTPUTS = {"st_trace_last_type": (3, 0), "st_trace_last_rc": (35, 4), "st_trace_last_stamp": (67, 36)}
TRACE_MEM = "trace_mem"
TRACE_DEPTH = 64
TRACE_ENTRY_BITS = 68


def trace_memory(verilog):
    """The Verilog path of the trace memory, checked against its declaration in the netlist."""
    modules = {m.group(1): m.group(2)
               for m in re.finditer(r"^module\s+(\w+)(.*?)^endmodule", verilog, re.M | re.S)}
    inst = re.search(r"^\s*(\w+)\s+u_regs\s*\(", modules["dcqcn_rl"], re.M)
    if not inst:
        raise Error("instance u_regs not found in synthesised module dcqcn_rl")
    decl = rf"^\s*reg\s+\[{TRACE_ENTRY_BITS - 1}:0\]\s+{TRACE_MEM}\[{TRACE_DEPTH - 1}:0\]\s*;"
    if not re.search(decl, modules[inst.group(1)], re.M):
        raise Error(f"no `reg [{TRACE_ENTRY_BITS - 1}:0] {TRACE_MEM}[{TRACE_DEPTH - 1}:0]` in synthesised "
                    f"module {inst.group(1)} (how GHDL writes the trace storage changed?)")
    return f"dut.u_regs.{TRACE_MEM}"


def state_assigns(verilog, src, data_bytes):
    st, _ = state_fields(verilog, src, data_bytes)
    lines = [f"    assign {'st_' + n:<24} = {path}[{lsb + w - 1}:{lsb}];" for n, path, lsb, w in st]
    where = {n: f"{path}[{lsb + w - 1}:{lsb}]" for n, path, lsb, w in st}
    for need in ("trace_count", "trace_wptr"):
        if need not in where:
            raise Error(f"{WRAPPER}: st_{need} (needed to read the trace memory) is not assigned")
    mem = trace_memory(verilog)
    lines.append("    // spec 7: the trace storage through its most recent entry, 0 while the window is empty")
    lines.append(f"    wire [{TRACE_ENTRY_BITS - 1}:0] vhdl_trace_last = ({where['trace_count']} == 7'd0) ? "
                 f"{TRACE_ENTRY_BITS}'d0")
    lines.append(f"        : {mem}[{where['trace_wptr']} - 6'd1];")
    for st_name, (hi, lo) in MEMORY_OUTPUTS.items():
        lines.append(f"    assign {st_name:<24} = vhdl_trace_last[{hi}:{lo}];")
    return lines


def inject_assigns(verilog, src, data_bytes):
    """The wrapper's state-injection block for the twin: every bit of every state record `r`
    written from the in_* port of its register, at a rising edge of inj_clk."""
    _, fields = state_fields(verilog, src, data_bytes)
    covered = {}
    for _, path, lsb, w in fields:
        covered.setdefault(path, set()).update(range(lsb, lsb + w))
    for path, bits in covered.items():
        if bits != set(range(len(bits))) or len(bits) != max(bits) + 1:
            raise Error(f"state injection: the registers do not cover every bit of {path}")
    # GHDL's `r` is a combinational copy (`always @* r = nNNN_q;`) of the flip-flop nNNN_q: write that
    modules = {m.group(1): m.group(2)
               for m in re.finditer(r"^module\s+(\w+)(.*?)^endmodule", verilog, re.M | re.S)}
    flops = {}
    for path in covered:
        mod = "dcqcn_rl"
        for part in path.split(".")[1:-1]:
            mod = re.search(rf"^\s*(\w+)\s+{part}\s*\(", modules[mod], re.M).group(1)
        q = re.search(r"always @\*\s*\n\s*r = (n\d+_q); // \(isignal\)", modules[mod])
        if not q:
            raise Error(f"state injection: no flip-flop behind r in synthesised module {mod}")
        flops[path] = path[: -len("r")] + q.group(1)
    lines = ["    always @(posedge inj_clk) begin"]
    lines += [f"        {flops[path]}[{lsb + w - 1}:{lsb}] <= in_{n};" for n, path, lsb, w in fields]
    # the trace storage: entry i from in_trace_mem[68i+67:68i]
    lines.append(f"        for (int i = 0; i < {TRACE_DEPTH}; i++) begin")
    lines.append(f"            {trace_memory(verilog)}[i] <= in_trace_mem[{TRACE_ENTRY_BITS}*i +: {TRACE_ENTRY_BITS}];")
    lines.append("        end")
    lines.append("    end")
    return lines


# --- The multi-QP block's state injection and memory dump (docs/spec-mq.md 8.2, 8.3) ---------------
#
# verilator/dcqcn_mq_cosim_top.sv includes dcqcn_mq_inject.svh inside `always @(posedge inj_clk)`.
# Its statements come from two declarations of the model crate, read here (never a third list):
# crates/dcqcn-model/src/mq/obs.rs (STATE_FIELDS, BITMAPS: the obs_state and obs_bitmaps layouts)
# and crates/dcqcn-model/src/mq/mem.rs (MEMORIES: each memory's width and the readers that have a
# copy each). Where each register is comes from the RTL: for the SystemVerilog (rtl/mq/) the module
# that assigns it (`name <=`) and that module's instance path below dcqcn_mq_core; for the VHDL twin
# the bit range of a field of its block's state record `r` (record declarations of the VHDL
# sources) in GHDL's flip-flop behind `r`. Every register must be found exactly once, and in the
# twin every bit of every `r` must be some register's (so no register escapes the injection).

MODEL_MQ = ROOT / "crates" / "dcqcn-model" / "src" / "mq"
# spec-mq 4.8: the register holding the QP a copy's reader works on in cycle t, which the copy's
# read address (raddr in t - 1) became; and that read address's signal in rtl/mq/dcqcn_mq_core.sv
MQ_READERS = {"visit": ("scan_q", "next_scan"), "grant": ("gx_qp", "pick_qp"), "rpt": ("rx_qp", "s_rpt_qp")}
MQ_PIPELINE = ["raddr_q", "ram_rdata_q", "byp_we_q", "byp_addr_q", "byp_data_q"]
MQ_DFX_ENTRIES = 64


def rust_source(path):
    """A Rust file without its `//` comments."""
    return "\n".join(l.split("//", 1)[0] for l in path.read_text().splitlines())


def mq_declarations():
    """(STATE_FIELDS [(name, width)], BITMAPS [name], copies [(copy name, reader or None, width)])."""
    obs = rust_source(MODEL_MQ / "obs.rs")
    m = re.search(r"pub const STATE_FIELDS: &\[Field\] = &\[(.*?)\n\];", obs, re.S)
    b = re.search(r"pub const BITMAPS: \[&str; 7\] = \[(.*?)\];", obs, re.S)
    mem = rust_source(MODEL_MQ / "mem.rs")
    k = re.search(r"pub const MEMORIES: \[Memory; \d+\] = \[(.*?)\n\];", mem, re.S)
    if not (m and b and k):
        raise Error(f"{MODEL_MQ}: STATE_FIELDS, BITMAPS or MEMORIES not found where expected")
    fields = [(n, int(w)) for n, w in re.findall(r'\(\s*"(\w+)",\s*(\d+)\s*\)', m.group(1))]
    bitmaps = re.findall(r'"(\w+)"', b.group(1))
    copies = []
    for e in re.finditer(r'Memory\s*\{\s*name:\s*"(\w+)",\s*fields:\s*&\[(.*?)\],\s*readers:\s*&\[(.*?)\],?\s*\}',
                         k.group(1), re.S):
        width = sum(int(w) for w in re.findall(r'\(\s*"\w+",\s*(\d+)\s*\)', e.group(2)))
        readers = re.findall(r'"(\w+)"', e.group(3))
        for r in readers:
            if r not in MQ_READERS:
                raise Error(f"mem.rs: memory {e.group(1)}: reader {r} is none of {', '.join(MQ_READERS)}")
        copies += [(f"{e.group(1)}_{r}", r, width) for r in readers] or [(e.group(1), None, width)]
    if len(fields) < 2 or len(bitmaps) != 7 or len(copies) < 2:
        raise Error(f"{MODEL_MQ}: cannot read STATE_FIELDS, BITMAPS or MEMORIES")
    return fields, bitmaps, copies


def sv_modules(texts):
    return {m.group(1): m.group(2) for t in texts
            for m in re.finditer(r"^\s*module\s+(\w+)(.*?)^\s*endmodule", t, re.M | re.S)}


INSTANCE = r"^\s*(\w+)\s*(?:#\s*\((?:[^()]|\([^()]*\))*\))?\s*(u_\w+)\s*\("


def mq_sv_targets(src, qps):
    """Where each register of the SystemVerilog dcqcn_mq_core is, as hierarchical names below the
    wrapper: {state field or bitmap: name}, {copy: (ram, {pipeline register: name})}, dfx_mem."""
    modules = sv_modules(f.read_text() for f in sorted(src.glob("*.sv")))
    if "dcqcn_mq_core" not in modules:
        raise Error(f"{src}: no module dcqcn_mq_core")
    where = {}

    def walk(mod, path):
        body = "\n".join(l.split("//", 1)[0] for l in modules[mod].splitlines())
        for name in set(re.findall(r"^\s*([a-z_]\w*)\s*(?:\[[^\]]*\])?\s*<=", body, re.M)):
            where.setdefault(name, []).append(f"{path}.{name}")
        for m in re.finditer(INSTANCE, body, re.M | re.S):
            if m.group(1) in modules:
                walk(m.group(1), f"{path}.{m.group(2)}")

    walk("dcqcn_mq_core", "dut")
    fields, bitmaps, copies = mq_declarations()
    regs = {}
    for name in [f for f, _ in fields] + bitmaps:
        paths = where.get(name, [])
        if len(paths) != 1:
            raise Error(f"{src}: register {name} is assigned in {len(paths)} places below dcqcn_mq_core "
                        f"({', '.join(paths) or 'none'}), expected one")
        regs[name] = paths[0]
    # no register the lockstep neither observes nor injects: each one assigned below the core is an
    # observed register, a memory, or a memory copy's read pipeline
    known = set(regs) | {c[0] for c in copies} | set(MQ_PIPELINE) | {"ram"}
    unknown = sorted(set(where) - known)
    if unknown:
        raise Error(f"{src}: {', '.join(where[u][0] for u in unknown)}: a register that is not in obs.rs "
                    "STATE_FIELDS or BITMAPS (the lockstep neither observes nor injects it)")
    core = modules["dcqcn_mq_core"]
    mems = {}
    for name, reader, width in copies:
        if reader is None:
            paths = where.get(name, [])
            if len(paths) != 1:
                raise Error(f"{src}: memory {name} is written in {len(paths)} places, expected one")
            mems[name] = (paths[0], {})
            continue
        inst = re.search(rf"dcqcn_mq_mem\s*#\s*\(\s*\.W\((\d+)\)[^;]*?\bu_{name}\s*\((.*?)\);", core, re.S)
        if not inst:
            raise Error(f"{src}: dcqcn_mq_core has no dcqcn_mq_mem instance u_{name} (mem.rs MEMORIES)")
        if int(inst.group(1)) != width:
            raise Error(f"{src}: u_{name} is {inst.group(1)} bits wide, mem.rs MEMORIES says {width}")
        raddr = re.search(r"\.raddr\(\s*(\w+)", inst.group(2))
        if not raddr or raddr.group(1) != MQ_READERS[reader][1]:
            raise Error(f"{src}: u_{name} reads at {raddr.group(1) if raddr else '?'}, the {reader} copy "
                        f"should read at {MQ_READERS[reader][1]} (spec-mq 4.8)")
        path = f"dut.u_{name}"
        mems[name] = (f"{path}.ram", {r: f"{path}.{r}" for r in MQ_PIPELINE})
    others = set(re.findall(r"dcqcn_mq_mem\s*#\s*\(.*?\)\s*u_(\w+)\s*\(", core, re.S)) - set(mems)
    if others:
        raise Error(f"{src}: memory copies {', '.join(sorted(others))} are not in mem.rs MEMORIES")
    return regs, mems


def mq_vhdl_targets(verilog, src, qps):
    """As mq_sv_targets, for the twin's ghdl --synth netlist: each register a bit range of the
    flip-flop behind its block's record `r`."""
    modules = {m.group(1): m.group(2)
               for m in re.finditer(r"^module\s+(\w+)(.*?)^endmodule", verilog, re.M | re.S)}
    texts = {f: f.read_text() for f in sorted(src.glob("*.vhd"))}
    # the record types (the core's bitmap_t is NQ_C = QPS bits)
    decls = "\n".join(strip_comment(l) for t in texts.values() for l in t.splitlines())
    decls = re.sub(r"\bNQ_C\s*-\s*1\b", str(qps - 1), decls)
    recs = records(decls)
    entity_of = {}  # entity -> record type of its `signal r`
    for t in texts.values():
        t = "\n".join(strip_comment(l) for l in t.splitlines())
        e = re.search(r"^\s*entity\s+(\w+)\s+is\b", t, re.M | re.I)
        r = re.search(r"^\s*signal\s+r\s*:\s*(\w+)", t, re.M | re.I)
        if e:
            entity_of[e.group(1).lower()] = r.group(1).lower() if r else None

    def entity(mod):
        cands = [e for e in entity_of if mod == e or mod.startswith(e + "_")]
        return max(cands, key=len) if cands else None

    def leaves(ty, path, lsb):
        for name, w in recs[ty]:
            fw = field_width(recs, name, w, {})
            if isinstance(w, str):
                yield from leaves(w, path + [name], lsb)
            else:
                yield path + [name], lsb, fw
            lsb += fw

    fields, bitmaps, copies = mq_declarations()
    state_names = {f for f, _ in fields} | set(bitmaps)
    found = {}
    flops = {}

    def walk(mod, path):
        body = modules[mod]
        ent = entity(mod)
        if ent and entity_of.get(ent):
            ty = entity_of[ent]
            d = re.search(r"^\s*reg\s+\[(\d+):0\]\s+r;", body, re.M)
            q = re.search(r"always @\*\s*\n\s*r = (n\d+_q); // \(isignal\)", body)
            if not (d and q):
                raise Error(f"state injection: no `reg [..:0] r` with its flip-flop in synthesised module {mod}")
            total = width(recs, ty, {})
            if int(d.group(1)) + 1 != total:
                raise Error(f"record {ty} is {total} bits by the VHDL, but r in {mod} is {int(d.group(1)) + 1}")
            covered = set()
            for p, lsb, w in leaves(ty, [], 0):
                leaf = p[-1]
                name = f"cfg_{leaf}" if "cfg" in p[:-1] else leaf
                if name not in state_names:
                    raise Error(f"state injection: {path}.r.{'.'.join(p)} is no register of obs.rs STATE_FIELDS "
                                "or BITMAPS (a register the lockstep neither observes nor injects)")
                found.setdefault(name, []).append(f"{path}.{q.group(1)}[{lsb + w - 1}:{lsb}]")
                covered |= set(range(lsb, lsb + w))
            if covered != set(range(total)):
                raise Error(f"state injection: the registers do not cover every bit of {path}.r")
        for m in re.finditer(r"^\s*(\w+)\s+(u_\w+)\s*\(", body, re.M):
            if m.group(1) in modules:
                walk(m.group(1), f"{path}.{m.group(2)}")

    walk("dcqcn_mq_core", "dut")
    regs = {}
    for name in [f for f, _ in fields] + bitmaps:
        if len(found.get(name, [])) != 1:
            raise Error(f"state injection: register {name} is {len(found.get(name, []))} fields of the twin's "
                        f"state records ({', '.join(found.get(name, [])) or 'none'}), expected one")
        regs[name] = found[name][0]
    core = modules["dcqcn_mq_core"]
    mems = {}
    for name, reader, w in copies:
        if reader is None:
            inst = re.search(r"^\s*(\w+)\s+u_regs\s*\(", core, re.M)
            if not inst or not re.search(rf"^\s*reg\s+\[{w - 1}:0\]\s+{name}\[{MQ_DFX_ENTRIES - 1}:0\]\s*;",
                                         modules[inst.group(1)], re.M):
                raise Error(f"no `reg [{w - 1}:0] {name}[{MQ_DFX_ENTRIES - 1}:0]` in the twin's u_regs")
            mems[name] = (f"dut.u_regs.{name}", {})
            continue
        inst = re.search(rf"^\s*(\w+)\s+u_{name}\s*\(", core, re.M)
        if not inst:
            raise Error(f"the twin's dcqcn_mq_core has no instance u_{name} (mem.rs MEMORIES)")
        body = modules[inst.group(1)]
        if not re.search(rf"^\s*reg\s+\[{w - 1}:0\]\s+ram\[", body, re.M):
            raise Error(f"the twin's u_{name} has no `reg [{w - 1}:0] ram[..]` (mem.rs MEMORIES: {w} bits)")
        pipe = {}
        for r in MQ_PIPELINE:
            q = re.search(rf"always @\*\s*\n\s*{r} = (n\d+_q); // \(isignal\)", body)
            if not q:
                raise Error(f"the twin's u_{name}: no flip-flop behind {r}")
            pipe[r] = f"dut.u_{name}.{q.group(1)}"
        mems[name] = (f"dut.u_{name}.ram", pipe)
    others = {m.group(1) for m in re.finditer(r"^\s*dcqcn_mq_mem\w*\s+u_(\w+)\s*\(", core, re.M)} - set(mems)
    if others:
        raise Error(f"the twin's memory copies {', '.join(sorted(others))} are not in mem.rs MEMORIES")
    return regs, mems


def mq_inject_lines(regs, mems, qps):
    """The body of the wrapper's `always @(posedge inj_clk)` (verilator/dcqcn_mq_cosim_top.sv)."""
    fields, bitmaps, copies = mq_declarations()
    aw = max(1, (qps - 1).bit_length())
    lsb, at = {}, 0
    for name, w in fields:
        lsb[name] = (at, w)
        at += w
    out = ["        case (inj_op)",
           "            2'd0: begin",
           "                // every register of obs_state from its bits of in_state, every bitmap from in_bitmaps"]
    for name, w in fields:
        lo, w = lsb[name]
        out.append(f"                {regs[name]} <= in_state[{lo + w - 1}:{lo}];")
    for k, name in enumerate(bitmaps):
        out.append(f"                {regs[name]} <= in_bitmaps[{k * qps + qps - 1}:{k * qps}];")
    out.append("                // each copy's read pipeline as if read at its reader's QP (spec-mq 4.8), no bypass")
    for name, reader, w in copies:
        ram, pipe = mems[name]
        if reader is None:
            continue
        lo, _ = lsb[MQ_READERS[reader][0]]
        addr = f"in_state[{lo + aw - 1}:{lo}]"
        out.append(f"                {pipe['raddr_q']} <= {addr};")
        out.append(f"                {pipe['ram_rdata_q']} <= ({{{13 - aw}'d0, {addr}}} < 13'd{qps}) ? {ram}[{addr}] : {w}'d0;")
        out.append(f"                {pipe['byp_we_q']} <= 1'b0;")
        out.append(f"                {pipe['byp_addr_q']} <= {aw}'d0;")
        out.append(f"                {pipe['byp_data_q']} <= {w}'d0;")
    out.append("            end")
    for op, what in ((1, "write"), (2, "read")):
        out.append(f"            2'd{op}: begin  // {what} entry inj_addr of copy inj_copy")
        out.append("                case (inj_copy)")
        for k, (name, reader, w) in enumerate(copies):
            ram, _ = mems[name]
            a = aw if reader is not None else (MQ_DFX_ENTRIES - 1).bit_length()
            if op == 1:
                stmt = f"{ram}[inj_addr[{a - 1}:0]] <= inj_data[{w - 1}:0];"
            else:
                ext = f"{{{64 - w}'d0, {ram}[inj_addr[{a - 1}:0]]}}" if w < 64 else f"{ram}[inj_addr[{a - 1}:0]]"
                stmt = f"dump_data <= {ext};"
            out.append(f"                    5'd{k}: {stmt}  // {name}")
        out.append("                    default: ;")
        out.append("                endcase")
        out.append("            end")
    out.append("            default: ;")
    out.append("        endcase")
    return out


MQ_INJECT_HEADER = ("// Generated by scripts/vhdl2verilog.py ({how}): state injection and memory dumps of dcqcn_mq_core at\n"
                    "// QPS {qps} for verilator/dcqcn_mq_cosim_top.sv (spec-mq 8.2, 8.3), from crates/dcqcn-model/src/mq/obs.rs\n"
                    "// (STATE_FIELDS, BITMAPS) and mem.rs (MEMORIES). Do not edit.\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", default="dcqcn_rl", choices=["dcqcn_rl", "dcqcn_mq_core"],
                    help="the entity: dcqcn_rl (default) or the multi-QP block's core")
    ap.add_argument("--data-bytes", type=int)
    ap.add_argument("--qps", type=int, help="QPS of dcqcn_mq_core (docs/spec-mq.md 2)")
    ap.add_argument("--clk-freq-hz", type=word32)
    ap.add_argument("--line-rate", type=word32)
    ap.add_argument("--src", type=Path, default=ROOT / "rtl" / "vhdl", help="VHDL sources (default rtl/vhdl)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--sv-inject", type=Path,
                    help="with --top dcqcn_mq_core: the SystemVerilog's (--src rtl/mq) dcqcn_mq_inject.svh, no GHDL")
    ap.add_argument("--state", type=Path)
    ap.add_argument("--inject", type=Path)
    ap.add_argument("--ghdl", default="ghdl")
    ap.add_argument("--generic", action="append", default=[], type=feature_generic,
                    help="a feature generic of dcqcn_rl, NAME=VALUE: RATE_RULES=true|false, "
                         "CONTROL=true|false, TRACE_DEPTH=0|64 (spec 2); repeatable")
    args = ap.parse_args()
    if args.top == "dcqcn_rl" and args.data_bytes is None:
        ap.error("the following arguments are required: --data-bytes")
    if args.top != "dcqcn_rl" and (args.qps is None or args.state or args.generic):
        ap.error(f"--top {args.top}: needs --qps, takes no --state or --generic")
    if args.sv_inject and args.top == "dcqcn_rl":
        ap.error("--sv-inject: only with --top dcqcn_mq_core")
    if args.out is None and not args.sv_inject:
        ap.error("the following arguments are required: --out")
    try:
        if args.sv_inject:
            regs, mems = mq_sv_targets(args.src, args.qps)
            args.sv_inject.write_text(MQ_INJECT_HEADER.format(how=f"--sv-inject from {args.src.name}/", qps=args.qps)
                                      + "\n".join(mq_inject_lines(regs, mems, args.qps)) + "\n")
            if args.out is None:
                return
        verilog, fixed, cases = synth(args)
        if args.top != "dcqcn_rl":
            args.out.write_text(
                f"// Generated by scripts/vhdl2verilog.py from {args.src.name}/ (ghdl --synth of "
                f"{args.top}, QPS={args.qps}); {fixed} wide constants rewritten from string literals,\n"
                f"// {cases} case statements given the default GHDL 2.0's Verilog writer leaves out.\n"
                + verilog)
            if args.inject:
                regs, mems = mq_vhdl_targets(verilog, args.src, args.qps)
                args.inject.write_text(MQ_INJECT_HEADER.format(how="--inject from the twin's ghdl --synth netlist",
                                                               qps=args.qps)
                                       + "\n".join(mq_inject_lines(regs, mems, args.qps)) + "\n")
            return
        header = (f"// Generated by scripts/vhdl2verilog.py from {args.src.name}/ (ghdl --synth, DATA_BYTES="
                  f"{args.data_bytes}); {fixed} wide constants rewritten from string literals,\n"
                  f"// {cases} case statements given the default GHDL 2.0's Verilog writer leaves out.\n")
        args.out.write_text(header + verilog)
        if args.state:
            lines = state_assigns(verilog, args.src, args.data_bytes)
            args.state.write_text(
                "// Generated by scripts/vhdl2verilog.py: the spec-7 registers of the VHDL twin, as bit\n"
                "// ranges of each block's state record `r` (testbench/vhdl/dcqcn_cosim_top_vhdl.vhd names\n"
                "// the fields, rtl/vhdl/dcqcn_pkg.vhd gives their widths).\n" + "\n".join(lines) + "\n")
        if args.inject:
            lines = inject_assigns(verilog, args.src, args.data_bytes)
            args.inject.write_text(
                "// Generated by scripts/vhdl2verilog.py: state injection into the VHDL twin (spec 4.8), every\n"
                "// bit of each block's state record `r` from the in_* port of its register.\n"
                + "\n".join(lines) + "\n")
    except (Error, OSError) as e:
        print(f"vhdl2verilog: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
