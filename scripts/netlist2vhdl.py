#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""netlist2vhdl: the Verilog RTL as a gate-level VHDL entity dcqcn_cosim_top (Yosys), for tb_golden.

Until the VHDL RTL exists, testbench/vhdl/tb_golden.vhd replays golden vectors on this netlist.
Yosys 0.23 cannot elaborate the hierarchical references of verilator/dcqcn_cosim_top.sv, so this
script synthesises dcqcn_rl flattened, keeps the register nets that the wrapper's
`assign st_<name> = dut.<path>;` lines name (the wrapper stays the single source of truth for the
st_* list, widths and paths), maps the logic to simple gates, and writes the JSON netlist as one
VHDL entity `dcqcn_cosim_top` with the wrapper's ports: gates as concurrent assignments, every flop
in one clocked process. A path may end in fields of a packed-struct variable (`u_regs.r.stats.cnt_cnp`):
Yosys keeps the variable as one net (`u_regs.r`), and the field's bits are found from the
`typedef struct packed` declarations of the RTL (rtl/*.sv, rtl/*.svh). The wrapper is read as
the design without state injection: its `ifdef / `ifndef / `elsif / `else / `endif blocks are
resolved with no macro defined on the command line (DCQCN_INJECT and DCQCN_VHDL_TWIN undefined;
a `define / `undef in the wrapper counts from where it stands), so the ports and assigns of the
other builds are not read.

It is not the VHDL twin: a generated, generic-free netlist for one DATA_BYTES (the entity has a
DATA_BYTES generic only so that the testbench binds to it as it will bind to the twin; any other
value stops the elaboration).

Usage: netlist2vhdl.py --data-bytes N [--clk-freq-hz F] [--line-rate L] [--out DIR] [--rtl DIR] [--force]
Writes DIR/dcqcn_cosim_top.vhd, DIR/netlist.json, DIR/yosys.log, DIR/stat.txt; skips the build when
DIR/inputs.sha256 matches the inputs (RTL, wrapper, this script, Yosys version, parameters).
Python 3.11 standard library only.
"""

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRAPPER = ROOT / "verilator" / "dcqcn_cosim_top.sv"
TOP = "dcqcn_rl"

# Yosys simple gates: output expression over the input pins (VHDL, std_ulogic operands).
GATES = {
    "$_BUF_": ("A",), "$_NOT_": ("A",),
    "$_AND_": ("A", "B"), "$_NAND_": ("A", "B"), "$_OR_": ("A", "B"), "$_NOR_": ("A", "B"),
    "$_XOR_": ("A", "B"), "$_XNOR_": ("A", "B"), "$_ANDNOT_": ("A", "B"), "$_ORNOT_": ("A", "B"),
    "$_MUX_": ("A", "B", "S"), "$_NMUX_": ("A", "B", "S"),
    "$_AOI3_": ("A", "B", "C"), "$_OAI3_": ("A", "B", "C"),
    "$_AOI4_": ("A", "B", "C", "D"), "$_OAI4_": ("A", "B", "C", "D"),
}
GATE_EXPR = {
    "$_BUF_": "{A}",
    "$_NOT_": "not {A}",
    "$_AND_": "{A} and {B}",
    "$_NAND_": "{A} nand {B}",
    "$_OR_": "{A} or {B}",
    "$_NOR_": "{A} nor {B}",
    "$_XOR_": "{A} xor {B}",
    "$_XNOR_": "{A} xnor {B}",
    "$_ANDNOT_": "{A} and not {B}",
    "$_ORNOT_": "{A} or not {B}",
    "$_MUX_": "{B} when {S} = '1' else {A}",
    "$_NMUX_": "not {B} when {S} = '1' else not {A}",
    "$_AOI3_": "not (({A} and {B}) or {C})",
    "$_OAI3_": "not (({A} or {B}) and {C})",
    "$_AOI4_": "not (({A} and {B}) or ({C} and {D}))",
    "$_OAI4_": "not (({A} or {B}) and ({C} or {D}))",
}
# Synchronous flops: $_DFF_<C>_, $_DFFE_<C><E>_, $_SDFF_<C><R><V>_, $_SDFFE_<C><R><V><E>_ (reset
# wins), $_SDFFCE_<C><R><V><E>_ (reset only when enabled). Asynchronous ones are refused.
FLOP_RE = re.compile(r"^\$_(DFF|DFFE|SDFF|SDFFE|SDFFCE)_([NP])([NP01]*)_$")


def die(msg):
    print(f"netlist2vhdl: error: {msg}", file=sys.stderr)
    sys.exit(1)


def eval_width(expr, data_bytes):
    """Evaluates an SV range bound such as `8*DATA_BYTES-1` (integers, + - * / and DATA_BYTES)."""
    e = expr.replace("DATA_BYTES", str(data_bytes))
    if not re.fullmatch(r"[0-9+\-*/() ]+", e):
        die(f"cannot evaluate range bound `{expr}` in {WRAPPER.name}")
    return int(eval(e.replace("/", "//")))  # noqa: S307 - digits and operators only


# The conditional-compilation directives of a comment-free SV text, and `define / `undef (a
# `define's body runs to the end of its line, lines ended by a backslash continuing it).
DIRECTIVE_RE = re.compile(
    r"`(?P<cond>ifdef|ifndef|elsif)\s+(?P<cname>\w+)"
    r"|`(?P<bare>else|endif)\b"
    r"|`define\s+(?P<dname>\w+)(?:\\\n|[^\n])*"
    r"|`undef\s+(?P<uname>\w+)")


def preprocess(text, defines, what):
    """The comment-free SV `text` with its `ifdef / `ifndef / `elsif / `else / `endif blocks
    resolved for the macros `defines` (each directive and every inactive part replaced by a
    space); `define and `undef in active parts update the macro set from there on. Other
    directives are left; `what` names the text in errors."""
    defined = set(defines)
    stack = []  # per open `ifdef: (enclosing part active, a branch taken, this branch active)
    active = True
    out = []
    pos = 0
    for m in DIRECTIVE_RE.finditer(text):
        if active:
            out.append(text[pos:m.start()])
        out.append(" ")
        pos = m.end()
        kind = m.group("cond") or m.group("bare")
        if kind in ("ifdef", "ifndef"):
            cond = (m.group("cname") in defined) == (kind == "ifdef")
            stack.append((active, cond, active and cond))
        elif kind in ("elsif", "else"):
            if not stack:
                die(f"`{kind} without `ifdef in {what}")
            outer, taken, _ = stack[-1]
            cond = kind == "else" or m.group("cname") in defined
            stack[-1] = (outer, taken or cond, outer and not taken and cond)
        elif kind == "endif":
            if not stack:
                die(f"`endif without `ifdef in {what}")
            stack.pop()
        elif active and m.group("dname"):
            defined.add(m.group("dname"))
        elif active and m.group("uname"):
            defined.discard(m.group("uname"))
        active = stack[-1][2] if stack else True
    if stack:
        die(f"{len(stack)} `ifdef block(s) without `endif in {what}")
    out.append(text[pos:])
    return "".join(out)


def parse_wrapper(data_bytes):
    """Port list of dcqcn_cosim_top and the st_* -> flattened net name map, from the SV wrapper as
    built without state injection (no macro defined)."""
    text = preprocess(_strip_comments(WRAPPER.read_text()), set(), WRAPPER.name)
    header = re.search(r"module\s+dcqcn_cosim_top\b.*?\)\s*\((.*?)\)\s*;", text, re.S)
    if not header:
        die(f"no dcqcn_cosim_top port list in {WRAPPER}")
    ports = []
    for decl in header.group(1).split(","):
        m = re.fullmatch(
            r"\s*(input|output)\s+(?:wire\s+)?(?:logic\s*)?(?:\[\s*([^:\]]+):\s*([^\]]+)\])?\s*(\w+)\s*",
            decl)
        if not m:
            die(f"cannot parse port declaration `{decl.strip()}` in {WRAPPER.name}")
        direction, msb, lsb, name = m.groups()
        if msb is None:
            ports.append((name, direction, 1, False))
        else:
            hi, lo = eval_width(msb, data_bytes), eval_width(lsb, data_bytes)
            if lo != 0 or hi < 0:
                die(f"port {name}: only [N:0] ranges are supported")
            ports.append((name, direction, hi + 1, True))
    st_map = {}
    for m in re.finditer(r"assign\s+(st_\w+)\s*=\s*dut\.([\w.]+)\s*;", text):
        st_map[m.group(1)] = m.group(2)
    st_ports = [p[0] for p in ports if p[0].startswith("st_")]
    missing = [p for p in st_ports if p not in st_map]
    extra = [s for s in st_map if s not in st_ports]
    if missing or extra:
        die(f"st_* ports without an assign: {missing}; assigns without a port: {extra}")
    return ports, st_map


def _strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


class Structs:
    """The packed structs of the RTL: field layouts and the variables declared with them.

    Handles what the RTL uses: `typedef struct packed { <type> <name>; ... } <name>_t;` with
    `logic`, `logic [N:M]` (integer bounds) or another struct as field types, one field per
    declaration, and struct variables declared as `<name>_t <var>;` (a variable name must have one
    type across the RTL)."""

    def __init__(self, files):
        self.types = {}
        self.vars = {}
        for f in files:
            text = _strip_comments(f.read_text())
            for m in re.finditer(r"typedef\s+struct\s+packed\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
                fields = []
                for decl in m.group(1).split(";"):
                    if not decl.strip():
                        continue
                    d = re.fullmatch(r"\s*(\w+)\s*(?:\[\s*(\d+)\s*:\s*(\d+)\s*\])?\s*(\w+)\s*", decl)
                    if not d:
                        die(f"{f.name}: struct {m.group(2)}: cannot parse field `{decl.strip()}`")
                    fields.append(d.groups())
                self.types[m.group(2)] = fields
            body = re.sub(r"typedef\s+struct\s+packed\s*\{.*?\}\s*\w+\s*;", "", text, flags=re.S)
            for m in re.finditer(r"^\s*(\w+_t)\s+(\w+)\s*;", body, re.M):
                typ, var = m.groups()
                if self.vars.setdefault(var, typ) != typ:
                    die(f"struct variable `{var}` declared with two types ({self.vars[var]}, {typ})")

    def width(self, typ):
        return sum(self._field_width(f) for f in self.types[typ])

    def _field_width(self, field):
        ftype, msb, lsb, _ = field
        if ftype == "logic":
            return 1 if msb is None else abs(int(msb) - int(lsb)) + 1
        if ftype in self.types and msb is None:
            return self.width(ftype)
        die(f"unsupported struct field type `{ftype}`")
        return 0

    def field(self, typ, names):
        """(lsb offset, width) of the field path `names` inside a `typ` value."""
        lo, width = 0, self.width(typ)
        for name in names:
            if typ not in self.types:
                die(f"`{name}`: not a struct field path")
            fields = self.types[typ]
            names_here = [f[3] for f in fields]
            if name not in names_here:
                die(f"struct {typ} has no field `{name}`")
            idx = names_here.index(name)
            lo += sum(self._field_width(f) for f in fields[idx + 1:])
            width = self._field_width(fields[idx])
            typ = fields[idx][0]
        return lo, width

    def split(self, path):
        """A wrapper path as (net, lsb offset, width or None): the net is the path up to its first
        struct variable; the rest of the path is a field inside it."""
        parts = path.split(".")
        for i, part in enumerate(parts[:-1]):
            if part in self.vars:
                lo, width = self.field(self.vars[part], parts[i + 1:])
                return ".".join(parts[:i + 1]), lo, width
        return path, 0, None


def yosys_script(data_bytes, clk_hz, line_rate, rtl, rtl_dir, nets, json_path):
    keep = " ".join(f"w:{net}" for net in nets)
    return "\n".join([
        f"read_verilog -sv -I{rtl_dir} " + " ".join(str(p) for p in rtl),
        f"hierarchy -check -top {TOP} -chparam DATA_BYTES {data_bytes}"
        f" -chparam CLK_FREQ_HZ 32'd{clk_hz} -chparam LINE_RATE 32'd{line_rate}",
        "proc",
        "flatten",
        # the architectural registers must survive optimisation under their flattened names
        f"select -assert-count {len(nets)} {keep}",
        f"setattr -set keep 1 {keep}",
        f"synth -top {TOP} -flatten",
        "abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX",
        "opt_clean",
        "check -assert",
        "tee -o stat.txt stat",
        f"write_json {json_path.name}",
        "",
    ])


def inputs_hash(params, rtl, yosys):
    """Over the parameters, Yosys version, this script, the wrapper and the RTL (includes too)."""
    h = hashlib.sha256()
    version = subprocess.run([yosys, "-V"], capture_output=True, text=True, check=True).stdout
    h.update(f"{params}\n{version}\n".encode())
    for p in [Path(__file__).resolve(), WRAPPER, *rtl]:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


class Netlist:
    """Names the JSON nets as VHDL expressions: input port bits directly, other nets n<id>."""

    def __init__(self, module):
        self.module = module
        self.input_bit = {}
        for name, port in module["ports"].items():
            if port["direction"] == "input":
                for i, b in enumerate(port["bits"]):
                    if isinstance(b, int):
                        self.input_bit[b] = f"{name}({i})" if len(port["bits"]) > 1 else name
        self.nets = set()
        self.undefined_constants = 0

    def ref(self, bit):
        if isinstance(bit, str):
            if bit in ("0", "1"):
                return f"'{bit}'"
            self.undefined_constants += 1
            return "'X'"
        if bit in self.input_bit:
            return self.input_bit[bit]
        self.nets.add(bit)
        return f"n{bit}"


def translate(module, ports, st_map, structs, data_bytes, params):
    net = Netlist(module)
    body = []
    flops = []
    kinds = Counter()
    driven = set()
    clk_bit = module["ports"]["clk"]["bits"][0]

    for cname, cell in sorted(module["cells"].items(), key=lambda kv: kv[0]):
        ctype = cell["type"]
        conn = cell["connections"]
        kinds[ctype] += 1
        if ctype in GATES:
            pins = {p: net.ref(conn[p][0]) for p in GATES[ctype]}
            y = conn["Y"][0]
            driven.add(y)
            body.append(f"  {net.ref(y)} <= {GATE_EXPR[ctype].format(**pins)};")
            continue
        m = FLOP_RE.match(ctype)
        if not m:
            die(f"cell {cname}: unsupported cell type {ctype}")
        kind, cpol, rest = m.groups()
        if cpol != "P" or conn["C"][0] != clk_bit:
            die(f"cell {cname}: flop not clocked by the rising edge of clk")
        q = conn["Q"][0]
        driven.add(q)
        qn, d = net.ref(q), net.ref(conn["D"][0])
        load = f"{qn} <= {d};"
        if kind == "DFF":
            flops.append(f"      {load}")
        elif kind == "DFFE":
            e = net.ref(conn["E"][0])
            flops.append(f"      if {e} = '{1 if rest[0] == 'P' else 0}' then {load} end if;")
        else:
            r = net.ref(conn["R"][0])
            rlev = "1" if rest[0] == "P" else "0"
            rval = rest[1]
            reset = f"if {r} = '{rlev}' then {qn} <= '{rval}'; else {load} end if;"
            if kind == "SDFF":
                flops.append(f"      {reset}")
            else:
                e = net.ref(conn["E"][0])
                elev = "1" if rest[2] == "P" else "0"
                if kind == "SDFFE":
                    flops.append(f"      if {r} = '{rlev}' then {qn} <= '{rval}'; "
                                 f"elsif {e} = '{elev}' then {load} end if;")
                else:
                    flops.append(f"      if {e} = '{elev}' then {reset} end if;")

    # output ports of dcqcn_rl and the st_* registers, in the wrapper's port order
    outs = []
    for name, direction, width, is_vec in ports:
        if direction != "output":
            continue
        if name.startswith("st_"):
            path = st_map[name]
            net_name, lo, field_width = structs.split(path)
            nn = module["netnames"].get(net_name)
            if nn is None:
                die(f"{name}: net {net_name} not in the netlist")
            bits = nn["bits"]
            if field_width is not None:
                if len(bits) != structs.width(structs.vars[net_name.split(".")[-1]]):
                    die(f"{name}: net {net_name} has {len(bits)} bits, its struct type another width")
                bits = bits[lo:lo + field_width]
        else:
            bits = module["ports"][name]["bits"]
        if len(bits) != width:
            die(f"{name}: {len(bits)} bits in the netlist, {width} in {WRAPPER.name}")
        refs = [net.ref(b) for b in bits]
        if not is_vec:
            outs.append(f"  {name} <= {refs[0]};")
        elif width == 1:
            outs.append(f"  {name} <= (0 => {refs[0]});")
        else:
            outs.append(f"  {name} <= " + " & ".join(reversed(refs)) + ";")

    undriven = sorted(n for n in net.nets if n not in driven)
    if undriven:
        die(f"{len(undriven)} nets without a driver, e.g. n{undriven[0]}")

    lines = [
        "-- Generated by scripts/netlist2vhdl.py from rtl/*.sv and verilator/dcqcn_cosim_top.sv.",
        "-- Do not edit, do not commit: testbench/vhdl/run.sh regenerates it.",
        f"-- Gate-level netlist of dcqcn_rl (Yosys; {params}) with the st_* registers",
        f"-- of dcqcn_cosim_top; {sum(kinds.values())} cells: "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ".",
        "",
        "library ieee;",
        "use ieee.std_logic_1164.all;",
        "",
        "entity dcqcn_cosim_top is",
        "  generic (",
        f"    DATA_BYTES : positive := {data_bytes}  -- fixed: this netlist is built for one width",
        "  );",
        "  port (",
    ]
    decls = []
    for name, direction, width, is_vec in ports:
        mode = "in " if direction == "input" else "out"
        typ = f"std_logic_vector({width - 1} downto 0)" if is_vec else "std_logic"
        decls.append(f"    {name} : {mode} {typ}")
    lines.append(";\n".join(decls))
    lines += ["  );", "end entity dcqcn_cosim_top;", "", "architecture netlist of dcqcn_cosim_top is"]
    lines += [f"  signal n{n} : std_ulogic;" for n in sorted(net.nets)]
    lines += [
        "begin",
        f"  assert DATA_BYTES = {data_bytes}",
        f"    report \"dcqcn_cosim_top: this netlist was built for DATA_BYTES = {data_bytes}\""
        " severity failure;",
        "",
        "  -- flops: all on the rising edge of clk, synchronous reset and enable as mapped by Yosys",
        "  p_flops : process (clk)",
        "  begin",
        "    if rising_edge(clk) then",
        *flops,
        "    end if;",
        "  end process p_flops;",
        "",
        "  -- ports",
        *outs,
        "",
        "  -- gates",
        *body,
        "end architecture netlist;",
        "",
    ]
    return "\n".join(lines), kinds, len(flops), net.undefined_constants


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-bytes", type=int, required=True)
    ap.add_argument("--clk-freq-hz", type=int, default=156_250_000, help="CLK_FREQ_HZ (RTL default)")
    ap.add_argument("--line-rate", type=int, default=1_250_000_000, help="LINE_RATE, bytes/s (RTL default)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--rtl", type=Path, default=ROOT / "rtl",
                    help="folder of the RTL sources (default rtl/; another one for a mutant)")
    ap.add_argument("--yosys", default="yosys")
    ap.add_argument("--force", action="store_true", help="rebuild even if the inputs are unchanged")
    args = ap.parse_args()
    n = args.data_bytes
    if not 1 <= n <= 64:
        die("--data-bytes must be 1..64")
    if not 65537 <= args.clk_freq_hz <= 2**32 - 1 or not 1 <= args.line_rate <= 2**32 - 1:
        die("--clk-freq-hz must be 65537..2^32-1, --line-rate 1..2^32-1 (spec 2)")
    params = f"DATA_BYTES={n} CLK_FREQ_HZ={args.clk_freq_hz} LINE_RATE={args.line_rate}"
    out = (args.out or ROOT / "target" / "golden-vhdl" / f"w{n}").resolve()
    out.mkdir(parents=True, exist_ok=True)
    rtl_dir = args.rtl.resolve()
    rtl = sorted(rtl_dir.glob("*.sv"))
    if not rtl:
        die(f"no *.sv in {args.rtl}")
    includes = sorted(rtl_dir.glob("*.svh"))
    vhd = out / "dcqcn_cosim_top.vhd"
    stamp = out / "inputs.sha256"
    digest = inputs_hash(params, rtl + includes, args.yosys)
    if not args.force and vhd.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        print(f"netlist2vhdl: {vhd} is up to date")
        return
    ports, st_map = parse_wrapper(n)
    structs = Structs(rtl + includes)
    nets = sorted({structs.split(path)[0] for path in st_map.values()})
    json_path = out / "netlist.json"
    script = out / "netlist.ys"
    script.write_text(yosys_script(n, args.clk_freq_hz, args.line_rate, rtl, rtl_dir, nets, json_path))
    res = subprocess.run([args.yosys, "-q", "-l", "yosys.log", "-s", script.name], cwd=out,
                         stdout=subprocess.DEVNULL)
    if res.returncode != 0:
        die(f"yosys failed, see {out / 'yosys.log'}")
    module = json.loads(json_path.read_text())["modules"][TOP]
    text, kinds, nflops, nx = translate(module, ports, st_map, structs, n, params)
    if nx:
        print(f"netlist2vhdl: warning: {nx} undefined constant bits driven as 'X'", file=sys.stderr)
    tmp = vhd.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(vhd)
    stamp.write_text(digest + "\n")
    print(f"netlist2vhdl: {vhd}: {sum(kinds.values())} cells ({nflops} flops), "
          f"{len(st_map)} st_* registers, {params}")


if __name__ == "__main__":
    main()
