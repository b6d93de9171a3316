#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates every register-map artefact from the register-map sources (SystemRDL): regmap/dcqcn_regs.rdl
(the rate limiter dcqcn_rl, docs/spec.md 6.2), regmap/dcqcn_mq_regs.rdl (the multi-QP block
dcqcn_mq, docs/spec-mq.md 6) and regmap/nscc_mq_regs.rdl (NSCC on the per-flow engine, nscc_mq,
docs/spec-nscc.md 8).

    scripts/regmap_gen.py            regenerate the committed files in place (make regmap)
    scripts/regmap_gen.py --check    regenerate into a temporary directory and fail (exit 1) when a
                                     committed file differs (make regmap-check)
    scripts/regmap_gen.py --out DIR  write the files under DIR (same relative paths)

Generated from each source by the same functions (paths relative to the repository root; RL: from
regmap/dcqcn_regs.rdl, MQ: from regmap/dcqcn_mq_regs.rdl, NSCC: from regmap/nscc_mq_regs.rdl; MQ
and NSCC are blocks with a window array and are written alike):
    regmap/dcqcn_regs.json, regmap/dcqcn_mq_regs.json, regmap/nscc_mq_regs.json
                                        machine-readable export (crates/dcqcn-cosim/tests/regmap/);
                                        MQ and NSCC add `window`, the per-QP array (base, stride,
                                        count)
    sw/c/dcqcn_regs.h, sw/c/dcqcn_mq_regs.h, sw/c/nscc_mq_regs.h
                                        C header: PeakRDL-cheader's field macros and struct, plus
                                        word offsets and word reset values (MQ, NSCC: also the
                                        window's words and <PREFIX>_QP_ADDR(q, off))
    sw/python/dcqcn_rogue.py, sw/python/dcqcn_mq_rogue.py, sw/python/nscc_mq_rogue.py
                                        PyRogue Device, one RemoteVariable per field (MQ, NSCC: one
                                        Device per window, added with addNodes)
    crates/dcqcn-model/src/regmap.rs, crates/dcqcn-model/src/mq/regmap.rs,
    crates/dcqcn-model/src/nscc/regmap.rs
                                        the Rust register map (addresses, MAP, FIELDS; MQ, NSCC:
                                        also the window's QP_BASE, QP_STRIDE, offsets, QP_MAP,
                                        QP_FIELDS)
    docs/spec.md (6.2), docs/spec-mq.md (6.2, 6.3), docs/spec-nscc.md (8.1, 8.3)
                                        the tables, between the GENERATED markers
RL only:
    rtl/dcqcn_regmap.svh                the SV word addresses ADDR_<NAME>, between the markers
    rtl/vhdl/dcqcn_pkg.vhd              the VHDL word addresses ADDR_<NAME>, between the markers
    the register block's layouts, held configuration and decode (scripts/regmap_blocks.py) in
    rtl/dcqcn_regmap.svh, rtl/dcqcn_regs.sv, rtl/vhdl/dcqcn_pkg.vhd, rtl/vhdl/dcqcn_regs.vhd,
    crates/dcqcn-model/src/{regmap,config,snapshot}.rs, between their markers (docs/generated.md)

The SystemRDL is compiled and checked by systemrdl-compiler; the project's conventions (unique field
names, the three access kinds, the user-defined properties, scripts/regmap_blocks.py's rules for
the words with read/write fields) are checked here, for each source. Errors name the file and exit
with status 2.
"""

import argparse
import difflib
import json
import os
import sys
import tempfile
from dataclasses import dataclass

import regmap_blocks as blocks

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SOURCE = "regmap/dcqcn_regs.rdl"
JSON_OUT = "regmap/dcqcn_regs.json"
C_OUT = "sw/c/dcqcn_regs.h"
ROGUE_OUT = "sw/python/dcqcn_rogue.py"
RUST_OUT = "crates/dcqcn-model/src/regmap.rs"
SPEC = "docs/spec.md"
SV_REGMAP = "rtl/dcqcn_regmap.svh"
VHDL_PKG = "rtl/vhdl/dcqcn_pkg.vhd"
# Hand-kept files with a generated region: `BEGIN GENERATED <tag>:` / `END GENERATED <tag>` lines.
SV_REGS = "rtl/dcqcn_regs.sv"
VHDL_REGS = "rtl/vhdl/dcqcn_regs.vhd"
RUST_CONFIG = "crates/dcqcn-model/src/config.rs"
RUST_SNAPSHOT = "crates/dcqcn-model/src/snapshot.rs"
# The features whose configuration registers have a region of their own in the snapshot! list
# (their place in the list is fixed by golden format 1 and the files written since); the registers
# of any other feature go to its last region, `cfg-other`.
SNAPSHOT_GROUPS = [None, "rate_rules", "control", "trace"]
REGION_FILES = [SV_REGMAP, SV_REGS, VHDL_PKG, VHDL_REGS, RUST_CONFIG, RUST_SNAPSHOT]

# The multi-QP block's source and its files (docs/spec-mq.md 6).
MQ_SOURCE = "regmap/dcqcn_mq_regs.rdl"
MQ_JSON_OUT = "regmap/dcqcn_mq_regs.json"
MQ_C_OUT = "sw/c/dcqcn_mq_regs.h"
MQ_ROGUE_OUT = "sw/python/dcqcn_mq_rogue.py"
MQ_RUST_OUT = "crates/dcqcn-model/src/mq/regmap.rs"
MQ_SPEC = "docs/spec-mq.md"

# NSCC on the per-flow engine, nscc_mq (docs/spec-nscc.md 8): the engine's parameters (spec-nscc 2
# is spec-mq 2); its NSCC registers' resets depend on none of them.
NSCC_SOURCE = "regmap/nscc_mq_regs.rdl"
NSCC_JSON_OUT = "regmap/nscc_mq_regs.json"
NSCC_C_OUT = "sw/c/nscc_mq_regs.h"
NSCC_ROGUE_OUT = "sw/python/nscc_mq_rogue.py"
NSCC_RUST_OUT = "crates/dcqcn-model/src/nscc/regmap.rs"
NSCC_SPEC = "docs/spec-nscc.md"

# The parameters the `reset` values in the source are given at (spec 2 defaults).
DEFAULTS = {"DATA_BYTES": 8, "CLK_FREQ_HZ": 156_250_000, "LINE_RATE": 1_250_000_000}
# reset_param names and how the spec writes them
PARAM_TEXT = {
    "RATE_INC_RESET": "RATE_INC_RESET",
    "RATE_DEC_RESET": "RATE_DEC_RESET",
    "ALPHA_RESET": "ALPHA_RESET",
    "LINE_RATE": "L",
    "BPC_LINE_RATE": "bpc(L)",
    "DATA_BYTES": "DATA_BYTES",
}
# spec-mq 2: the parameters and the derived values a reset may name (each written as its name)
MQ_DEFAULTS = {"QPS": 1024, "CLK_FREQ_HZ": 156_250_000, "LINE_RATE": 1_250_000_000}
MQ_PARAM_TEXT = {n: n for n in ("QPS", "LINE_WIN", "MERGE_RESET", "ALPHA_RESET", "NOCNP_RESET",
                                "CNP_TIMER_RESET", "AI_RESET", "HAI_RESET", "RMIN_RESET")}
NSCC_PARAM_TEXT = {n: n for n in ("QPS", "LINE_WIN")}
ACCESS_TEXT = {"RW": "RW", "RO": "RO", "W": "W, reads 0"}
ROGUE_MODE = {"RW": "RW", "RO": "RO", "W": "WO"}
RUST_ACCESS = {"RW": "Access::ReadWrite", "RO": "Access::ReadOnly", "W": "Access::WriteOnly"}


def generated_by(source):
    return f"Generated by scripts/regmap_gen.py from {source} (make regmap); do not edit."


GENERATED_BY = generated_by(SOURCE)

class SourceError(Exception):
    pass


def param_value(name, p):
    """The spec-2 expression `name` at the parameters `p` (dict as DEFAULTS)."""
    f = p["CLK_FREQ_HZ"]
    if name == "RATE_INC_RESET":
        return (f * 3 + 1000) // 2000
    if name == "RATE_DEC_RESET":
        return ((f * 4 + 500_000) // 1_000_000) & 0xFFFF
    if name == "ALPHA_RESET":
        return ((f * 55 + 500_000) // 1_000_000) & 0xFFFF
    if name == "LINE_RATE":
        return p["LINE_RATE"]
    if name == "BPC_LINE_RATE":
        k = ((1 << 48) + f // 2) // f
        return (p["LINE_RATE"] * k) >> 32
    if name == "DATA_BYTES":
        return p["DATA_BYTES"]
    raise SourceError(f"unknown reset_param `{name}` (known: {', '.join(PARAM_TEXT)})")


def mq_param_value(name, p):
    """The spec-mq 2 parameter or derived value `name` at the parameters `p` (dict as MQ_DEFAULTS)."""
    f = p["CLK_FREQ_HZ"]

    def per_window(bytes_per_s_times_1024):
        return (bytes_per_s_times_1024 + f // 2) // f

    values = {
        "QPS": lambda: p["QPS"],
        "LINE_WIN": lambda: p["LINE_RATE"] * 1024 // f,
        "MERGE_RESET": lambda: ((f * 4 + 500_000) // 1_000_000) & 0xFFFF,
        "ALPHA_RESET": lambda: ((f * 55 + 500_000) // 1_000_000) & 0xFFFF,
        "NOCNP_RESET": lambda: (f * 3 + 1000) // 2000,
        "CNP_TIMER_RESET": lambda: (f + 5000) // 10_000,
        "AI_RESET": lambda: per_window(6_144_000_000),
        "HAI_RESET": lambda: per_window(12_288_000_000),
        "RMIN_RESET": lambda: per_window(10_240_000_000),
    }
    if name not in values:
        raise SourceError(f"unknown reset_param `{name}` (known: {', '.join(MQ_PARAM_TEXT)})")
    return values[name]()


@dataclass(frozen=True)
class Block:
    """One register-map source and the files generated from it. Every output is written by the
    same functions for each block; what differs between the blocks is here."""
    source: str                 # the SystemRDL source
    json_out: str
    c_out: str
    rogue_out: str
    rust_out: str
    spec: str                   # the spec with the generated tables
    defaults: dict              # the parameters the source's `reset` values are given at
    param_text: dict            # reset_param names, and how the spec writes each
    param_value: object         # (name, parameters) -> the value of that reset_param
    defaults_text: str          # the default parameters as the tables' notes write them
    fields_note: str            # the fields table's note on its `state` column
    comma_from: int             # the tables write numbers from this one on with thousands separators
    decode_text: str            # how the global words are decoded, for the C header's comment
    window_param: str = None    # the parameter a window array's count is (shown at its default)
    window_unit: str = "QP"     # what a window belongs to, as the texts name it ("QP q's window")
    map_ref: str = ""           # the spec sections the Rust map of a window block cites: the map,
    global_ref: str = ""        # its global words and its window (the protocol is spec-mq 6.1's
    window_ref: str = ""        # for every such block)
    rogue_class: str = ""
    rogue_desc: str = ""
    rogue_doc: tuple = ()       # the PyRogue module's docstring, after its first line

    @property
    def generated_by(self):
        return generated_by(self.source)


RL = Block(
    source=SOURCE, json_out=JSON_OUT, c_out=C_OUT, rogue_out=ROGUE_OUT, rust_out=RUST_OUT,
    spec=SPEC, defaults=DEFAULTS, param_text=PARAM_TEXT, param_value=param_value,
    defaults_text="DATA_BYTES = 8, 156.25 MHz, L = 1.25e9 B/s",
    fields_note="`state`: the spec-7 register the field shows; `cfg_*` are the configuration "
                "registers",
    comma_from=10_000, decode_text="decode uses addr[11:2]",
    rogue_class="DcqcnRegs", rogue_desc="DCQCN rate limiter registers",
    rogue_doc=("PyRogue Device for the DCQCN rate limiter's AXI4-Lite registers (docs/spec.md 6.2).",
               "",
               "One RemoteVariable per field of regmap/dcqcn_regs.rdl. Reading `cnt_bytes_lo` latches",
               "cnt_bytes[63:32] into `bytes_hi`; `cnp_cnt_clear` and `cnt_clear` act when written 1."),
)

MQ = Block(
    source=MQ_SOURCE, json_out=MQ_JSON_OUT, c_out=MQ_C_OUT, rogue_out=MQ_ROGUE_OUT,
    rust_out=MQ_RUST_OUT, spec=MQ_SPEC, defaults=MQ_DEFAULTS, param_text=MQ_PARAM_TEXT,
    param_value=mq_param_value, defaults_text="QPS = 1,024, 156.25 MHz, L = 1.25e9 B/s",
    fields_note="`state`: the field of the lockstep's state record (spec-mq 8.1) the field shows, "
                "`cfg_*` the configuration registers; `view`: the storage entry it shows",
    comma_from=1_000, decode_text="decode uses addr[11:2] when addr[20:12] = 0",
    window_param="QPS", map_ref="spec-mq 6", global_ref="spec-mq 6.2", window_ref="spec-mq 6.3",
    rogue_class="DcqcnMqRegs", rogue_desc="Multi-QP DCQCN engine registers",
    rogue_doc=("PyRogue Devices for the multi-QP DCQCN block's AXI4-Lite registers (docs/spec-mq.md",
               "6.2, 6.3).",
               "",
               "One RemoteVariable per field of regmap/dcqcn_mq_regs.rdl. `DcqcnMqRegs` holds the global",
               "words and one `DcqcnMqQp` per QP window (`qps` of them, default 1,024: pass the block's",
               "QPS), named qp[0], qp[1], ... at 0x100000 + q * 0x100; a window access completes at the",
               "QP's next visit (spec-mq 6.1). Reading `cnt_grant_bytes_lo` latches the high word into",
               "`cnt_grant_bytes_hi`; `cnt_clear`, `dfx_clear` and `qp_clear` act when written 1."),
)

NSCC = Block(
    source=NSCC_SOURCE, json_out=NSCC_JSON_OUT, c_out=NSCC_C_OUT, rogue_out=NSCC_ROGUE_OUT,
    rust_out=NSCC_RUST_OUT, spec=NSCC_SPEC, defaults=MQ_DEFAULTS, param_text=NSCC_PARAM_TEXT,
    param_value=mq_param_value, defaults_text="QPS = 1,024, 156.25 MHz, L = 1.25e9 B/s",
    fields_note="`state`: the field of the lockstep's state record (spec-nscc 10, as spec-mq 8.1) "
                "the field shows, `cfg_*` the configuration registers; `view`: the storage entry "
                "it shows",
    comma_from=1_000, decode_text="decode uses addr[11:2] when addr[20:12] = 0",
    window_param="QPS", window_unit="flow", map_ref="spec-nscc 8", global_ref="spec-nscc 8.1",
    window_ref="spec-nscc 8.3",
    rogue_class="NsccMqRegs", rogue_desc="NSCC per-flow engine registers",
    rogue_doc=("PyRogue Devices for the AXI4-Lite registers of nscc_mq, NSCC on the per-flow engine",
               "(docs/spec-nscc.md 8.1, 8.3).",
               "",
               "One RemoteVariable per field of regmap/nscc_mq_regs.rdl. `NsccMqRegs` holds the global",
               "words and one `NsccMqQp` per flow window (`qps` of them, default 1,024: pass the block's",
               "QPS), named qp[0], qp[1], ... at 0x100000 + q * 0x100; a window access completes at the",
               "flow's first visit without an ACK-process execution (spec-nscc 7). Reading",
               "`cnt_grant_bytes_lo` latches the high word into `cnt_grant_bytes_hi`; `cnt_clear` and",
               "`qp_clear` act when written 1."),
)

BLOCKS = [RL, MQ, NSCC]


def outputs_of(blk):
    """The files generated from the block's source (dcqcn_rl's also fills the regions of the
    register block's hand-kept files)."""
    return [blk.json_out, blk.c_out, blk.rogue_out, blk.rust_out, blk.spec] + (
        REGION_FILES if blk is RL else [])


OUTPUTS = [rel for blk in BLOCKS for rel in outputs_of(blk)]


def access_of(field, blk=RL):
    from systemrdl.rdltypes import AccessType
    sw = field.get_property("sw")
    pulse = field.get_property("singlepulse")
    where = f"{blk.source}: field {field.get_path()}"
    if sw == AccessType.rw and not pulse:
        return "RW"
    if sw == AccessType.r:
        return "RO"
    if sw == AccessType.w and pulse:
        if field.get_property("reset") != 0:
            raise SourceError(f"{where}: an action bit (sw = w, singlepulse) must reset to 0")
        return "W"
    raise SourceError(f"{where}: access sw = {sw.name}{' singlepulse' if pulse else ''}: "
                      "use sw = rw, sw = r, or sw = w with singlepulse")


def udp(node, name, blk, optional=False):
    """The user-defined property `name` of `node`: None when unset, or when `optional` and the
    source does not declare it (a block without optional features declares no `feature`)."""
    try:
        return node.get_property(name, default=None) if optional else node.get_property(name)
    except LookupError as e:
        raise SourceError(f"{blk.source}: {node.get_path()}: property `{name}` is not declared "
                          "(declare it as regmap/dcqcn_regs.rdl does)") from e


def load_word(reg, offset, blk, names, in_window=False):
    """One register as plain data (a word of the JSON export); `names` maps each field name seen
    so far to its word, for the uniqueness rule."""
    where = f"{blk.source}: reg {reg.get_path().split('.', 1)[1]}"
    if reg.is_array:
        raise SourceError(f"{where}: register arrays are not used by this map")
    if reg.get_property("regwidth") != 32:
        raise SourceError(f"{where}: regwidth must be 32")
    fields = []
    for f in sorted(reg.fields(), key=lambda f: f.lsb):
        if f.inst_name in names:
            raise SourceError(f"{where}: field name `{f.inst_name}` is also a field of "
                              f"`{names[f.inst_name]}` (field names are unique in the map)")
        names[f.inst_name] = reg.inst_name
        acc = access_of(f, blk)
        reset = f.get_property("reset")
        if reset is None:
            raise SourceError(f"{where}: field {f.inst_name} has no reset value")
        rp = udp(f, "reset_param", blk)
        if rp is not None and rp not in blk.param_text:
            raise SourceError(f"{where}: field {f.inst_name}: unknown reset_param `{rp}` (known: "
                              f"{', '.join(blk.param_text)})")
        if rp is not None and blk.param_value(rp, blk.defaults) != reset:
            raise SourceError(
                f"{where}: field {f.inst_name}: reset {reset} is not {rp} = "
                f"{blk.param_value(rp, blk.defaults)} at the default parameters {blk.defaults}")
        desc = f.get_property("desc")
        unit = udp(f, "unit", blk)
        if not desc or not unit:
            raise SourceError(f"{where}: field {f.inst_name} needs desc and unit")
        state = udp(f, "state", blk)
        clr = f.get_property("hwclr")
        cleared_by = None
        if clr is not None and clr is not False:
            if clr is True or not hasattr(clr, "inst_name") or access_of(clr, blk) != "W":
                raise SourceError(f"{where}: field {f.inst_name}: hwclr must name an action "
                                  "bit (sw = w, singlepulse)")
            cleared_by = clr.inst_name
        view = udp(f, "view", blk)
        if state is not None and view is not None:
            raise SourceError(f"{where}: field {f.inst_name}: `state` or `view`, not both")
        if in_window and acc != "W" and view is None:
            raise SourceError(f"{where}: field {f.inst_name}: a window field needs `view` (the "
                              "storage entry of QP q it shows)")
        if acc != "W" and state is None and view is None and f.get_property("hw").name != "na":
            raise SourceError(f"{where}: field {f.inst_name} needs `state` (the spec-7 "
                              "register it shows), `view` (the storage entry it shows) or "
                              "hw = na (a constant)")
        fields.append({
            "name": f.inst_name,
            "lsb": f.lsb,
            "width": f.width,
            "mask": ((1 << f.width) - 1) << f.lsb,
            "access": acc,
            "reset": reset,
            "reset_param": rp,
            "state": state,
            "view": view,
            "cleared_by": cleared_by,
            "unit": unit,
            "desc": " ".join(desc.split()),
        })
    return {
        "name": reg.inst_name,
        "offset": offset,
        "title": reg.get_property("name"),
        "writable": any(x["access"] != "RO" for x in fields),
        "feature": udp(reg, "feature", blk, optional=True),
        "write_order": udp(reg, "write_order", blk),
        "reset": sum(x["reset"] << x["lsb"] for x in fields if x["access"] != "W"),
        "fields": fields,
    }


def load_window(rf, blk, decode_bits, names):
    """The array of per-QP windows (a regfile array) as plain data: base, stride, count, words."""
    where = f"{blk.source}: regfile {rf.inst_name}"
    if not rf.is_array or len(rf.array_dimensions) != 1:
        raise SourceError(f"{where}: a window is a one-dimensional regfile array")
    if blk.window_param is None:
        raise SourceError(f"{where}: this map has no window array")
    base, stride, count = rf.raw_address_offset, rf.array_stride, rf.array_dimensions[0]
    if count != blk.defaults[blk.window_param]:
        raise SourceError(f"{where}: {count} windows; the array is shown at the default "
                          f"{blk.window_param} = {blk.defaults[blk.window_param]}")
    if stride & (stride - 1) or base % stride or base + count * stride > 1 << decode_bits:
        raise SourceError(f"{where}: windows at {base:#x} += {stride:#x} (a power of two, the base "
                          f"a multiple of it) must lie inside the {decode_bits}-bit window")
    if any(c.inst_name not in {r.inst_name for r in rf.registers()} for c in rf.children()):
        raise SourceError(f"{where}: a window holds registers only")
    words = []
    for reg in sorted(rf.registers(), key=lambda r: r.raw_address_offset):
        w = load_word(reg, reg.raw_address_offset, blk, names, in_window=True)
        if w["offset"] % 4 or w["offset"] >= stride:
            raise SourceError(f"{where}: reg {reg.inst_name}: offset {w['offset']:#x} is not a "
                              f"word inside the {stride:#x}-byte window")
        if w["write_order"] is not None or w["feature"] is not None:
            raise SourceError(f"{where}: reg {reg.inst_name}: write_order and feature are for "
                              "global words")
        words.append(w)
    return {
        "name": rf.inst_name,
        "title": rf.get_property("name"),
        "desc": " ".join((rf.get_property("desc") or "").split()),
        "base": base,
        "stride": stride,
        "count": count,
        "count_param": blk.window_param,
        "words": words,
    }


def load(path, blk=RL):
    """Compiles the SystemRDL and returns the register map as plain data (the JSON export)."""
    from systemrdl import RDLCompiler, RDLCompileError
    from systemrdl.node import RegfileNode, RegNode
    rdlc = RDLCompiler()
    try:
        rdlc.compile_file(path)
        root = rdlc.elaborate()
    except RDLCompileError as e:
        raise SourceError(f"{path}: SystemRDL errors (above)") from e
    top = root.top
    decode_bits = udp(top, "decode_bits", blk)
    if not decode_bits:
        raise SourceError(f"{blk.source}: addrmap {top.inst_name}: decode_bits is missing")
    regfiles = []
    for c in top.children():
        if isinstance(c, RegfileNode):
            regfiles.append(c)
        elif not isinstance(c, RegNode):
            raise SourceError(f"{blk.source}: {c.inst_name}: the map holds registers and at most "
                              "one regfile array (the per-QP windows)")
    if len(regfiles) > 1:
        raise SourceError(f"{blk.source}: regfile {regfiles[1].inst_name}: at most one window "
                          "array")
    # the global words lie below the windows and inside the global decode (addr[11:2])
    span = min([1 << decode_bits, 1 << 12] + [rf.raw_address_offset for rf in regfiles])
    names = {}
    words = []
    for reg in sorted(top.registers(), key=lambda r: r.address_offset):
        w = load_word(reg, reg.address_offset, blk, names)
        if w["offset"] % 4 or w["offset"] >= span:
            raise SourceError(f"{blk.source}: reg {reg.inst_name}: offset {w['offset']:#x} is not "
                              f"a word inside the {span:#x}-byte window")
        words.append(w)
    windows = [load_window(rf, blk, decode_bits, names) for rf in regfiles]
    consts = {}
    for w in words + [x for win in windows for x in win["words"]]:
        if w["name"] in consts:
            raise SourceError(f"{blk.source}: reg {w['name']}: a global word and a window word "
                              "share the name")
        consts[w["name"]] = w
    m = {
        "generated_by": blk.generated_by,
        "name": top.inst_name,
        "desc": " ".join(top.get_property("desc").split()),
        "decode_bits": decode_bits,
        "defaults": blk.defaults,
        "reset_params": list(blk.param_text),
        "words": words,
    }
    if windows:
        m["window"] = windows[0]
    return m, root


def num(v, blk=RL):
    return f"{v:,}" if v >= blk.comma_from else str(v)


def desc_text(f):
    d = f["desc"]
    if f["cleared_by"]:
        d += f"; cleared by `{f['cleared_by']}`"
    return d.replace("|", "\\|")


def reset_text(f, blk=RL):
    if f["reset_param"]:
        return f"{blk.param_text[f['reset_param']]} ({num(f['reset'], blk)})"
    if f["unit"] == "hex":
        return f"{f['reset']:#06X}".replace("0X", "0x")
    return num(f["reset"], blk)


def bits_text(f):
    msb = f["lsb"] + f["width"] - 1
    return f"[{msb}:{f['lsb']}]" if f["width"] > 1 else f"[{f['lsb']}]"


def markers(blk, tag):
    """The lines around a generated region of a spec (Markdown comments)."""
    return (f"<!-- BEGIN GENERATED {tag}: scripts/regmap_gen.py from {blk.source}; edit the "
            ".rdl and run `make regmap`, not this table -->", f"<!-- END GENERATED {tag} -->")


BEGIN, END = markers(RL, "regmap")


def words_table(words, addr, digits, intro):
    """The words table: one row per word (its write response and its reset); the `feature` column
    when a word belongs to an optional feature."""
    feature = any(w.get("feature") for w in words)
    out = [intro, "", f"| {addr} | word | name | write | reset |" + (" feature |" if feature else ""),
           "|---|---|---|---|---|" + ("---|" if feature else "")]
    for w in words:
        feat = f" `{w['feature']}` |" if w.get("feature") else " — |"
        out.append(f"| 0x{w['offset']:0{digits}X} | `{w['name']}` | {w['title']} | "
                   f"{'OKAY' if w['writable'] else 'DECERR'} | 0x{w['reset']:08X} |"
                   + (feat if feature else ""))
    return out


def fields_table(blk, words, addr, digits, intro, state_col="state"):
    """The fields table: one row per field."""
    out = [intro, "",
           f"| {addr} | word | bits | field | {state_col} | access | reset | unit | description |",
           "|---|---|---|---|---|---|---|---|---|"]
    for w in words:
        for f in w["fields"]:
            state = (f"`{f['state']}`" if f["state"]
                     else f"`{f['view']}`" if f.get("view") else "—")
            out.append(f"| 0x{w['offset']:0{digits}X} | `{w['name']}` | {bits_text(f)} | "
                       f"`{f['name']}` | {state} | {ACCESS_TEXT[f['access']]} | "
                       f"{reset_text(f, blk)} | {f['unit']} | {desc_text(f)} |")
    return out


def spec_tables(m, blk=RL):
    """{tag: the generated region} of the block's spec: `regmap` (the global words, the tables of
    spec 6.2 / spec-mq 6.2) and, with a window array, `regmap-window` (spec-mq 6.3)."""
    feature = any(w.get("feature") for w in m["words"])
    intro = ("Words (a write to a word without a writable field answers DECERR; reset values at the "
             f"default parameters {blk.defaults_text}"
             + ("; `feature`: the optional feature the word belongs to, spec 2: a block built "
                "without it answers there as at an unmapped word" if feature else "") + "):")
    begin, end = markers(blk, "regmap")
    out = {"regmap": "\n".join(
        [begin, ""] + words_table(m["words"], "addr", 3, intro) + [""]
        + fields_table(blk, m["words"], "addr", 3, f"Fields ({blk.fields_note}):") + ["", end])}
    win = m.get("window")
    if win:
        digits = len(f"{win['stride'] - 1:X}")
        where = f"`0x{win['base']:X} + q · 0x{win['stride']:X}`"
        begin, end = markers(blk, "regmap-window")
        out["regmap-window"] = "\n".join(
            [begin, ""]
            + words_table(win["words"], "off", digits,
                          f"Words of {blk.window_unit} q's window (`{win['name']}[q]`, offsets from "
                          f"{where}; a write to a word without a writable field, and any access to "
                          f"the window of a {blk.window_unit} ≥ `{win['count_param']}`, answers "
                          "DECERR; reset: the value after the init "
                          f"round at the default parameters {blk.defaults_text}):")
            + [""]
            + fields_table(blk, win["words"], "off", digits,
                           f"Fields (`shows`: the memory field or bitmap bit of {blk.window_unit} q "
                           "the field shows):",
                           "shows")
            + ["", end])
    return out


def splice_spec(text, tables, blk=RL, tag="regmap"):
    begin, end = markers(blk, tag)
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise SourceError(f"{blk.spec}: needs exactly one pair of generated-region markers:\n"
                          f"  {begin}\n  {end}")
    a = text.index(begin)
    b = text.index(end) + len(end)
    return text[:a] + tables + text[b:]


def c_header(m, root, tmp, blk=RL):
    """PeakRDL-cheader's header, with the word offsets and word resets added before its end (and,
    with a window array, the window's geometry, its words and the address of QP q's word)."""
    from peakrdl_cheader.c_standards import CStandard
    from peakrdl_cheader.exporter import CHeaderExporter
    path = os.path.join(tmp, os.path.basename(blk.c_out))
    CHeaderExporter().export(root.top, path, std=CStandard.gnu11, reuse_typedefs=False)
    with open(path) as fh:
        text = fh.read()
    prefix = m["name"].upper()
    extra = [f"// {blk.generated_by}",
             f"// Word byte offsets ({blk.decode_text}) and word reset values at the default",
             "// parameters " + ", ".join(f"{k} = {v}" for k, v in blk.defaults.items()) + ".",
             f"#define {prefix}_DECODE_BITS {m['decode_bits']}"]

    def word_lines(n, w, digits):
        return [f"#define {n}_OFFSET 0x{w['offset']:0{digits}x}",
                f"#define {n}_RESET 0x{w['reset']:08x}u",
                f"#define {n}_WRITABLE {int(w['writable'])}"]

    for w in m["words"]:
        extra += word_lines(f"{prefix}__{w['name'].upper()}", w, 3)
    win = m.get("window")
    if win:
        a = f"{prefix}_{win['name'].upper()}"
        extra += [
            f"// The per-{blk.window_unit} windows: {win['name']}[q] at {a}_BASE + q * {a}_STRIDE, "
            f"{a}_COUNT of them at",
            f"// the default {win['count_param']} (at another, {win['count_param']}). Window word byte "
            "offsets from the window's base,",
            "// named as PeakRDL-cheader names the array's fields, and their reset values (after the",
            "// init round). " + f"{a}_ADDR(q, off): the byte address of word `off` of "
            f"{blk.window_unit} q's window.",
            f"#define {a}_BASE 0x{win['base']:x}u",
            f"#define {a}_STRIDE 0x{win['stride']:x}u",
            f"#define {a}_COUNT {win['count']}u",
            f"#define {a}_ADDR(q, off) ({a}_BASE + (uint32_t)(q) * {a}_STRIDE + (uint32_t)(off))",
        ]
        digits = len(f"{win['stride'] - 1:x}")
        for w in win["words"]:
            extra += word_lines(f"{prefix}__{win['name'].upper()}X__{w['name'].upper()}", w, digits)
    extra.append("")
    marker = "#ifdef __cplusplus\n}"
    i = text.rindex(marker)
    text = text[:i] + "\n".join(extra) + "\n" + text[i:]
    return f"// {blk.generated_by}\n" + text


def py_str(s):
    return json.dumps(s, ensure_ascii=False)


def rogue_variables(words, blk, digits=3):
    """The body of a Device's __init__: one RemoteVariable per field of `words`."""
    lines = []
    for w in words:
        lines.append("")
        lines.append(f"        # 0x{w['offset']:0{digits}X} {w['name']}: {w['title']}")
        for f in w["fields"]:
            desc = f["desc"]
            if f["cleared_by"]:
                desc += f"; cleared by {f['cleared_by']}"
            if f["reset_param"]:
                desc += f" (reset {blk.param_text[f['reset_param']]})"
            lines += [
                "        self.add(pr.RemoteVariable(",
                f"            name={py_str(f['name'])},",
                f"            description={py_str(desc)},",
                f"            offset=0x{w['offset']:0{digits}X},",
                f"            bitOffset={f['lsb']},",
                f"            bitSize={f['width']},",
                f"            mode={py_str(ROGUE_MODE[f['access']])},",
                "            base=pr.UInt,",
                f"            units={py_str(f['unit'])},",
                "        ))",
            ]
    return lines


def rogue_window_class(win, blk):
    """The Device of one window: the window's fields at their offsets in it."""
    return [
        f"class {blk.rogue_class.removesuffix('Regs')}{win['name'].capitalize()}(pr.Device):",
        f"    \"\"\"{win['desc']}\"\"\"",
        "",
        f"    def __init__(self, description={py_str(win['title'])}, **kwargs):",
        "        super().__init__(description=description, **kwargs)",
    ] + rogue_variables(win["words"], blk, len(f"{win['stride'] - 1:X}")) + ["", ""]


def rogue_device(m, blk=RL):
    win = m.get("window")
    lines = [
        f"# {blk.generated_by}",
        "# SPDX-License-Identifier: MIT",
        f'"""{blk.rogue_doc[0]}',
        *blk.rogue_doc[1:],
        '"""',
        "",
        "import pyrogue as pr",
        "",
        "",
    ] + (rogue_window_class(win, blk) if win else []) + [
        f"class {blk.rogue_class}(pr.Device):",
        f"    \"\"\"{m['desc']}\"\"\"",
        "",
    ]
    if win:
        p = win["count_param"]
        lines += [
            f"    def __init__(self, description={py_str(blk.rogue_desc)}, "
            f"{p.lower()}={win['count']}, **kwargs):",
            "        super().__init__(description=description, **kwargs)",
        ]
    else:
        lines += [
            f"    def __init__(self, description={py_str(blk.rogue_desc)}, **kwargs):",
            "        super().__init__(description=description, **kwargs)",
        ]
    lines += rogue_variables(m["words"], blk)
    if win:
        cls = f"{blk.rogue_class.removesuffix('Regs')}{win['name'].capitalize()}"
        lines += [
            "",
            f"        # 0x{win['base']:X} + q * 0x{win['stride']:X}: {win['name']}[q], the window of "
            f"{blk.window_unit} q, for q < {win['count_param']}",
            f"        self.addNodes({cls}, number={win['count_param'].lower()}, "
            f"stride=0x{win['stride']:X}, name={py_str(win['name'])}, offset=0x{win['base']:X})",
        ]
    return "\n".join(lines) + "\n"


def rust_consts(words, ty, digits):
    return [f"pub const {w['name'].upper()}: {ty} = 0x{w['offset']:0{digits}X};" for w in words]


def rust_map(name, doc, words, ty):
    return [f"/// {doc}", f"pub const {name}: &[({ty}, &str, bool)] = &["] + [
        f"    ({w['name'].upper()}, \"{w['name']}\", {str(w['writable']).lower()})," for w in words
    ] + ["];"]


def rust_field_type(ty, word_doc, reset_doc):
    """`Access` and `Field` (word, name, lsb, width, access, reset) with `Field::mask`."""
    return [
        "/// How software may access a field.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]",
        "pub enum Access {",
        "    /// Reads back exactly what was written.",
        "    ReadWrite,",
        "    /// Writes are ignored.",
        "    ReadOnly,",
        "    /// An action bit: writing 1 acts, it reads 0.",
        "    WriteOnly,",
        "}",
        "",
        "/// One field of a mapped word. Bits of a word that no field covers read 0 and ignore writes.",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq)]",
        "pub struct Field {",
        f"    /// {word_doc}",
        f"    pub word: {ty},",
        "    pub name: &'static str,",
        "    pub lsb: u32,",
        "    pub width: u32,",
        "    pub access: Access,",
    ] + [f"    /// {line}" for line in reset_doc] + [
        "    pub reset: u32,",
        "}",
        "",
        "impl Field {",
        "    /// The field's bits within its word.",
        "    pub const fn mask(&self) -> u32 {",
        "        (((1u64 << self.width) - 1) << self.lsb) as u32",
        "    }",
        "}",
    ]


def rust_fields(name, doc, words):
    out = [f"/// {doc}", f"pub const {name}: &[Field] = &["]
    for w in words:
        for f in w["fields"]:
            out += [
                "    Field {",
                f"        word: {w['name'].upper()},",
                f"        name: \"{f['name']}\",",
                f"        lsb: {f['lsb']},",
                f"        width: {f['width']},",
                f"        access: {RUST_ACCESS[f['access']]},",
                f"        reset: {rust_int(f['reset'])},",
                "    },",
            ]
    return out + ["];"]


def rust_regmap(m, blk=RL):
    if m.get("window"):
        return rust_window_regmap(m, blk)
    out = [
        "//! Register addresses and fields (spec 6.2). Decode uses addr[11:2].",
        "//!",
        f"//! {blk.generated_by}",
        "//! `make regmap-check` fails when this file differs from what the source generates.",
        "",
    ]
    out += rust_consts(m["words"], "u16", 3)
    out += [""] + rust_map("MAP", "Every mapped word, with its name and whether it accepts writes.",
                           m["words"], "u16")
    out += [""] + rust_field_type(
        "u16", "The word's byte address.",
        ["The reset value at `Params::DEFAULT` (some depend on the parameters: spec 6.2)."])
    out += [""] + rust_fields("FIELDS", "Every field, word by word, least significant first.",
                              m["words"])
    out += [
        "",
        "/// spec 6.2: the reset values of the configuration registers (every field whose `state` is a",
        "/// `cfg_*` register), at the parameters `p` where they depend on them.",
        "pub fn config_reset(p: &crate::Params) -> crate::Config {",
        "    crate::Config {",
    ]
    rust_param = {"RATE_INC_RESET": "p.rate_inc_reset()", "RATE_DEC_RESET": "p.rate_dec_reset()",
                  "ALPHA_RESET": "p.alpha_reset()"}
    for w in m["words"]:
        for f in w["fields"]:
            if not (f["state"] or "").startswith("cfg_"):
                continue
            rp = f["reset_param"]
            if rp is not None and rp not in rust_param:
                raise SourceError(f"{blk.source}: field {f['name']}: reset_param {rp} of a configuration "
                                  "register has no model expression")
            v = (rust_param[rp] if rp else
                 ("true" if f["reset"] else "false") if f["width"] == 1 else rust_int(f["reset"]))
            out.append(f"        {f['state'][4:]}: {v},")
    cfg = [f for w in m["words"] for f in w["fields"] if (f["state"] or "").startswith("cfg_")]
    def rust_ty(width):
        return "bool" if width == 1 else "u8" if width <= 8 else "u16" if width <= 16 else "u32"
    out += [
        "    }",
        "}",
        "",
        "/// The configuration registers, in map order: their names in [`crate::Config`] and widths.",
        "pub const CONFIG_FIELDS: &[(&str, u32)] = &[",
    ]
    out += [f"    (\"{f['state'][4:]}\", {f['width']})," for f in cfg]
    out += [
        "];",
        "",
        "impl crate::Config {",
        "    /// Every configuration register's value, in [`CONFIG_FIELDS`] order.",
        f"    pub fn values(&self) -> [u64; {len(cfg)}] {{",
        "        [",
    ]
    out += [f"            u64::from(self.{f['state'][4:]})," for f in cfg]
    out += [
        "        ]",
        "    }",
        "",
        "    /// Sets configuration register `name` to `v`: `Err` with the field's width when `v` does",
        "    /// not fit it, `Ok(false)` for a name that is not a configuration register.",
        "    pub fn set_field(&mut self, name: &str, v: u64) -> Result<bool, u32> {",
        "        let fit = |width: u32| if v >> width == 0 { Ok(v) } else { Err(width) };",
        "        match name {",
    ]
    for f in cfg:
        n = f["state"][4:]
        ty = rust_ty(f["width"])
        val = f"fit({f['width']})? == 1" if ty == "bool" else f"fit({f['width']})? as {ty}"
        out.append(f"            \"{n}\" => self.{n} = {val},")
    out += [
        "            _ => return Ok(false),",
        "        }",
        "        Ok(true)",
        "    }",
        "}",
        "",
    ] + blocks.rust_regmap_blocks(m, rust_int) + [
        "/// AXI response codes.",
        "pub const RESP_OKAY: u8 = 0b00;",
        "pub const RESP_DECERR: u8 = 0b11;",
        "",
        "/// The mapped word at `addr` (decoded on bits 11:2), if any.",
        "pub fn lookup(addr: u16) -> Option<&'static (u16, &'static str, bool)> {",
        "    let word = addr & 0xFFC;",
        "    MAP.iter().find(|(a, _, _)| *a == word)",
        "}",
    ]
    return "\n".join(out) + "\n"


def rust_window_regmap(m, blk):
    """The Rust register map of a block with a window array (dcqcn_mq, spec-mq 6; nscc_mq,
    spec-nscc 8): the global words, the per-QP window's geometry and words, the fields of each,
    and the two decodes. Every such block follows the protocol of spec-mq 6.1."""
    win = m["window"]
    bits = m["decode_bits"]
    digits = len(f"{win['stride'] - 1:X}")
    span = min(1 << 12, win["base"])
    p = win["count_param"]
    unit = blk.window_unit
    out = [
        f"//! The register map of `{m['name'].removesuffix('_regs')}` ({blk.map_ref}): the global "
        f"words (addresses below 0x{span:X}, decoded",
        f"//! on addr[11:2]), {unit} q's window of 0x{win['stride']:X} bytes at "
        f"`QP_BASE + q * QP_STRIDE` for q < `{p}`, and",
        "//! the fields of both. Addresses are "
        f"{bits} bits; addr[1:0] is ignored (spec-mq 6.1).",
        "//!",
        f"//! {blk.generated_by}",
        "//! `make regmap-check` fails when this file differs from what the source generates.",
        "",
        f"/// Address bits decoded (spec-mq 6.1).",
        f"pub const DECODE_BITS: u32 = {bits};",
        "",
        f"/// Global word addresses ({blk.global_ref}).",
    ]
    out += rust_consts(m["words"], "u32", 3)
    out += [""] + rust_map(
        "MAP", "Every mapped global word, with its name and whether it accepts writes.",
        m["words"], "u32")
    out += [
        "",
        f"/// The byte address of {unit} 0's window "
        f"(spec-mq 6.1, {blk.window_ref.removeprefix('spec-mq ')}).",
        f"pub const QP_BASE: u32 = {blocks.rust_hex(win['base'])};",
        f"/// The bytes from one {unit}'s window to the next.",
        f"pub const QP_STRIDE: u32 = {blocks.rust_hex(win['stride'])};",
        f"/// The windows at the default `{p}` (at another, `{p}` of them).",
        f"pub const QP_COUNT: u32 = {rust_int(win['count'])};",
        "",
        f"/// Word offsets in a {unit}'s window ({blk.window_ref}).",
    ]
    out += rust_consts(win["words"], "u32", digits)
    out += [""] + rust_map(
        "QP_MAP",
        f"Every mapped word of a {unit}'s window (its offset), with its name and whether it accepts "
        "writes.",
        win["words"], "u32")
    out += [""] + rust_field_type(
        "u32", "The word's byte address (a window field: the word's offset in the window).",
        ["The reset value at `MqParams::DEFAULT` (some depend on the parameters: spec-mq 2); a",
         f"window field's is its value after the init round ({blk.window_ref})."])
    out += [""] + rust_fields("FIELDS", "Every global field, word by word, least significant first.",
                              m["words"])
    out += [""] + rust_fields(
        "QP_FIELDS", f"Every field of a {unit}'s window, word by word, least significant first.",
        win["words"])
    out += [
        "",
        f"/// The byte address of word `offset` of {unit} `q`'s window.",
        "pub const fn qp_addr(q: u32, offset: u32) -> u32 {",
        "    QP_BASE + q * QP_STRIDE + offset",
        "}",
        "",
        "/// The mapped global word at `addr`, if any: the address (bits above `DECODE_BITS` ignored)",
        f"/// is below 0x{span:X} and decoded on addr[11:2].",
        "pub fn lookup(addr: u32) -> Option<&'static (u32, &'static str, bool)> {",
        "    let a = addr & ((1 << DECODE_BITS) - 1);",
        f"    if a >= 0x{span:X} {{",
        "        return None;",
        "    }",
        "    MAP.iter().find(|(w, _, _)| *w == a & !3)",
        "}",
        "",
        f"/// The {unit} and the mapped window word at `addr`, if any (bits above `DECODE_BITS` "
        "ignored).",
        f"/// The {unit} may be `{p}` or more: such an access answers DECERR (spec-mq 6.1).",
        "pub fn qp_lookup(addr: u32) -> Option<(u32, &'static (u32, &'static str, bool))> {",
        "    let a = (addr & ((1 << DECODE_BITS) - 1)).checked_sub(QP_BASE)?;",
        "    let offset = (a % QP_STRIDE) & !3;",
        "    QP_MAP",
        "        .iter()",
        "        .find(|(w, _, _)| *w == offset)",
        "        .map(|w| (a / QP_STRIDE, w))",
        "}",
    ]
    return "\n".join(out) + "\n"


def word_note(w):
    """What a word holds, for the address lists' comments: its fields and their access."""
    acc = {f["access"] for f in w["fields"]}
    kind = acc.pop() if len(acc) == 1 else "mixed"
    names = [f["name"] + ("" if len(w["fields"]) == 1 or kind != "mixed" else f" ({f['access']})")
             for f in w["fields"]]
    if len(names) == 1 and names[0] == w["name"]:
        return kind
    return f"{kind}: {', '.join(names)}"


def sv_addresses(m):
    n = max(len(w["name"]) for w in m["words"])
    bits = m["decode_bits"]
    digits = (bits + 3) // 4
    return "".join(
        f"localparam logic [{bits - 1}:0] {'ADDR_' + w['name'].upper():<{n + 5}} = "
        f"{bits}'h{w['offset']:0{digits}X};  // {word_note(w)}\n"
        for w in m["words"])


def vhdl_addresses(m):
    n = max(len(w["name"]) for w in m["words"])
    digits = (m["decode_bits"] + 3) // 4
    return "".join(
        f"  constant {'ADDR_' + w['name'].upper():<{n + 5}} : natural := 16#{w['offset']:0{digits}X}#;"
        f" -- {word_note(w)}\n"
        for w in m["words"])


def splice_region(path, text, tag, body):
    """`text` (the file `path`) with the lines between its `tag` markers replaced by `body`."""
    lines = text.splitlines(keepends=True)
    begin = [i for i, l in enumerate(lines) if f"BEGIN GENERATED {tag}:" in l]
    if len(begin) != 1:
        raise SourceError(f"{path}: needs exactly one line with `BEGIN GENERATED {tag}:` "
                          f"(found {len(begin)})")
    b = begin[0]
    end = [i for i in range(b + 1, len(lines)) if f"END GENERATED {tag}" in lines[i]]
    if not end:
        raise SourceError(f"{path}: line {b + 1}: `BEGIN GENERATED {tag}` has no "
                          f"`END GENERATED {tag}` after it")
    return "".join(lines[:b + 1]) + body + "".join(lines[end[0]:])


def block_regions(m):
    """The generated regions of the hand-kept files: {path: [(tag, body)]}."""
    snapshot = [(f"cfg-{f or 'base'}", blocks.rust_snapshot_rows(m, f)) for f in SNAPSHOT_GROUPS]
    snapshot.append(("cfg-other", blocks.rust_snapshot_rows(m, SNAPSHOT_GROUPS)))
    return {
        SV_REGMAP: [("addresses", sv_addresses(m)), ("words", blocks.sv_words(m)),
                    ("held", blocks.sv_held(m))],
        SV_REGS: [("write-decl", blocks.sv_write_decl(m)), ("write-init", blocks.sv_write_init(m)),
                  ("write", blocks.sv_write(m)), ("clear", blocks.sv_clear(m)),
                  ("read", blocks.sv_read(m)), ("built", blocks.sv_built(m)),
                  ("tie-off", blocks.sv_tie_off(m))],
        VHDL_PKG: [("addresses", vhdl_addresses(m)),
                   ("cfg-record", blocks.vhdl_cfg_record(m, "cfg")),
                   ("trace-cfg-record", blocks.vhdl_cfg_record(m, "trace_cfg")),
                   ("word-decls", blocks.vhdl_word_decls(m)),
                   ("held-decls", blocks.vhdl_held_decls(m)),
                   ("word-bodies", blocks.vhdl_word_bodies(m))],
        VHDL_REGS: [("action-vars", blocks.vhdl_action_vars(m)),
                    ("actions", blocks.vhdl_actions(m)), ("write", blocks.vhdl_write(m)),
                    ("read", blocks.vhdl_read(m)), ("read-addrs", blocks.vhdl_read_addrs(m)),
                    ("built", blocks.vhdl_built(m)), ("tie-off", blocks.vhdl_tie_off(m))],
        RUST_CONFIG: [("fields", blocks.rust_config_struct(m))],
        RUST_SNAPSHOT: snapshot + [("cfg-from", blocks.rust_snapshot_from(m))],
    }


def rust_int(v):
    if v < 10_000:
        return str(v)
    s = str(v)
    groups = []
    while s:
        groups.insert(0, s[-3:])
        s = s[:-3]
    return "_".join(groups)


def generate_block(blk, out_dir, files):
    """Every file generated from the block's source into `files` {path: text} (read from ROOT
    where a file keeps hand-written text around its generated regions)."""
    m, root = load(os.path.join(ROOT, blk.source), blk)
    try:
        blocks.check(m, blk.source)
    except blocks.BlockError as e:
        raise SourceError(str(e)) from e
    with open(os.path.join(ROOT, blk.spec)) as fh:
        spec = fh.read()
    for tag, tables in spec_tables(m, blk).items():
        spec = splice_spec(spec, tables, blk, tag)
    files.update({
        blk.json_out: json.dumps(m, indent=2) + "\n",
        blk.rogue_out: rogue_device(m, blk),
        blk.rust_out: rust_regmap(m, blk),
        blk.spec: spec,
    })
    if blk is RL:
        for rel, regions in block_regions(m).items():
            with open(os.path.join(ROOT, rel)) as fh:
                text = fh.read()
            for tag, body in regions:
                text = splice_region(rel, text, tag, body)
            files[rel] = text
    with tempfile.TemporaryDirectory() as tmp:
        files[blk.c_out] = c_header(m, root, tmp, blk)


def generate(out_dir):
    files = {}
    for blk in BLOCKS:
        generate_block(blk, out_dir, files)
    for rel, text in files.items():
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true", help="fail when a committed file is stale")
    g.add_argument("--out", help="write under this directory instead of the repository")
    a = ap.parse_args()
    sources = " and ".join(b.source for b in BLOCKS)
    outputs = [(rel, blk.source) for blk in BLOCKS for rel in outputs_of(blk)]
    try:
        if not a.check:
            generate(a.out or ROOT)
            print(f"regmap: generated {', '.join(rel for rel, _ in outputs)} from {sources}")
            return 0
        with tempfile.TemporaryDirectory(prefix="regmap-check-") as tmp:
            files = generate(tmp)
            stale = []
            for rel, src in outputs:
                try:
                    with open(os.path.join(ROOT, rel)) as fh:
                        committed = fh.read()
                except FileNotFoundError:
                    committed = ""
                if committed != files[rel]:
                    stale.append(rel)
                    diff = difflib.unified_diff(committed.splitlines(), files[rel].splitlines(),
                                                f"{rel} (committed)", f"{rel} (from {src})",
                                                n=1, lineterm="")
                    print("\n".join(list(diff)[:40]))
        if stale:
            print(f"regmap-check: stale (run `make regmap` and commit): {', '.join(stale)}",
                  file=sys.stderr)
            return 1
        print(f"regmap-check: {len(outputs)} generated files match {sources}")
        return 0
    except (SourceError, blocks.BlockError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except ImportError as e:
        print(f"error: {e.name} is missing: run scripts/deps.sh", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
