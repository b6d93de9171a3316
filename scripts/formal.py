#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""formal: proves the SystemVerilog RTL (rtl/*.sv) and the VHDL twin (rtl/vhdl/*.vhd) sequentially
equivalent with Yosys, for each beat width (docs/formal.md).

Both tops are `dcqcn_rl` with the default clock and line rate. Yosys reads the SV (`read_verilog
-sv`) and the twin through `ghdl --synth --out=verilog` (scripts/vhdl2verilog.py, with its repairs of
GHDL 2.0's Verilog), and each design is flattened to one module whose only state elements are `$dff`
cells (anything else stops the run). The register correspondence is built field by field:

* VHDL: one record `r` per entity; the field layout (first element at the least significant bits)
  comes from the record declarations in rtl/vhdl/dcqcn_pkg.vhd (vhdl2verilog.records()), the
  record type of each `r` from its entity's declaration.
* SV: one register per field in each module, except dcqcn_regs whose state is the packed struct
  `regs_t r` (first member at the most significant bits), read from rtl/dcqcn_regmap.svh.

* Memories: `memory_map` turns the one RAM (dcqcn_regs' trace storage `trace_mem`, spec 4.10) into
  one `$dff` per word in both designs; the words are fields `<block>.<memory>.e<index>`, paired by
  index. The memory has no reset, so the reset obligation below gives both sides the same memory
  contents (the claim is for equal initial contents; docs/formal.md).

Fields are paired by name inside each block (`u_regs.r.config_word.alpha_g` <-> `u_regs.r.cfg.alpha_g`,
`u_alpha.alpha` <-> `u_alpha.r.alpha`, ...); widths must agree, every VHDL field must have one SV
partner, and every `$dff` bit of both designs must belong to a field. SV fields without a VHDL
partner (the reserved and write-only bits of the SV's register words) are claimed to be constant 0.

Each design's flip-flops are then cut: a field's current value becomes an input port `state:<field>`
and its next value (the flip-flop's D) an output port `next:<field>`. Two obligations, each an
`equiv_make` of the two cut designs (same port names on both sides, shared inputs) followed by
`equiv_simple` and `equiv_status -assert`, one `$equiv` cell per output bit:

1. step: for equal inputs and equal corresponding state (SV-only bits 0), every output port of
   dcqcn_rl is equal and every next state corresponds (SV-only bits stay 0);
2. reset: with rst = 1 and unrelated arbitrary states on the two sides (the memory words aside:
   one state for both), the next states correspond.

(2) puts both designs in corresponding states after any reset cycle, (1) keeps them there and makes
every output equal in every later cycle: the designs are equivalent from the first reset on, for
every input sequence.

Usage: formal.py [--data-bytes N ...] [--base-data-bytes N ...] [--sv-dir DIR] [--vhdl-dir DIR] [--mutant FILE.toml]
                 [--expect-fail] [--work DIR]
Exit 0 when every obligation is proven (or, with --expect-fail, when the proof fails and names the
signals that differ), 1 otherwise, 2 on bad input.
"""

import argparse
import concurrent.futures
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, str(Path(__file__).resolve().parent))
import vhdl2verilog as v2v  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SV_FILES = ["dcqcn_cnp_sync.sv", "dcqcn_alpha.sv", "dcqcn_rate_dec.sv", "dcqcn_rate_inc.sv",
            "dcqcn_credit_gate.sv", "dcqcn_regs.sv", "dcqcn_rl.sv"]
# every cell type a flattened, proc'd design may hold; anything else (latches, other flip-flop
# types, memories) stops the run, so no state element escapes the correspondence
COMB_CELLS = {"$add", "$sub", "$mul", "$and", "$or", "$xor", "$xnor", "$not", "$neg", "$pos",
              "$logic_not", "$logic_and", "$logic_or", "$reduce_and", "$reduce_or", "$reduce_xor",
              "$reduce_xnor", "$reduce_bool", "$eq", "$ne", "$eqx", "$nex", "$lt", "$le", "$gt",
              "$ge", "$mux", "$pmux", "$bmux", "$shr", "$shl", "$sshr", "$sshl", "$shift",
              "$shiftx", "$demux", "$div", "$mod", "$divfloor", "$modfloor", "$concat", "$slice"}


class Error(Exception):
    pass


class Fail(Exception):
    """The proof failed: the designs differ (or a correspondence is wrong)."""


def run(cmd, log):
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    log.write_text(p.stdout + p.stderr)
    return p


def yosys(script, log):
    p = run(["yosys", "-p", script], log)
    if p.returncode != 0:
        err = [ln for ln in (p.stdout + p.stderr).splitlines() if "ERROR" in ln]
        raise Error(f"yosys failed (log {log}): {err[-1] if err else 'exit ' + str(p.returncode)}")
    return p.stdout


# ---------------------------------------------------------------------------------------------
# Field layouts
# ---------------------------------------------------------------------------------------------

def sv_structs(text):
    """{type: [(member, width or type name)]} of the `typedef struct packed` in an SV text."""
    structs = {}
    for m in re.finditer(r"typedef\s+struct\s+packed\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        members = []
        for line in m.group(1).splitlines():
            line = line.split("//")[0].strip()
            if not line:
                continue
            f = re.fullmatch(r"logic\s*(?:\[(\d+):(\d+)\])?\s+(\w+)\s*;", line)
            if f:
                w = int(f.group(1)) - int(f.group(2)) + 1 if f.group(1) else 1
                members.append((f.group(3), w))
                continue
            f = re.fullmatch(r"(\w+)\s+(\w+)\s*;", line)
            if not f:
                raise Error(f"struct {m.group(2)}: cannot read member `{line}`")
            members.append((f.group(2), f.group(1)))
        structs[m.group(2)] = members
    return structs


def sv_width(structs, ty):
    return sum(w if isinstance(w, int) else sv_width(structs, w) for _, w in structs[ty])


def sv_leaves(structs, ty, path, lsb_top):
    """[(path, lsb, width)] of a packed struct whose most significant bit is lsb_top - 1."""
    out = []
    pos = lsb_top
    for name, w in structs[ty]:
        fw = w if isinstance(w, int) else sv_width(structs, w)
        pos -= fw
        if isinstance(w, int):
            out.append((path + [name], pos, fw))
        else:
            out.extend(sv_leaves(structs, w, path + [name], pos + fw))
    return out


def vhdl_leaves(recs, ty, constraints, path, lsb):
    """[(path, lsb, width)] of a VHDL record, first element at the least significant bits."""
    out = []
    for name, w in recs[ty]:
        fw = v2v.field_width(recs, name, w, constraints)
        if isinstance(w, str):
            out.extend(vhdl_leaves(recs, w, constraints, path + [name], lsb))
        else:
            out.append((path + [name], lsb, fw))
        lsb += fw
    return out


def vhdl_record_of(vhdl_dir, entity, data_bytes, recs):
    """(record type, constraints) of `signal r` in an entity's architecture."""
    text = (vhdl_dir / f"{entity}.vhd").read_text()
    m = re.search(r"^\s*signal\s+r\s*:\s*(\w+)", text, re.M | re.I)
    if not m:
        raise Error(f"{entity}.vhd: no `signal r : <record>`")
    ty = m.group(1).lower()
    constraints = {}
    if ty not in recs:
        sub = re.search(rf"subtype\s+{ty}\s+is\s+(\w+)\s*\((.*?)\)\s*;", text, re.I | re.S)
        if not sub:
            raise Error(f"{entity}.vhd: record type {ty} not found")
        ty = sub.group(1).lower()
        for c in re.finditer(r"(\w+)\s*\(([^()]*)\s+downto\s+0\)", sub.group(2)):
            expr = c.group(2).replace("DATA_BYTES", str(data_bytes))
            if not re.fullmatch(r"[\d\s+*-]+", expr):
                raise Error(f"{entity}.vhd: cannot evaluate `{c.group(2)}`")
            constraints[c.group(1).lower()] = eval(expr) + 1  # digits and + - * only
    if ty not in recs:
        raise Error(f"{entity}.vhd: record type {ty} not in dcqcn_pkg.vhd")
    return ty, constraints


def entity_of(block):
    """VHDL entity / SV module of a flattened instance prefix ('' is the top)."""
    return "dcqcn_rl" if block == "" else "dcqcn_" + block[2:]


# ---------------------------------------------------------------------------------------------
# Netlists
# ---------------------------------------------------------------------------------------------

# `memory_map` (after the ROMs) turns the one RAM, dcqcn_regs' trace storage (spec 4.10), into one
# `$dff` per entry plus its write-enable and read multiplexers; the entries are paired by index
# (memory_words)
PREP = "proc; flatten; memory -nomap; memory_map -rom-only; memory_map; opt_clean; check -assert"

# a word of a mapped memory: `$memory\<block>.<memory>[<index>]$<n>`
MEMORY_WORD = re.compile(r"\$memory\\(?:(u_\w+)\.)?(\w+)\[(\d+)\]\$\d+")


NORMALISE = "opt_expr -mux_bool; opt_merge; wreduce; opt_clean"
# formal_mq.py, after equiv_make: the bitwise, multiplexer and comparison cells split into one
# cell per bit, constants propagated and equal cells of the two sides merged (the $equiv cells
# left alone). equiv_simple imports whole cells into a SAT problem: a bit of the twin's record
# multiplexers (GHDL builds the next value of a whole record `v` in one chain of wide $mux cells)
# brings in the other bits of the record, hundreds of thousands of literals per $equiv. The
# arithmetic cells ($add, $mul, $lt, ...) stay whole.
BIT_LEVEL = ("simplemap t:$mux t:$and t:$or t:$not t:$xor t:$xnor t:$reduce_and t:$reduce_or "
             "t:$reduce_bool t:$logic_not t:$logic_and t:$logic_or t:$eq t:$ne; "
             "opt_expr t:$equiv %n; opt_merge t:$equiv %n; opt_clean; ")


# spec 2: the feature configurations proven (the SV's parameters, the twin's generics)
FEATURES = {
    "full": {"sv": [], "vhdl": []},
    "base": {"sv": ["RATE_RULES 0", "CONTROL 0", "TRACE_DEPTH 0"],
             "vhdl": ["RATE_RULES=false", "CONTROL=false", "TRACE_DEPTH=0"]},
}


def read_designs(work, sv_dir, vhdl_v, data_bytes, features="full"):
    """Flattened JSON netlists of the SV and of the twin's Verilog."""
    svs = " ".join(str(sv_dir / f) for f in SV_FILES)
    chparams = "".join(f" -chparam {p}" for p in FEATURES[features]["sv"])
    yosys(f"read_verilog -sv -I{sv_dir} {svs}; hierarchy -top dcqcn_rl -chparam DATA_BYTES {data_bytes}"
          f"{chparams}; "
          f"{PREP}; write_json {work / 'sv.json'}", work / "read_sv.log")
    yosys(f"read_verilog {vhdl_v}; hierarchy -top dcqcn_rl; {PREP}; write_json {work / 'vhdl.json'}",
          work / "read_vhdl.log")
    sv = json.loads((work / "sv.json").read_text())["modules"]["dcqcn_rl"]
    vh = json.loads((work / "vhdl.json").read_text())["modules"]["dcqcn_rl"]
    return sv, vh


def flops(mod, side):
    """{Q bit: D bit} of the $dff cells; any other state element is an error."""
    clk = mod["ports"]["clk"]["bits"]
    q2d = {}
    for name, cell in mod["cells"].items():
        ty = cell["type"]
        if ty == "$dff":
            c = cell["connections"]
            if c["CLK"] != clk or cell["parameters"].get("CLK_POLARITY", "1") not in ("1", 1, "00000000000000000000000000000001"):
                raise Error(f"{side}: flip-flop {name} is not on the rising edge of clk")
            for q, d in zip(c["Q"], c["D"]):
                if not isinstance(q, int) or q in q2d:
                    raise Error(f"{side}: flip-flop {name} drives a constant or a driven bit")
                q2d[q] = d
        elif ty not in COMB_CELLS:
            raise Error(f"{side}: cell {name} of type {ty} is not a $dff nor combinational")
    return q2d


def net_bits(mod, name, side):
    if name not in mod["netnames"]:
        raise Error(f"{side}: no net {name} in the flattened netlist")
    return mod["netnames"][name]["bits"]


def sv_registers(sv):
    """{block: [(register net, Q bits)]} of the SV: each $dff is named by its D net, which proc
    calls `$0\\<register>[..]` (under `$flatten\\<block>.` for a sub-block)."""
    regs = {}
    for cname, cell in sv["cells"].items():
        if cell["type"] != "$dff" or MEMORY_WORD.fullmatch(cname):
            continue
        d, q = cell["connections"]["D"], cell["connections"]["Q"]
        found = None
        for nname, net in sv["netnames"].items():
            m = re.fullmatch(r"(?:\$flatten\\(u_\w+)\.)?\$0\\(\w+)\[\d+:0\]", nname)
            if m and net["bits"] == d:
                found = (m.group(1) or "", m.group(2))
                break
        if not found:
            raise Error(f"SV: cannot name flip-flop {cname} (no `$0\\<register>` net on its D input)")
        block, local = found
        name = f"{block}.{local}" if block else local
        if net_bits(sv, name, "SV") != q:
            raise Error(f"SV: flip-flop {cname}: net {name} is not its Q output")
        regs.setdefault(block, []).append((name, q))
    return regs


def memory_words(mod, side):
    """{field name: Q bits} of the words of the mapped memories (`u_regs.trace_mem.e<i>`)."""
    words = {}
    for cname, cell in mod["cells"].items():
        m = MEMORY_WORD.fullmatch(cname)
        if cell["type"] != "$dff" or not m:
            continue
        name = f"{m.group(1) + '.' if m.group(1) else ''}{m.group(2)}.e{int(m.group(3))}"
        if name in words:
            raise Error(f"{side}: two flip-flop cells for memory word {name}")
        words[name] = cell["connections"]["Q"]
    return words


def correspondence(sv, vh, sv_dir, vhdl_dir, data_bytes):
    """[(field, sv bits, vhdl bits)] and [(sv-only field, sv bits)], checked for coverage."""
    recs = v2v.records((vhdl_dir / "dcqcn_pkg.vhd").read_text())
    structs = sv_structs((sv_dir / "dcqcn_regmap.svh").read_text())
    sv_q2d, vh_q2d = flops(sv, "SV"), flops(vh, "VHDL")
    # the VHDL state: `<block>.r` of every block
    sv_regs = sv_registers(sv)
    blocks = [""] + sorted(n[:-2] for n in vh["netnames"] if re.fullmatch(r"u_\w+\.r", n))
    pairs, sv_only = [], []
    vh_cov, sv_cov = set(), set()
    for block in blocks:
        ent = entity_of(block)
        ty, cons = vhdl_record_of(vhdl_dir, ent, data_bytes, recs)
        rname = f"{block}.r" if block else "r"
        rbits = net_bits(vh, rname, "VHDL")
        total = v2v.width(recs, ty, cons)
        if len(rbits) != total:
            raise Error(f"VHDL {rname}: {len(rbits)} bits, record {ty} is {total}")
        vleaves = {}
        for path, lsb, w in vhdl_leaves(recs, ty, cons, [], 0):
            if path[-1] in vleaves:
                raise Error(f"VHDL {ent}: field name {path[-1]} is not unique in {ty}")
            vleaves[path[-1]] = (rname + "." + ".".join(path), rbits[lsb:lsb + w])
        # the SV registers of the same block: one net per field, or a packed struct
        sv_text = (sv_dir / f"{ent}.sv").read_text()
        sleaves = []
        for name, bits in sv_regs[block]:
            local = name.rsplit(".", 1)[-1]
            st = re.search(rf"^\s*(\w+_t)\s+{local}\s*;", sv_text, re.M)
            if st and st.group(1) in structs:
                if sv_width(structs, st.group(1)) != len(bits):
                    raise Error(f"SV {name}: {len(bits)} bits, struct {st.group(1)} is "
                                f"{sv_width(structs, st.group(1))}")
                for path, lsb, w in sv_leaves(structs, st.group(1), [], len(bits)):
                    # a member named after an SV keyword carries a trailing _ (`time_`), the
                    # twin's field does not (`time`)
                    sleaves.append((f"{name}." + ".".join(path), path[-1].rstrip("_"),
                                    bits[lsb:lsb + w]))
            else:
                sleaves.append((name, local, bits))
        names = [leaf for _, leaf, _ in sleaves]
        for sname, leaf, bits in sleaves:
            if leaf in vleaves and names.count(leaf) > 1:
                raise Error(f"SV {ent}: field name {leaf} is not unique")
            if leaf in vleaves:
                vname, vbits = vleaves.pop(leaf)
                if len(vbits) != len(bits):
                    raise Error(f"{sname} is {len(bits)} bits, {vname} {len(vbits)}")
                pairs.append((vname, sname, bits, vbits))
                vh_cov.update(vbits)
            else:
                sv_only.append((sname, bits))
            sv_cov.update(bits)
        if vleaves:
            raise Error(f"VHDL fields without an SV register: {', '.join(v[0] for v in vleaves.values())}")
    # the memories' words, by block, memory name and index (same names in both designs)
    sv_words, vh_words = memory_words(sv, "SV"), memory_words(vh, "VHDL")
    if set(sv_words) != set(vh_words):
        diff = sorted(set(sv_words) ^ set(vh_words))
        raise Error(f"memory words in one design only: {', '.join(diff[:4])}")
    MEMORY_FIELDS.clear()
    MEMORY_FIELDS.update(sv_words)
    for name in sorted(sv_words, key=lambda n: (n.rsplit(".e", 1)[0], int(n.rsplit(".e", 1)[1]))):
        sbits, vbits = sv_words[name], vh_words[name]
        if len(sbits) != len(vbits):
            raise Error(f"memory word {name}: {len(sbits)} bits in the SV, {len(vbits)} in the twin")
        pairs.append((name, name, sbits, vbits))
        sv_cov.update(sbits)
        vh_cov.update(vbits)
    for side, q2d, cov in (("SV", sv_q2d, sv_cov), ("VHDL", vh_q2d, vh_cov)):
        if set(q2d) != cov:
            raise Error(f"{side}: {len(set(q2d) - cov)} flip-flop bits outside the correspondence")
    return pairs, sv_only, sv_q2d, vh_q2d


def substitute(mod, subst):
    """Replace bits (int -> int or constant) in every cell connection, port and net of a module."""
    def fix(bits):
        return [subst.get(b, b) if isinstance(b, int) else b for b in bits]
    for cell in mod["cells"].values():
        for p in cell["connections"]:
            cell["connections"][p] = fix(cell["connections"][p])
    for port in mod["ports"].values():
        port["bits"] = fix(port["bits"])
    for net in mod["netnames"].values():
        net["bits"] = fix(net["bits"])


def cut(mod, q2d, fields, sv_only, side, mode, free_bits, cutpoints=(), free_cuts=None):
    """The module with its flip-flops turned into state:/next: ports (docstring of the script).

    fields: [(name, Q bits)] of this side; sv_only: [(name, Q bits or None)] (None on the VHDL
    side: next value constant 0); mode 'step' or 'reset'; free_bits: a counter for new bit ids.
    """
    m = {"attributes": {}, "ports": {}, "cells": {}, "netnames": {}}
    # keep the netlist, flip-flops removed; internal names prefixed so that equiv_make pairs ports only
    tag = "sv" if side == "gold" else "vh"
    for name, cell in mod["cells"].items():
        if cell["type"] != "$dff":
            m["cells"][f"{tag}:{name}"] = json.loads(json.dumps(cell))
    for name, net in mod["netnames"].items():
        net = json.loads(json.dumps(net))
        net.get("attributes", {}).pop("init", None)  # no flip-flops left: power-up values unused
        keep = name.startswith("$")
        m["netnames"][name if keep else f"{tag}:{name}"] = net
    ports = {}
    for name, p in mod["ports"].items():
        if mode == "reset" and (name == "rst" or p["direction"] == "output"):
            continue
        ports[name] = {"direction": p["direction"], "bits": list(p["bits"])}
    subst = {}
    if mode == "reset":
        for b in mod["ports"]["rst"]["bits"]:
            subst[b] = "1"
    if mode == "step":
        for name, bits in sv_only:
            if bits is not None:
                for b in bits:
                    subst[b] = "0"

    def nxt(bits):
        return [q2d[b] for b in bits]

    for name, bits in fields:
        if mode == "step":
            ports[f"state:{name}"] = {"direction": "input", "bits": list(bits)}
        ports[f"next:{name}"] = {"direction": "output", "bits": nxt(bits)}
    for name, bits in sv_only:
        ports[f"next:{name}"] = {"direction": "output",
                                 "bits": nxt(bits) if bits is not None else ["0"] * width_of[name]}
    if mode == "reset":
        # the memories have no reset: both sides read the same contents (docs/formal.md)
        for name, bits in fields:
            if name in MEMORY_FIELDS:
                ports[f"state:{name}"] = {"direction": "input", "bits": list(bits)}
        # both sides get both state sets (unrelated states); each reads its own
        own = "gold" if side == "gold" else "gate"
        for s in ("gold", "gate"):
            for name, bits in fields + [(n, b) for n, b in sv_only]:
                w = len(bits) if bits is not None else width_of[name]
                if name in MEMORY_FIELDS:
                    continue
                if s == own and bits is not None:
                    ports[f"state_{s}:{name}"] = {"direction": "input", "bits": list(bits)}
                else:
                    fresh = list(range(free_bits[0], free_bits[0] + w))
                    free_bits[0] += w
                    ports[f"state_{s}:{name}"] = {"direction": "input", "bits": fresh}
    m["ports"] = ports
    substitute(m, subst)
    # next values must not read a replaced bit through the port list
    if mode == "step" and free_cuts is not None:
        free_cut_points(m, tag, *free_cuts)
    elif mode == "step":
        cut_points(m, tag, cutpoints, free_bits)
    return m


def cut_points(m, tag, cutpoints, free_bits):
    """Cut the module at the cut points: each one's driver becomes the output port `<net>` (its
    obligation), and both sides get an input port `cut:<net>` (paired by name). On both sides
    every cell that reads a cut point reads `cut:<net>` instead; `prove` drives that port with the
    SV's value. So both sides downstream of a cut point read the SV's value of it, whatever the
    twin computes upstream (the cone of a bit downstream stops there on the twin's side), and the
    twin's value is proven equal to it by the cut point's own obligation. (On the SV's side the
    value read is unchanged; reading it through the same port makes a cell downstream that the
    two HDLs build alike one cell after `opt_merge`, e.g. a product whose factor reads a cut
    point, which SAT could not prove equal to its twin otherwise.)"""
    rewire = {}
    for name in sorted(cutpoints):
        bits = m["netnames"][f"{tag}:{name}"]["bits"]
        fresh = list(range(free_bits[0], free_bits[0] + len(bits)))
        free_bits[0] += len(bits)
        for b, f in zip(bits, fresh):
            if isinstance(b, int):
                if b in rewire:
                    raise Error(f"cut point {name}: a bit is also in another cut point")
                rewire[b] = f
        m["ports"][name] = {"direction": "output", "bits": list(bits)}
        m["ports"][f"cut:{name}"] = {"direction": "input", "bits": fresh}
    for cell in m["cells"].values():
        for port, conn in cell["connections"].items():
            if cell["port_directions"][port] == "input":
                cell["connections"][port] = [rewire.get(b, b) if isinstance(b, int) else b
                                             for b in conn]


def free_cut_points(m, tag, plan, fresh):
    """Cut the module at free cut points (formal_mq.py): every cell and output port of EITHER side
    that reads a cut point reads the shared input `cut:<net>` instead, and the cut point's driver
    becomes the output port `<net>` (its obligation). plan: {net: [(SV bit, twin bit)]}, the bits
    of the net in the two designs, position by position; fresh: {SV bit: input bit}, the same for
    both sides. A net that is a second name of bits already cut in the SV but its own signal in the
    twin (the twin computes each copy of a memory's read address apart) reads the first name's
    input on both sides, and its obligation proves the twin's copy equal to the SV's signal. A bit
    that is a constant on either side is not cut (its readers keep their drivers).

    This is a stronger claim than cut_points() (each obligation holds for every value of the cut
    points, not only for the SV's): each $equiv is proven over the logic between cut points only.
    It composes in the same way: the obligations of the cut points, in the (acyclic) order of the
    netlists, make the twin's value of every cut point the SV's, and the SV's is a value of the
    free input, so every other obligation holds of the real designs."""
    side = 0 if tag == "sv" else 1
    rewire = {}
    for name in sorted(plan):
        m["ports"][name] = {"direction": "output", "bits": [p[side] for p in plan[name]]}
        for pair in plan[name]:
            if all(isinstance(b, int) for b in pair):
                target = fresh[pair[0]]
                if rewire.setdefault(pair[side], target) != target:
                    raise Error(f"cut point {name}: a {tag} bit is also another cut point's, with other SV bits")
    for name, new in free_cut_inputs(plan, fresh).items():
        m["ports"][f"cut:{name}"] = {"direction": "input", "bits": [f for _, f in new]}
    for cell in m["cells"].values():
        for port, conn in cell["connections"].items():
            if cell["port_directions"][port] == "input":
                cell["connections"][port] = [rewire.get(b, b) if isinstance(b, int) else b
                                             for b in conn]
    for name, p in m["ports"].items():
        if p["direction"] == "output" and name not in plan:
            p["bits"] = [rewire.get(b, b) if isinstance(b, int) else b for b in p["bits"]]


def free_cut_inputs(plan, fresh):
    """{net: [(bit position, input bit)]}: the bits of the input port `cut:<net>`, those of the
    net's bits that no earlier net (in name order) has introduced (free_cut_points)."""
    out, introduced = {}, set()
    for name in sorted(plan):
        for i, (sb, vb) in enumerate(plan[name]):
            if isinstance(sb, int) and isinstance(vb, int) and fresh[sb] not in introduced:
                introduced.add(fresh[sb])
                out.setdefault(name, []).append((i, fresh[sb]))
    return out


width_of = {}
# the memory words' field names (memory_words), shared state in the reset obligation
MEMORY_FIELDS = set()


def cutpoints(sv, vh, sv_q2d, vh_q2d, sv_dir):
    """{net: width}: the output ports of the sub-blocks (`u_rate_dec.rc_dec`, `u_credit_gate.bytes_in`,
    ...), which the twin has under the same instance and port names. equiv_make pairs them too, so
    each is proven on its own and the proofs downstream of it assume it (as for the state)."""
    out = {}
    for f in SV_FILES:
        mod = f[:-3]
        if mod == "dcqcn_rl":
            continue
        text = (sv_dir / f).read_text()
        head = re.search(rf"module\s+{mod}\b.*?\((.*?)\);", text, re.S)
        if not head:
            raise Error(f"{f}: no module {mod} header")
        for m in re.finditer(r"^\s*output\b[^,;]*?(\w+)\s*,?\s*(?://.*)?$", head.group(1), re.M):
            net = f"u_{mod[len('dcqcn_'):]}.{m.group(1)}"
            if net not in sv["netnames"] or net not in vh["netnames"]:
                raise Error(f"sub-block output {net} missing in the {'SV' if net not in sv['netnames'] else 'VHDL'} netlist")
            # leave out aliases of the state (already paired) and of the top's ports
            alias = False
            for mod_, q2d in ((sv, sv_q2d), (vh, vh_q2d)):
                bits = mod_["netnames"][net]["bits"]
                if all(b in q2d for b in bits) or any(bits == p["bits"] for p in mod_["ports"].values()):
                    alias = True
            if alias:
                continue
            w = len(sv["netnames"][net]["bits"])
            if w != len(vh["netnames"][net]["bits"]):
                raise Error(f"sub-block output {net}: widths differ")
            out[net] = w
    return out


def check_driven(m, side, mode):
    """Every bit a cell or an output port reads is driven once: by an input port or a cell output.
    (equiv_make would tie an undriven bit to x, which the SAT model reads as 0.)"""
    drivers = {}

    def drive(b, who):
        if isinstance(b, int):
            if b in drivers:
                raise Error(f"{mode} {side}: bit {b} driven by {drivers[b]} and {who}")
            drivers[b] = who
    for name, p in m["ports"].items():
        if p["direction"] == "input":
            for b in p["bits"]:
                drive(b, f"input {name}")
    for cname, c in m["cells"].items():
        for port, bits in c["connections"].items():
            if c["port_directions"][port] == "output":
                for b in bits:
                    drive(b, f"cell {cname}")
    for cname, c in m["cells"].items():
        for port, bits in c["connections"].items():
            if c["port_directions"][port] == "input":
                for b in bits:
                    if isinstance(b, int) and b not in drivers:
                        raise Error(f"{mode} {side}: cell {cname} reads an undriven bit ({port})")
    for name, p in m["ports"].items():
        if p["direction"] == "output":
            for b in p["bits"]:
                if isinstance(b, int) and b not in drivers:
                    raise Error(f"{mode} {side}: output {name} has an undriven bit")


def build(work, sv, vh, pairs, sv_only, sv_q2d, vh_q2d, mode, sv_dir, cps=None, free_plan=None):
    """The two cut designs of one obligation, written as JSON; cps: the cut points ({net: width},
    step only; None: those of dcqcn_rl, cutpoints()); free_plan: free cut points instead
    ({net: [(SV bit, twin bit)]}, free_cut_points(); step only)."""
    nmax = 0
    for mod in (sv, vh):
        for coll in (mod["netnames"].values(), mod["ports"].values()):
            for x in coll:
                nmax = max([nmax] + [b for b in x["bits"] if isinstance(b, int)])
        for c in mod["cells"].values():
            for bits in c["connections"].values():
                nmax = max([nmax] + [b for b in bits if isinstance(b, int)])
    free = [nmax + 1]
    for name, bits in sv_only:
        width_of[name] = len(bits)
    if mode != "step":
        cps = {}
    elif cps is None:
        cps = cutpoints(sv, vh, sv_q2d, vh_q2d, sv_dir)
    free_cuts = None
    if mode == "step" and free_plan is not None:
        cps = {n: len(p) for n, p in free_plan.items()}
        fresh = {}
        for plan in free_plan.values():
            for sb, vb in plan:
                if isinstance(sb, int) and isinstance(vb, int) and sb not in fresh:
                    fresh[sb] = free[0]
                    free[0] += 1
        free_cuts = (free_plan, fresh)
    gold = cut(sv, sv_q2d, [(v, s) for v, _, s, _ in pairs], sv_only, "gold", mode, free, cps, free_cuts)
    gate = cut(vh, vh_q2d, [(v, h) for v, _, _, h in pairs], [(n, None) for n, _ in sv_only], "gate",
               mode, free, cps, free_cuts)
    # every x constant a cell reads becomes a free input bit (chosen independently for each bit
    # and each side), so the proof holds whatever value synthesis or simulation gives an x
    undef = {}
    for tag, mod in (("sv", gold), ("vhdl", gate)):
        bits = []
        for c in mod["cells"].values():
            for port, conn in c["connections"].items():
                if c["port_directions"][port] == "input" and "x" in conn:
                    fresh = []
                    for b in conn:
                        if b == "x":
                            fresh.append(free[0])
                            bits.append(free[0])
                            free[0] += 1
                        else:
                            fresh.append(b)
                    c["connections"][port] = fresh
        undef[tag] = bits
    for tag, mod in (("sv", gold), ("vhdl", gate)):
        for other, bits in undef.items():
            if not bits:
                continue
            if other != tag:
                bits = list(range(free[0], free[0] + len(bits)))
                free[0] += len(bits)
            mod["ports"][f"undef:{other}"] = {"direction": "input", "bits": bits}
    for name, mod in (("gold", gold), ("gate", gate)):
        check_driven(mod, name, mode)
        for pname, p in mod["ports"].items():
            if p["direction"] == "output" and "x" in p["bits"]:
                raise Error(f"{mode} {name}: output {pname} is driven by an x constant")
        (work / f"{mode}_{name}.json").write_text(json.dumps({"modules": {name: mod}}))
    gp = {n: (p["direction"], len(p["bits"])) for n, p in gold["ports"].items()}
    hp = {n: (p["direction"], len(p["bits"])) for n, p in gate["ports"].items()}
    if gp != hp:
        diff = sorted(set(gp.items()) ^ set(hp.items()))
        raise Error(f"{mode}: port lists differ: {diff[:4]}")
    (work / f"{mode}_cutpoints.txt").write_text("".join(f"{c}\n" for c in sorted(cps)))
    if free_cuts is not None:
        # for prove()'s second pass: `cut:<net>` bit k is bit position_k of the net
        (work / f"{mode}_cutinputs.txt").write_text("".join(
            f"{n} {' '.join(str(i) for i, _ in new)}\n" for n, new in free_cut_inputs(*free_cuts).items()))
    ncp = sum(cps.values())
    # the cut points are output ports now (cut_points): counted among the outputs
    return (sum(w for d, w in gp.values() if d == "output"), {k: len(v) for k, v in undef.items()},
            ncp)


def prove(work, mode, free_cuts=False, bit_level=False):
    """equiv_make + equiv_simple + equiv_status; (cells, proven, unproven names). free_cuts: the
    cut points are free inputs of both sides (free_cut_points()), not driven by the SV's value;
    bit_level: BIT_LEVEL before equiv_simple."""
    log = work / f"{mode}.log"
    cuts = [] if free_cuts else (work / f"{mode}_cutpoints.txt").read_text().split()
    second = ""
    if free_cuts:
        # Two passes. The first proves each $equiv for every value of the free cut points. What
        # it leaves depends on how a cut point relates to the signals beside it (a read address
        # and the write address of the same cycle, the visit's `inc` and its phase), so the
        # second pass drives every `cut:<net>` with the SV's value of the net, as cut_points()
        # does, and proves the rest with the cones reaching back through the SV's logic. A
        # proof of the first pass holds for the SV's values too, so the two make the claim of
        # cut_points(). equiv_simple leaves the proven cells alone (their B is their A).
        for ln in (work / f"{mode}_cutinputs.txt").read_text().splitlines():
            net, *pos = ln.split()
            second += f"delete -port w:cut:{net}; "
            k = 0
            while k < len(pos):  # runs of consecutive positions, one connect each
                j = k
                while j + 1 < len(pos) and int(pos[j + 1]) == int(pos[j]) + 1:
                    j += 1
                second += (f"connect -nounset -set cut:{net}[{j}:{k}] "
                           f"{net}_gold[{pos[j]}:{pos[k]}]; ")
                k = j + 1
        second += "equiv_simple; "
    p = run(["yosys", "-p",
             f"read_json {work / (mode + '_gold.json')}; read_json {work / (mode + '_gate.json')}; "
             # the same word-level clean-up on both (combinational) sides, so that operators
             # written alike in the two HDLs (the split DSP products) become alike cells
             f"{NORMALISE}; "
             "equiv_make gold gate equiv; hierarchy -top equiv; "
             # the cut points: the twin's reads of `cut:<net>` read the SV's value (cut_points)
             + "".join(f"delete -port w:cut:{c}; connect -nounset -set cut:{c} {c}_gold; " for c in cuts)
             + "setattr -set keep 1 t:$equiv; opt_merge t:$equiv %n; opt_clean; "
             + (BIT_LEVEL if bit_level else "")
             + "equiv_simple; " + second + "equiv_status; "
             # what is left after removing the proven cells: the unproven ones, named by their Y
             f"equiv_remove; tee -q -o {work / (mode + '_unproven.il')} dump t:$equiv"], log)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        err = [ln for ln in out.splitlines() if "ERROR" in ln]
        raise Error(f"yosys failed (log {log}): {err[-1] if err else 'exit ' + str(p.returncode)}")
    m = re.search(r"Found (\d+) \$equiv cells in equiv:", out)
    if not m:
        raise Error(f"{log}: no equiv_status summary")
    total = int(m.group(1))
    m2 = re.search(r"Of those cells (\d+) are proven and (\d+) are unproven", out)
    proven = int(m2.group(1)) if m2 else total
    dump = (work / f"{mode}_unproven.il").read_text()
    unproven = re.findall(r"^\s*connect \\Y \\(\S+)(?: \[(\d+)\])?\s*$", dump, re.M)
    if len(unproven) != dump.count("cell $equiv"):
        raise Error(f"{work / (mode + '_unproven.il')}: cannot name every unproven $equiv cell")
    if proven + len(unproven) != total:
        raise Error(f"{log}: {total} $equiv cells, {proven} proven, {len(unproven)} listed unproven")
    return total, proven, unproven


def summarise(unproven):
    """[(port, bit or '')] -> ['port[bits]' ...] in first-seen order, bits as ranges."""
    bits = {}
    for port, bit in unproven:
        bits.setdefault(port, []).append(int(bit) if bit else None)
    out = []
    for port, bs in bits.items():
        if bs == [None]:
            out.append(port)
            continue
        bs = sorted(b for b in bs if b is not None)
        ranges, lo = [], bs[0]
        for a, b in zip(bs, bs[1:] + [None]):
            if b != a + 1:
                ranges.append(f"{a}:{lo}" if a != lo else f"{a}")
                if b is not None:
                    lo = b
        out.append(f"{port}[{','.join(reversed(ranges))}]")
    return out


def check_width(args, config):
    data_bytes, features = config
    work = args.work / (f"w{data_bytes}" + ("" if features == "full" else f"-{features}"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    t0 = time.monotonic()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    ns = argparse.Namespace(top="dcqcn_rl", qps=None, data_bytes=data_bytes, clk_freq_hz=None, line_rate=None,
                            src=args.vhdl_dir, ghdl="ghdl", generic=FEATURES[features]["vhdl"])
    try:
        verilog, _, _ = v2v.synth(ns)
    except v2v.Error as e:
        raise Error(str(e)) from e
    (work / "vhdl.v").write_text(verilog)
    sv, vh = read_designs(work, args.sv_dir, work / "vhdl.v", data_bytes, features)
    pairs, sv_only, sv_q2d, vh_q2d = correspondence(sv, vh, args.sv_dir, args.vhdl_dir, data_bytes)
    lines = [f"{v:<40} <-> {s:<44} {len(b):>3} bits" for v, s, b, _ in pairs]
    lines += [f"{'(SV only, constant 0)':<40}     {n:<44} {len(b):>3} bits" for n, b in sv_only]
    (work / "correspondence.txt").write_text("\n".join(lines) + "\n")
    mem = [b for v, _, b, _ in pairs if v in MEMORY_FIELDS]
    res = {"ff_sv": len(sv_q2d), "ff_vhdl": len(vh_q2d), "pairs": len(pairs) - len(mem),
           "mem_words": len(mem), "mem_bits": sum(len(b) for b in mem),
           "paired_bits": sum(len(b) for v, _, b, _ in pairs if v not in MEMORY_FIELDS),
           "sv_only_bits": sum(len(b) for _, b in sv_only)}
    failed = []
    for mode in ("step", "reset"):
        outs, undef, ncp = build(work, sv, vh, pairs, sv_only, sv_q2d, vh_q2d, mode, args.sv_dir)
        res[f"cutpoints_{mode}"] = ncp
        res[f"undef_{mode}"] = undef
        total, proven, unproven = prove(work, mode)
        if total != outs:
            raise Error(f"{mode}: {outs} output bits but {total} $equiv cells")
        res[mode] = (total, proven, len(unproven))
        failed += [f"{mode}: {sig}" for sig in summarise(unproven)]
    res["time"] = time.monotonic() - t0
    res["cpu"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0
    res["failed"] = failed
    return res


def apply_mutant(args):
    """Copies rtl/ under the work directory with the mutant's one edit; returns (sv dir, vhdl dir)."""
    try:
        mut = tomllib.loads(args.mutant.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise Error(f"{args.mutant}: {e}") from e
    for key in ("file", "find", "replace"):
        if not isinstance(mut.get(key), str):
            raise Error(f"{args.mutant}: missing string field `{key}`")
    dst = args.work / "rtl"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(args.sv_dir, dst)
    vdst = dst / "vhdl"
    if vdst.exists():
        shutil.rmtree(vdst)
    shutil.copytree(args.vhdl_dir, vdst)
    target = dst / mut["file"]
    text = target.read_text()
    if text.count(mut["find"]) != 1:
        raise Error(f"{args.mutant}: `find` occurs {text.count(mut['find'])} times in {mut['file']}")
    target.write_text(text.replace(mut["find"], mut["replace"]))
    return dst, vdst, mut.get("description", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-bytes", type=int, nargs="*", default=[8, 32, 64])
    ap.add_argument("--base-data-bytes", type=int, nargs="*", default=[],
                    help="the base feature configuration (spec 2) at these widths too, in the same "
                         "pool of processes (default: none)")
    ap.add_argument("--sv-dir", type=Path, default=ROOT / "rtl")
    ap.add_argument("--vhdl-dir", type=Path, default=ROOT / "rtl" / "vhdl")
    ap.add_argument("--mutant", type=Path, help="a verilator/mutants/*.toml edit applied to a copy")
    ap.add_argument("--expect-fail", action="store_true",
                    help="succeed only if the proof fails (for an injected difference)")
    ap.add_argument("--expect-differ", action="append", default=[], metavar="PORT",
                    help="with --expect-fail: this port (e.g. s_axis_tready, next:u_regs.r.cnt.cnt_stall) "
                         "must be among the unproven ones")
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "formal")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="widths proven at once, one process each (default: one per core)")
    args = ap.parse_args()
    try:
        if not args.data_bytes and not args.base_data_bytes:
            raise Error("--data-bytes and --base-data-bytes name no width: nothing to prove")
        for n in args.data_bytes + args.base_data_bytes:
            if not 1 <= n <= 64:
                raise Error(f"--data-bytes {n}: out of range 1..64")
        args.work.mkdir(parents=True, exist_ok=True)
        if args.mutant:
            args.sv_dir, args.vhdl_dir, desc = apply_mutant(args)
            print(f"formal: mutant {args.mutant.name} ({desc}) applied to a copy in {args.sv_dir}")
        any_fail = False
        differ = set()
        if args.jobs < 1:
            raise Error(f"--jobs {args.jobs}: at least 1")
        # Each width in a process of its own (its CPU figure is its own children's); the results
        # print in the order of --data-bytes.
        configs = [(n, "full") for n in args.data_bytes] + [(n, "base") for n in args.base_data_bytes]
        workers = min(args.jobs, len(configs))
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(check_width, [args] * len(configs), configs))
        for (n, feat), r in zip(configs, results):
            ok = not r["failed"]
            any_fail |= not ok
            print(f"DATA_BYTES={n} {feat}: {'PROVEN' if ok else 'FAILED'} in {r['time']:.1f} s "
                  f"({r['cpu']:.1f} s CPU in yosys/ghdl); flip-flop bits SV "
                  f"{r['ff_sv']}, VHDL {r['ff_vhdl']}; {r['pairs']} fields paired ({r['paired_bits']} bits), "
                  f"{r['mem_words']} memory words paired ({r['mem_bits']} bits), "
                  f"{r['sv_only_bits']} SV-only bits constant 0; x constants as free inputs SV "
                  f"{r['undef_step'].get('sv', 0)}, VHDL {r['undef_step'].get('vhdl', 0)}; $equiv cells step {r['step'][0]} "
                  f"({r['step'][1]} proven, {r['step'][2]} unproven), reset {r['reset'][0]} "
                  f"({r['reset'][1]} proven, {r['reset'][2]} unproven)", flush=True)
            differ.update(f.split(": ", 1)[1].split("[")[0] for f in r["failed"])
            for f in r["failed"][:20]:
                print(f"  differs: {f}")
            if len(r["failed"]) > 20:
                print(f"  ... {len(r['failed']) - 20} more (target/formal/w{n}/*.log)")
        if args.expect_fail:
            if not any_fail:
                print("formal: the injected difference was NOT detected", file=sys.stderr)
                sys.exit(1)
            missing = [p for p in args.expect_differ if p not in differ]
            if missing:
                print(f"formal: the proof failed, but not on {', '.join(missing)}", file=sys.stderr)
                sys.exit(1)
            print("formal: the injected difference makes the proof fail (expected)")
        elif any_fail:
            sys.exit(1)
    except (Error, OSError) as e:
        print(f"formal: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
