#!/usr/bin/env python3
"""make mutants: a mutation campaign against the lockstep fuzzer.

Generates mutants of rtl/ automatically and tags each with its block (the module or file) and
category:
- comb: operator swaps, dropped negations and and-ed conditions, constants +-1, swapped
  if/else-if priorities, in the combinational processes;
- seq: in the sequential blocks (always_ff), a register that keeps its value instead of taking
  its next value (seq-hold), or that ignores the reset (reset-ignored);
- reset: a reset value changed (the always_ff reset branches, the register file's r_init);
- decode: the register decode and map (dcqcn_regs, dcqcn_regmap.svh): a case item answering the
  next address of the map, a case item removed (its address then DECERR), an address moved by one
  word, the top address bit dropped;
- handshake: the AXI4-Lite and AXI4-Stream valid/ready logic (the lines naming a valid or ready or
  the transfer enables they make: wr_en, rd_en, load), with each and-ed term dropped in turn;
- width: narrowed widths of declared signals and packed-struct fields (rtl/*.svh).
It draws a deterministic sample stratified by category and block (--sample N --sample-seed S),
keeps those that still elaborate, builds each as Verilator variants at every rate set
(10 GbE / 156.25 MHz as `mut_<name>`, and `mut_<name>-1g`, `-25g`, `-lmax`; own target directory,
so the normal build is untouched), and fuzzes each twice: "after", the default campaign (a share of
cases from an injected state, cases at their own rate set on the mutant's sibling of that rate
set), and "before", the fuzzer without state injection (--no-inject) and without parameter
variants (every case at 10 GbE). It reports killed / survived with the time and case number to
kill, kill rates by block, category and kind, before and after on the same mutants, and each
survivor's diff. Deterministic: the same rtl/ and seeds give the same mutants.

`--hdl vhdl` does the same to the VHDL twin rtl/vhdl/: the `comb` processes and the package body's
functions (VHDL spelling of the same kinds), `v.<field> := r.<field>` for a dropped update (seq),
the reset aggregates `*_INIT_C` (reset), a field left out of `v := REG_INIT_C` (reset-ignored), the
write and read decode (`word_index(ADDR_...)`, `rtab(ADDR_...)`), the read map READ_ADDRS_C and
the package's addresses (decode); verilated through the same path as the twin (report in
target/mutants-vhdl/report.txt). No narrowed widths: VHDL's strict typing turns a narrowed
declaration into an analysis error.

`--block mq` does the same to the multi-QP block (docs/spec-mq.md): rtl/mq/*.sv and
rtl/vhdl/mq/*.vhd (the observation wiring left out: it is not part of the design), the same kinds
and categories (decode: the case items `dcqcn_mq_pkg::ADDR_...`, the twin's word constants
`G_..._C` in its write decode, read table and masks), each mutant built as a `dcqcn_mq_core`
variant at QPS 4 (build.rs `mq_mutant_variants`), and attacked by the multi-QP lockstep: its 12
scenarios (`dcqcn cosim --block mq --variant mut_<name> --scenario all`) at each seed of
`--mq-seeds`, then, if it survives them, the multi-QP fuzzer (`dcqcn fuzz --block mq --variant
mut_<name>`, `--mq-fuzz-cases` cases; report and results.json in target/mutants-mq/<hdl>/).

A drawn mutant is kept only if it builds as crates/dcqcn-cosim/build.rs builds it, at every rate
set of the campaign (`builds`: the flags and rate sets of crates/dcqcn-cosim/variants.toml). Before
any mutant runs, the unmutated RTL is fuzzed with the same settings (the control); a failure there
stops the campaign (exit 2): the fuzzer would "kill" every mutant with it.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import time
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl"
OUT = ROOT / "target" / "mutants"
CARGO_DIR = OUT / "cargo"  # one build directory for both HDLs' campaigns

SWAPS = [
    (" >= ", " > ", "ge-to-gt"),
    (" > ", " >= ", "gt-to-ge"),
    (" < ", " <= ", "lt-to-le"),
    (" == ", " != ", "eq-to-ne"),
    (" != ", " == ", "ne-to-eq"),
    (" && ", " || ", "and-to-or"),
    (" || ", " && ", "or-to-and"),
    (" & ", " | ", "band-to-bor"),
    (" | ", " & ", "bor-to-band"),
    (" + ", " - ", "add-to-sub"),
    (" - ", " + ", "sub-to-add"),
    ("~", "", "drop-not"),
    ("!", "", "drop-not"),
]
CONST = re.compile(r"(\d+)'d(\d+)")
DROP_TERM = re.compile(r" (?:&|&&) (?:~|!)?[A-Za-z_][\w]*(?:\[[^\]]*\])?")
DECL = re.compile(r"^(\s*logic\s*\[)(\d+)(:0\]\s+(\w+);.*)$")
# `(A op B) ? A : B` or `? B : A` with op one of < <= > >=: the two branches are the compared
# operands, so at A == B both give the same value and flipping strictness cannot change anything.
MINMAX = re.compile(r"\(\s*(.+?)\s*(?:<=|>=|<|>)\s*(.+?)\s*\)\s*\?\s*(.+?)\s*:\s*(.+?)\s*;")


def _norm(t):
    """An operand without zero-extension or low-bits slicing (equal values at the boundary)."""
    t = t.strip("() ")
    t = re.sub(r"^\{\s*\d+'[bdh]0\s*,\s*(.+?)\s*\}$", r"\1", t)
    return re.sub(r"\[\d+:0\]$", "", t).strip()


def provably_equivalent(kind, old, new, after=()):
    """Strictness flips in a min/max select are equivalent mutants (see docs/mutation.md): the
    select's two values are the compared operands, so at equality both give the same value.
    `after` holds the lines following the mutated one (for the if/else form)."""
    if kind not in ("gt-to-ge", "ge-to-gt", "lt-to-le"):
        return False
    code = new.split("//")[0]
    m = MINMAX.search(code)
    if m:
        a, b, x, y = (_norm(t) for t in m.groups())
        return {a, b} == {x, y}
    m = re.search(r"if \((.+?)\s*(?:<=|>=|<|>)\s*(.+?)\) begin", code)
    if m and len(after) >= 4:
        then_v = re.search(r"=\s*(.+?);", after[0])
        else_v = re.search(r"=\s*(.+?);", after[2]) if "else begin" in after[1] else None
        if then_v and else_v:
            return {_norm(m.group(1)), _norm(m.group(2))} == {_norm(then_v.group(1)), _norm(else_v.group(1))}
    # VHDL: `if (a > b) then / x := a; / else / x := b;` (operands up to resize())
    m = re.search(r"if \((.+?)\s+(?:<=|>=|<|>)\s+(.+?)\) then", new.split("--")[0])
    if m and len(after) >= 3:
        then_v = re.search(r"(?::=|<=)\s*(.+?);", after[0])
        else_v = re.search(r"(?::=|<=)\s*(.+?);", after[2]) if after[1].strip() == "else" else None
        if then_v and else_v:
            def vn(t):
                t = re.sub(r"\(\d+ downto 0\)$", "", t.strip())
                r = re.fullmatch(r"\(?resize\((.+?),\s*\d+\)\)?", t)
                return (r.group(1) if r else t).strip("() ")
            return {vn(m.group(1)), vn(m.group(2))} == {vn(then_v.group(1)), vn(else_v.group(1))}
    return False


def comb_ranges(lines):
    """Line ranges of always_comb bodies."""
    return block_ranges(lines, "always_comb")


def block_ranges(lines, keyword):
    """Line ranges of the bodies of `keyword` blocks (always_comb, always_ff)."""
    out, start, depth = [], None, 0
    for i, line in enumerate(lines):
        code = line.split("//")[0]
        if start is None and keyword in code:
            start, depth = i, 0
        if start is not None:
            depth += len(re.findall(r"\bbegin\b", code)) - len(re.findall(r"\bend\b", code))
            if depth == 0 and i > start:
                out.append((start + 1, i))
                start = None
    return out


# A line is handshake logic when it names an AXI4-Lite / AXI4-Stream valid or ready, or the
# transfer enables they make (wr_en, rd_en, load); decode when it names the register map's word
# index or addresses; reset when it builds the reset value (r_init, REG_INIT_C).
HANDSHAKE = re.compile(r"valid|ready|\bwr_en\b|\brd_en\b|\bload\b")
DECODE = re.compile(r"\bADDR_\w+|\bwr_word\b|\brd_word\b|\bword_index\b|\brtab\(|\bG_\w+_C\b")
RESET = re.compile(r"\br_init\b|\bREG_INIT_C\b|\brst = '1'")
CATEGORIES = ("seq", "reset", "decode", "handshake", "comb", "width")


def block_of(file):
    """The block a file describes: `alpha`, `regs`, `regmap` (rtl/dcqcn_regmap.svh); in the VHDL
    twin `vhdl/alpha`, ..., `vhdl/pkg`."""
    stem = pathlib.Path(file).stem.replace("dcqcn_", "")
    return f"vhdl/{stem}" if file.startswith("vhdl/") else stem


def category_of(code):
    if RESET.search(code):
        return "reset"
    if DECODE.search(code):
        return "decode"
    if HANDSHAKE.search(code):
        return "handshake"
    return "comb"


def addr_names(text):
    """The register map's address names in declaration order (SV localparams or VHDL constants)."""
    return re.findall(r"(?:localparam logic \[11:0\]|constant)\s+(ADDR_\w+)\s*:?", text)


def sv_addr_names(file="dcqcn_rl.sv"):
    """The address names of the register map of the block `file` belongs to (rtl/dcqcn_regmap.svh,
    or for the multi-QP block rtl/mq/dcqcn_mq_pkg.sv)."""
    if file.startswith("mq/"):
        return addr_names((RTL / "mq" / "dcqcn_mq_pkg.sv").read_text())
    return addr_names((RTL / "dcqcn_regmap.svh").read_text())


def is_mq(file):
    """Whether a candidate's file (relative to rtl/) is of the multi-QP block."""
    return file.startswith("mq/") or file.startswith("vhdl/mq/")


# The multi-QP core's observation ports (spec-mq 8.1) are wiring for the lockstep, not design:
# a mutant there changes what is observed, not what the block does.
MQ_OBS = re.compile(r"\bobs_\w+")


def drop_terms(code, op_re):
    """Each and-ed term of a handshake expression dropped in turn (`a & b & c` -> `a & c`...)."""
    out = []
    for m in re.finditer(op_re, code):
        out.append(code[:m.start()] + code[m.end():])
    return out


def seq_assignments(lines, lo, hi):
    """The non-blocking assignments of an always_ff block (lines lo..hi), each as (line, in_reset,
    match of `<indent><reg><space><= <rhs>;`): in_reset is True inside `if (rst) begin`, False
    after `end else begin`, None before either."""
    in_reset = None
    for i in range(lo, hi):
        code = lines[i].split("//")[0]
        if re.match(r"\s*if \(rst\) begin", code):
            in_reset = True
        elif re.match(r"\s*end else begin", code):
            in_reset = False
        a = re.match(r"^(\s*)(\w+)(\s*)<=\s*(.+?);\s*$", code)
        if a:
            yield i, in_reset, a


def candidates(path):
    text = path.read_text()
    lines = text.split("\n")
    found, seen = [], set()
    file = str(path.relative_to(RTL))

    def add(i_from, i_to, new_block, kind, category):
        old = "\n".join(lines[i_from:i_to + 1])
        new = new_block
        if is_mq(file) and MQ_OBS.search(old):
            return
        # widen to the previous lines until the text is unique (the same assignment in two blocks)
        while text.count(old) != 1 and i_from > 0 and i_to - i_from < 3:
            i_from -= 1
            old = lines[i_from] + "\n" + old
            new = lines[i_from] + "\n" + new
        if old != new and text.count(old) == 1 and (old, new) not in seen:
            seen.add((old, new))
            found.append((file, i_from + 1, kind, old, new, block_of(file), category))

    for lo, hi in comb_ranges(lines):
        for i in range(lo, hi):
            line = lines[i]
            code, sep, comment = line.partition("//")
            if not code.strip():
                continue
            cat = category_of(code)
            for a, b, kind in SWAPS:
                if a in code:
                    add(i, i, code.replace(a, b, 1) + sep + comment, kind, cat)
            for m in CONST.finditer(code):
                w, v = int(m.group(1)), int(m.group(2))
                for nv, kind in ((v + 1, "const-plus-1"), (v - 1, "const-minus-1")):
                    if 0 <= nv < (1 << w):
                        add(i, i, code[:m.start()] + f"{w}'d{nv}" + code[m.end():] + sep + comment, kind, cat)
            m = DROP_TERM.search(code)
            if m:
                add(i, i, code[:m.start()] + code[m.end():] + sep + comment, "drop-condition", cat)
            if cat == "handshake":
                # every and-ed term of a valid/ready expression, not only the first
                for new in drop_terms(code, r" & (?:~|!)?[A-Za-z_][\w.]*(?:\[[^\]]*\])?"):
                    add(i, i, new + sep + comment, "hs-drop-term", cat)
            # decode: a case item answers another address, or is gone (its address then DECERR)
            d = (re.match(r"^(\s*dcqcn_mq_pkg::)(ADDR_\w+)(:\s*)(.*)$", code) if is_mq(file)
                 else re.match(r"^(\s*)(ADDR_\w+)(\[11:2\]:\s*)(.*)$", code))
            if d:
                names = sv_addr_names(file)
                if d.group(2) in names:
                    other = names[(names.index(d.group(2)) + 1) % len(names)]
                    add(i, i, f"{d.group(1)}{other}{d.group(3)}{d.group(4)}" + sep + comment, "decode-addr-swap", "decode")
                if d.group(4).rstrip().endswith(";"):
                    ind = re.match(r"^(\s*)", d.group(1)).group(1)
                    add(i, i, f"{ind}// (case item removed)", "decode-drop-item", "decode")
            d = re.search(r"s_axil_(aw|ar)addr\[11:2\]", code)
            if d:
                add(i, i, code.replace(d.group(0), f"{{1'b0, s_axil_{d.group(1)}addr[10:2]}}") + sep + comment,
                    "decode-addr-bit", "decode")
            # Swapped priority: `if (A) begin ... end else if (B) begin` -> conditions exchanged.
            m = re.match(r"^(\s*)if \((.*)\) begin\s*$", code)
            if m:
                for j in range(i + 1, min(i + 8, hi)):
                    n = re.match(r"^(\s*)end else if \((.*)\) begin\s*$", lines[j].split("//")[0])
                    if n:
                        block = lines[i:j + 1]
                        block[0] = f"{m.group(1)}if ({n.group(2)}) begin"
                        block[-1] = f"{n.group(1)}end else if ({m.group(2)}) begin"
                        add(i, j, "\n".join(block), "swap-priority", cat)
                        break
    # Sequential blocks: `if (rst) begin <reset values> end else begin <x <= x_d> end`.
    for lo, hi in block_ranges(lines, "always_ff"):
        assigns = list(seq_assignments(lines, lo, hi))
        next_of = {a.group(2): a.group(4) for _, in_reset, a in assigns if in_reset is False}
        for i, in_reset, a in assigns:
            ind, reg, sp, rhs = a.groups()
            if in_reset:
                # reset value changed (spec 6.2 / the block's reset state)
                v = re.fullmatch(r"(\d+)'([dhb])([0-9A-Fa-f_]+)", rhs)
                if v:
                    w, base, digits = int(v.group(1)), v.group(2), v.group(3).replace("_", "")
                    val = int(digits, {"d": 10, "h": 16, "b": 2}[base])
                    nv = val + 1 if val + 1 < (1 << w) else val - 1
                    new_rhs = f"{w}'d{nv}"
                elif rhs == "'0":
                    new_rhs = "'1"
                else:
                    new_rhs = f"({rhs} - 1'b1)"
                add(i, i, f"{ind}{reg}{sp}<= {new_rhs};", "reset-value", "reset")
                if reg in next_of:
                    add(i, i, f"{ind}{reg}{sp}<= {next_of[reg]};", "reset-ignored", "seq")
            elif in_reset is False and rhs != reg:
                add(i, i, f"{ind}{reg}{sp}<= {reg};", "seq-hold", "seq")
    # the register file's reset values (r_init, built in an always_comb) are reset logic too
    for i, line in enumerate(lines):
        m = DECL.match(line)
        # A reserved field reads 0 whatever its width: narrowing it cannot change anything.
        if m and int(m.group(2)) > 1 and not m.group(4).startswith("reserved"):
            add(i, i, f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}", "narrow-width", "width")
        # the register map: a word moved by one word address
        d = re.match(r"^(\s*localparam logic \[11:0\] ADDR_\w+\s*= 12'h)([0-9A-Fa-f]{3})(;.*)$", line)
        if d:
            add(i, i, f"{d.group(1)}{(int(d.group(2), 16) + 4) & 0xFFF:03X}{d.group(3)}", "decode-addr-const", "decode")
    return found


VHDL_SWAPS = [
    (" >= ", " > ", "ge-to-gt"),
    (" > ", " >= ", "gt-to-ge"),
    (" < ", " <= ", "lt-to-le"),
    (" = ", " /= ", "eq-to-ne"),
    (" /= ", " = ", "ne-to-eq"),
    (" and ", " or ", "and-to-or"),
    (" or ", " and ", "or-to-and"),
    (" + ", " - ", "add-to-sub"),
    (" - ", " + ", "sub-to-add"),
    ("not ", "", "drop-not"),
]
# an integer literal right after an operator (not a range bound or a width argument)
VHDL_CONST = re.compile(r"(?<=[-+*/<>=] )(\d+)\b")
VHDL_DROP_TERM = re.compile(r" and (?:not )?[A-Za-z_][\w.]*(?:\([^()]*\))?")
# package-body functions that only build elaboration messages: a change there alters no behaviour
VHDL_MESSAGE_ONLY = ("to_dec_string", "dcqcn_check_params", "mq_check_params")


def vhdl_ranges(lines, name):
    """Line ranges of the `comb` process bodies (and `ctrl`, the control scheme's decode in
    dcqcn_rl.vhd), and in the package the package body's functions (those of VHDL_MESSAGE_ONLY
    left out). In the multi-QP twin (dcqcn_mq_*.vhd): every `process (all)` but the observation
    wiring `obs`, and every function body (in its package, the package body's)."""
    out, start = [], None
    if name.startswith("dcqcn_mq"):
        body = name != "dcqcn_mq_pkg.vhd"
        kind = None
        for i, line in enumerate(lines):
            code = line.split("--")[0]
            body = body or "package body" in code
            if start is None:
                p = re.match(r"\s*(\w+)\s*:\s*process\s*\(all\)", code)
                f = re.match(r"\s*function\s+(\w+)\b.*\bis\s*$", code)
                if p and p.group(1) != "obs":
                    start, kind = i, "process"
                elif f and body and f.group(1) not in VHDL_MESSAGE_ONLY:
                    start, kind = i, "function"
            elif re.match(rf"\s*end {kind}\b", code):
                out.append((start + 1, i))
                start = None
        return out
    if name == "dcqcn_pkg.vhd":
        skip = False
        for i, line in enumerate(lines):
            code = line.split("--")[0]
            m = re.match(r"\s*function\s+(\w+)", code)
            if m and start is None and any("package body" in l for l in lines[:i]):
                start, skip = i, m.group(1) in VHDL_MESSAGE_ONLY
            elif start is not None and re.match(r"\s*end function", code):
                if not skip:
                    out.append((start + 1, i))
                start = None
        return out
    for i, line in enumerate(lines):
        code = line.split("--")[0]
        if start is None and re.match(r"\s*(comb|ctrl)\s*:\s*process", code):
            start = i
        elif start is not None and re.match(r"\s*end process (comb|ctrl)", code):
            out.append((start + 1, i))
            start = None
    return out


def init_ranges(lines):
    """Line ranges of the reset-value aggregates (`constant <X>_INIT_C : <type> := (` ... `);`)."""
    out, start = [], None
    for i, line in enumerate(lines):
        code = line.split("--")[0]
        if start is None and re.match(r"\s*constant \w*INIT_C\s*:\s*\w+\s*:=\s*\(", code):
            start = i
        if start is not None and code.rstrip().endswith(");"):
            out.append((start, i + 1))
            start = None
    return out


def vhdl_candidates(path):
    text = path.read_text()
    lines = text.split("\n")
    found, seen = [], set()
    file = str(path.relative_to(RTL))
    names = addr_names((RTL / "vhdl" / "dcqcn_pkg.vhd").read_text())
    # the multi-QP twin's register decode names word indices `G_<word>_C` (dcqcn_mq_regs.vhd)
    words = re.findall(r"constant (G_\w+_C)\s*:\s*natural := 16#",
                       (RTL / "vhdl" / "mq" / "dcqcn_mq_regs.vhd").read_text()) if is_mq(file) else []

    def add(i_from, i_to, new_block, kind, category):
        old = "\n".join(lines[i_from:i_to + 1])
        if old != new_block and text.count(old) == 1 and (old, new_block) not in seen:
            seen.add((old, new_block))
            found.append((file, i_from + 1, kind, old, new_block, block_of(file), category))

    def other_addr(code):
        m = re.search(r"\bADDR_\w+", code)
        if m and m.group(0) in names:
            o = names[(names.index(m.group(0)) + 1) % len(names)]
            return code[:m.start()] + o + code[m.end():]
        m = re.search(r"\bG_\w+_C\b", code)
        if m and m.group(0) in words:
            o = words[(words.index(m.group(0)) + 1) % len(words)]
            return code[:m.start()] + o + code[m.end():]
        return None

    # the reset record's fields (for a field left out of the reset)
    fields = []
    for lo, hi in init_ranges(lines):
        if re.match(r"\s*constant REG_INIT_C\b", lines[lo]):
            fields = re.findall(r"^\s*(?:constant REG_INIT_C[^(]*\(\s*)?(\w+)\s*=>", "\n".join(lines[lo:hi]), re.M)

    for lo, hi in vhdl_ranges(lines, path.name):
        for i in range(lo, hi):
            code, sep, comment = lines[i].partition("--")
            if not code.strip() or re.match(r"\s*(variable|constant)\b", code):
                continue
            cat = category_of(code)
            for a, b, kind in VHDL_SWAPS:
                if a in code:
                    add(i, i, code.replace(a, b, 1) + sep + comment, kind, cat)
            for m in VHDL_CONST.finditer(code):
                v = int(m.group(1))
                for nv, kind in ((v + 1, "const-plus-1"), (v - 1, "const-minus-1")):
                    if nv >= 0:
                        add(i, i, code[:m.start()] + str(nv) + code[m.end():] + sep + comment, kind, cat)
            m = VHDL_DROP_TERM.search(code)
            if m:
                add(i, i, code[:m.start()] + code[m.end():] + sep + comment, "drop-condition", cat)
            if cat == "handshake":
                for new in drop_terms(code, r" and (?:not )?[A-Za-z_][\w.]*(?:\([^()]*\))?"):
                    add(i, i, new + sep + comment, "hs-drop-term", cat)
            # decode: a write or read decode answering the next address of the map
            if re.search(r"word_index\(ADDR_|rtab\(ADDR_|\(G_\w+_C\)|= G_\w+_C\)", code):
                new = other_addr(code)
                if new:
                    add(i, i, new + sep + comment, "decode-addr-swap", "decode")
            # the multi-QP twin's word masks: a readable or writable word left out (DECERR)
            d = re.match(r"^(\s*)m\((G_\w+_C)\)\s*:= '1';\s*$", code)
            if d:
                add(i, i, f"{d.group(1)}-- ({d.group(2)} removed)", "decode-drop-item", "decode")
            # sequential: a register's update dropped (it keeps its value in that branch)
            a = re.match(r"^(\s*)v\.([\w.]+)(\s*):=\s*(.+);\s*$", code)
            if a and a.group(4).strip() != f"r.{a.group(2)}":
                add(i, i, f"{a.group(1)}v.{a.group(2)}{a.group(3)}:= r.{a.group(2)};" + sep + comment, "seq-hold", "seq")
            # reset: one field of the record left out of the reset (it keeps its value)
            if re.match(r"^\s*v := REG_INIT_C;\s*$", code):
                ind = re.match(r"^(\s*)", code).group(1)
                for f in fields:
                    add(i, i, f"{ind}v := REG_INIT_C; v.{f} := r.{f};", "reset-ignored", "seq")
            # Swapped priority: `if (A) then ... elsif (B) then` -> conditions exchanged.
            m = re.match(r"^(\s*)if (.*) then\s*$", code)
            if m:
                for j in range(i + 1, min(i + 8, hi)):
                    n = re.match(r"^(\s*)elsif (.*) then\s*$", lines[j].split("--")[0])
                    if n and n.group(1) == m.group(1):
                        block = lines[i:j + 1]
                        block[0] = f"{m.group(1)}if {n.group(2)} then"
                        block[-1] = f"{n.group(1)}elsif {m.group(2)} then"
                        add(i, j, "\n".join(block), "swap-priority", cat)
                        break
    # reset values: the literals of the reset aggregates
    for lo, hi in init_ranges(lines):
        for i in range(lo, hi):
            code, sep, comment = lines[i].partition("--")
            for pat, rep in ((r"\(others => '0'\)", "(others => '1')"), (r"\(others => '1'\)", "(others => '0')"),
                             (r"=> '0'", "=> '1'"), (r"=> '1'", "=> '0'")):
                if re.search(pat, code):
                    add(i, i, re.sub(pat, rep, code, count=1) + sep + comment, "reset-value", "reset")
                    break
            m = re.search(r"to_unsigned\(([\d_]+), (\d+)\)", code)
            if m:
                v = int(m.group(1).replace("_", ""))
                add(i, i, code[:m.start()] + f"to_unsigned({v + 1}, {m.group(2)})" + code[m.end():] + sep + comment,
                    "reset-value", "reset")
    # decode: a readable word left out of the read map; an address moved by one word
    in_list = False
    for i, line in enumerate(lines):
        code, sep, comment = line.partition("--")
        if re.match(r"\s*constant READ_ADDRS_C\b", code):
            in_list = True
            continue
        if in_list:
            m = re.match(r"^(\s*)(ADDR_\w+),\s*$", code)
            if m:
                add(i, i, f"{m.group(1)}-- ({m.group(2)} removed)", "decode-drop-item", "decode")
            if ");" in code:
                in_list = False
        m = re.match(r"^(\s*constant (?:ADDR|G)_\w+\s*: natural := 16#)([0-9A-Fa-f]{3})(#(?: / 4)?;.*)$", line)
        if m:
            add(i, i, f"{m.group(1)}{(int(m.group(2), 16) + 4) & 0xFFF:03X}{m.group(3)}", "decode-addr-const", "decode")
    return found


VARIANTS = tomllib.loads((ROOT / "crates" / "dcqcn-cosim" / "variants.toml").read_text())


def rate_sets(rates_arg):
    """The rate sets of variants.toml a mutant is built at: 10 GbE and each set named in `--rates`."""
    sets = [VARIANTS["rates"][0]]
    for name in (x.strip() for x in rates_arg.split(",")):
        if not name:
            continue
        r = next((r for r in VARIANTS["rates"][1:] if r["suffix"] == f"-{name}"), None)
        if r is None:
            known = ", ".join(r["suffix"][1:] for r in VARIANTS["rates"][1:])
            sys.exit(f"mutants.py: --rates: unknown rate set `{name}` (known: {known})")
        sets.append(r)
    return sets


def builds(file, old, new, scratch, rates):
    """Whether the mutated RTL builds as crates/dcqcn-cosim/build.rs builds a mutant variant, at
    every rate set in `rates`: the same sources and wrapper, the same Verilator flags from
    variants.toml (--lint-only instead of --cc), the same parameters; for the VHDL twin first the
    same scripts/vhdl2verilog.py run (ghdl --synth with the generics, the wrapper's state and
    injection files)."""
    vhdl = file.startswith("vhdl/")
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(RTL / "vhdl" if vhdl else RTL, scratch)
    t = scratch / (pathlib.Path(file).name if vhdl else file)
    t.write_text(t.read_text().replace(old, new, 1))
    flags = VARIANTS["flags"]
    lint = [("--lint-only" if f == "--cc" else f)
            for f in flags["common"] + (flags["vhdl"] if vhdl else []) + flags["mutant"]]
    for r in rates:
        params = ["-GDATA_BYTES=8", f"-GCLK_FREQ_HZ=32'd{r['clk_hz']}", f"-GLINE_RATE=32'd{r['line_rate']}"]
        if vhdl:
            out = scratch / f"verilog{r['suffix']}"
            out.mkdir()
            g = subprocess.run([sys.executable, str(ROOT / "scripts" / "vhdl2verilog.py"), "--data-bytes=8",
                                f"--clk-freq-hz={r['clk_hz']}", f"--line-rate={r['line_rate']}",
                                "--src", str(scratch), "--out", str(out / "dcqcn_rl.v"),
                                "--state", str(out / "dcqcn_cosim_state.svh"),
                                "--inject", str(out / "dcqcn_cosim_inject.svh"),
                                "--ghdl", os.environ.get("GHDL", "ghdl")],
                               capture_output=True, text=True)
            if g.returncode != 0:
                return False
            sources, inc = [str(out / "dcqcn_rl.v")], out
        else:
            sources, inc = sorted(str(p) for p in scratch.glob("*.sv")), scratch
        v = subprocess.run([os.environ.get("VERILATOR", "verilator")] + lint
                           + ["--top-module", "dcqcn_cosim_top"] + params + [f"-I{inc}"]
                           + sources + [str(ROOT / "verilator" / "dcqcn_cosim_top.sv")],
                           capture_output=True, text=True)
        if v.returncode != 0:
            return False
    return True


MQ_QPS = 4  # build.rs builds each multi-QP mutant at QPS 4 (`mut_<name>`)


def mq_builds(file, old, new, scratch):
    """Whether a multi-QP mutant builds as crates/dcqcn-cosim/build.rs builds `mq_mutant_variants`:
    a copy of rtl/mq/ (or rtl/vhdl/mq/, first through scripts/vhdl2verilog.py --top
    dcqcn_mq_core) with the change, verilated with the flags of variants.toml (common, the VHDL
    path's, the mutant's; --lint-only instead of --cc) as `dcqcn_mq_core` at QPS 4 and the first
    rate set, the packages first."""
    vhdl = file.startswith("vhdl/")
    shutil.rmtree(scratch, ignore_errors=True)
    src = RTL / ("vhdl/mq" if vhdl else "mq")
    scratch.mkdir(parents=True)
    for f in src.iterdir():
        if f.suffix in (".sv", ".svh", ".vhd"):
            shutil.copy(f, scratch / f.name)
    t = scratch / pathlib.Path(file).name
    t.write_text(t.read_text().replace(old, new, 1))
    flags = VARIANTS["flags"]
    lint = [("--lint-only" if f == "--cc" else f)
            for f in flags["common"] + (flags["vhdl"] if vhdl else []) + flags["mutant"]]
    r = VARIANTS["rates"][0]
    if vhdl:
        out = scratch / "verilog"
        out.mkdir()
        g = subprocess.run([sys.executable, str(ROOT / "scripts" / "vhdl2verilog.py"), "--top", "dcqcn_mq_core",
                            f"--qps={MQ_QPS}", f"--clk-freq-hz={r['clk_hz']}", f"--line-rate={r['line_rate']}",
                            "--src", str(scratch), "--out", str(out / "dcqcn_mq_core.v"),
                            "--ghdl", os.environ.get("GHDL", "ghdl")], capture_output=True, text=True)
        if g.returncode != 0:
            return False
        sources, params, inc = [str(out / "dcqcn_mq_core.v")], [], out
    else:
        sources = sorted((str(p) for p in scratch.glob("*.sv")), key=lambda s: not s.endswith("_pkg.sv"))
        params = [f"-GQPS={MQ_QPS}", f"-GCLK_FREQ_HZ=32'd{r['clk_hz']}", f"-GLINE_RATE=32'd{r['line_rate']}"]
        inc = scratch
    v = subprocess.run([os.environ.get("VERILATOR", "verilator")] + lint + ["--top-module", "dcqcn_mq_core"]
                       + params + [f"-I{inc}", f"-I{RTL}"] + sources, capture_output=True, text=True)
    return v.returncode == 0


def mq_run(dcqcn, variant, args, report):
    """The multi-QP lockstep on `variant` (a mutant's name, or the correct RTL's `mq-q4`,
    `mq-vhdl-q4`), in two stages, each with one job, until the first mismatch:
    1. the 12 scenarios (`--scenario all`, `--mq-cycles`) at each seed of --mq-seeds in turn;
    2. if they all pass, the multi-QP fuzzer (`dcqcn fuzz --block mq --variant`, --mq-fuzz-cases
       cases of --mq-fuzz-cycles cycles at fuzz seed --seed, a share of them from an injected
       state), which draws per-QP configurations, traffic, bus writes and memory states the
       scenarios do not.
    Killed: the stage (`by`), and the scenario, seed, cycle and first field, or the fuzz case and
    first field."""
    t = time.time()
    out = {"status": "survived"}
    runs = 0
    for seed in args.mq_seeds:
        cmd = [str(dcqcn), "cosim", "--block", "mq", "--variant", variant, "--scenario", "all", "--seed", str(seed),
               "--cycles", str(args.mq_cycles), "--jobs", "1", "--report", str(report)]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=report.parent)
        runs += 1
        if r.returncode == 1:
            out["status"], out["by"] = "killed", "scenarios"
            try:
                m = json.loads(report.read_text())
                out["field"] = m["fields"][0]["field"] if m.get("fields") else ""
                out["scenario"], out["cycle"], out["seed"] = m["scenario"], m["cycle"], seed
            except (OSError, ValueError, KeyError) as e:
                out["field"] = f"(report unreadable: {e})"
            break
        if r.returncode != 0:
            out = {"status": f"error {r.returncode}", "error": r.stderr[-400:]}
            break
    out["seeds_run"] = runs
    if out["status"] == "survived" and args.mq_fuzz_cases > 0:
        save = report.with_suffix(".case.json")
        cmd = [str(dcqcn), "fuzz", "--block", "mq", "--variant", variant, "--cases", str(args.mq_fuzz_cases),
               "--cycles", str(args.mq_fuzz_cycles), "--seed", str(args.seed), "--jobs", "1", "--save", str(save)]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=report.parent)
        if r.returncode == 1:
            out["status"], out["by"] = "killed", "fuzz"
            c = re.search(r"case (\d+) failed", r.stderr)
            out["case"] = int(c.group(1)) if c else None
            f = re.search(r"\n  ([\w.\[\]]+)\s+\S+\s+0x", r.stderr)
            out["field"] = f.group(1) if f else ""
            out["replay"] = f"dcqcn fuzz --block mq --replay {save}"
        elif r.returncode == 0:
            c = re.search(r": (\d+) cases x", r.stdout)
            out["cases"] = int(c.group(1)) if c else None
        else:
            out = {"status": f"error {r.returncode}", "error": r.stderr[-400:], "seeds_run": runs}
    out["seconds"] = round(time.time() - t, 2)
    return out


def toml_str(s):
    return "'''\n" + s + "'''" if "'''" not in s else None


def changed_lines(rev):
    """The lines of rtl/ that differ from git revision `rev` (in the working tree's numbering), by
    file relative to rtl/ as the candidates name them (`dcqcn_rl.sv`, `vhdl/dcqcn_rl.vhd`)."""
    diff = subprocess.run(["git", "diff", "-U0", rev, "--", "rtl"], cwd=ROOT, capture_output=True,
                          text=True)
    if diff.returncode != 0:
        sys.exit(f"mutants.py: --since {rev}: git diff failed: {diff.stderr.strip()}")
    changed, cur = {}, None
    for line in diff.stdout.splitlines():
        if line.startswith("+++ "):
            cur = None if line.endswith("/dev/null") else line[len("+++ b/rtl/"):]
            continue
        m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
        if m and cur is not None:
            start, n = int(m.group(1)), int(m.group(2) or 1)
            changed.setdefault(cur, set()).update(range(start, start + n))
    return changed


def touches(cand, changed):
    """Whether a candidate's text (it may span lines) includes a changed line."""
    file, line, old = cand[0], cand[1], cand[3]
    return bool(changed.get(file, set()) & set(range(line, line + old.count("\n") + 1)))


def stratified(cands, n, seed, check, limit=None):
    """Up to n candidates that elaborate, stratified by category and block: categories in turn
    (CATEGORIES order), within a category its blocks in turn, within a (block, category) stratum
    a shuffled order; all from `seed` (random.Random), so the same rtl/ and seed give the same
    sample."""
    rng = random.Random(seed)
    strata = {}
    for c in sorted(cands, key=lambda c: (c[0], c[1], c[2], c[4])):
        strata.setdefault((c[6], c[5]), []).append(c)
    for k in sorted(strata):
        rng.shuffle(strata[k])
    blocks = {}
    for cat, blk in sorted(strata):
        blocks.setdefault(cat, []).append(blk)
    for cat in blocks:
        rng.shuffle(blocks[cat])
    turn = {cat: 0 for cat in blocks}
    chosen = []
    while len(chosen) < n and any(strata.values()):
        for cat in [c for c in CATEGORIES if c in blocks]:
            if len(chosen) >= n:
                break
            # the next block of this category that still has candidates
            bl = blocks[cat]
            for _ in range(len(bl)):
                blk = bl[turn[cat] % len(bl)]
                turn[cat] += 1
                lst = strata[(cat, blk)]
                while lst:
                    c = lst.pop(0)
                    if toml_str(c[3]) is None or toml_str(c[4]) is None:
                        continue
                    if check(c):
                        chosen.append(c)
                        break
                else:
                    continue
                break
    return chosen


def fuzz_run(dcqcn, variant, seconds, args, save, before):
    """One `dcqcn fuzz` on a mutant: `before` without state injection and on the 10 GbE build
    only, else the default campaign (injected share, cases at their own rates)."""
    env = dict(os.environ)
    cmd = [str(dcqcn), "fuzz", "--variant", variant, "--seconds", str(seconds), "--cycles", str(args.cycles),
           "--seed", str(args.seed), "--jobs", "1", "--save", str(save)]
    if before:
        cmd.append("--no-inject")
        env["DCQCN_FUZZ_FIXED_RATES"] = "1"
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=save.parent, env=env)
    dt = time.time() - t
    status = {1: "killed", 0: "survived"}.get(r.returncode, f"error {r.returncode}")
    out = {"status": status, "seconds": round(dt, 2)}
    if r.returncode == 1:
        f = re.search(r"\n  (\w+)\s+\w+\s+0x", r.stderr)
        out["field"] = f.group(1) if f else ""
        c = re.search(r"case (\d+) failed", r.stderr)
        out["case"] = int(c.group(1)) if c else None
        try:
            saved = json.loads(save.read_text())
            out["variant"] = saved.get("variant")
            out["injected"] = saved["case"].get("initial_state") is not None
        except (OSError, ValueError, KeyError):
            pass
    elif r.returncode == 0:
        c = re.search(r": (\d+) cases x", r.stdout)
        out["cases"] = int(c.group(1)) if c else None
    else:
        out["error"] = r.stderr[-400:]
    return out


def rate(rows, pred=lambda r: True):
    """(killed, scored) over rows (equivalent mutants excluded)."""
    sel = [r for r in rows if r["equivalent"] is None and pred(r)]
    return sum(1 for r in sel if r["after"]["status"] == "killed"), len(sel)


def pct(k, n):
    return f"{k}/{n} ({100.0 * k / n:.1f}%)" if n else "-"


def case_rate(rows):
    """Cases per second of one fuzz run on this machine during the campaign: the median over the
    runs that used their whole budget (survivors), else None."""
    r = sorted(x["cases"] / x["seconds"] for row in rows for x in (row["after"], row["before"])
               if x and x["status"] == "survived" and x.get("cases") and x["seconds"] > 0)
    return r[len(r) // 2] if r else None


def detect_s(x, rate):
    """Seconds of fuzzing until the failing case was found: the cases before it and itself (one
    job: case n is the (n + 1)-th), at `rate` cases per second. The wall time of a killed run also
    holds the shrinking of the failing case, which is not time to kill."""
    if x is None or x["status"] != "killed" or x.get("case") is None or not rate:
        return None
    return (x["case"] + 1) / rate


def summary(rows, args):
    lines = []
    have_before = any(r.get("before") for r in rows)
    rate = case_rate(rows)

    def killed(r, which):
        x = r.get(which)
        return x is not None and x["status"] == "killed"

    def table(key, title):
        lines.append(f"\nby {title}:")
        hdr = f"  {title:<18} {'mutants':>7} {'equiv':>5}  {'after':<16}"
        if have_before:
            hdr += f" {'before':<16}"
        lines.append(hdr)
        for k in sorted({r[key] for r in rows}):
            sel = [r for r in rows if r[key] == k]
            scored = [r for r in sel if r["equivalent"] is None]
            a = sum(1 for r in scored if killed(r, "after"))
            row = f"  {k:<18} {len(sel):>7} {len(sel) - len(scored):>5}  {pct(a, len(scored)):<16}"
            if have_before:
                b = sum(1 for r in scored if killed(r, "before"))
                row += f" {pct(b, len(scored)):<16}"
            lines.append(row)

    table("block", "block")
    table("category", "category")
    table("kind", "kind")
    scored = [r for r in rows if r["equivalent"] is None]
    for which in ("after", "before") if have_before else ("after",):
        cases = sorted(r[which]["case"] for r in scored if killed(r, which) and r[which].get("case") is not None)
        if cases:
            k = len(cases)
            med, p90, mx = cases[k // 2], cases[min(k - 1, (9 * k) // 10)], cases[-1]
            est = (f"; at {rate:.1f} cases/s per run here, about {(med + 1) / rate:.1f} s, "
                   f"{(p90 + 1) / rate:.1f} s, {(mx + 1) / rate:.1f} s of fuzzing") if rate else ""
            lines.append(f"\ntime to kill ({which}): failing case number median {med}, 90th percentile {p90}, "
                         f"max {mx} (case n is the (n + 1)-th case of the run){est}")
    if args.block == "mq":
        cyc = sorted(r["after"]["cycle"] for r in scored if killed(r, "after") and r["after"].get("cycle") is not None)
        if cyc:
            k = len(cyc)
            lines.append(f"\ncycle of the first mismatch (in its scenario run): median {cyc[k // 2]}, "
                         f"90th percentile {cyc[min(k - 1, (9 * k) // 10)]}, max {cyc[-1]}")
        seeds = {}
        for r in scored:
            if killed(r, "after"):
                seeds[r["after"].get("seed")] = seeds.get(r["after"].get("seed"), 0) + 1
        lines.append("killed at seed: " + ", ".join(f"{k} {v}" for k, v in sorted(seeds.items(), key=str)))
    inj = sum(1 for r in scored if killed(r, "after") and r["after"].get("injected"))
    rates = {}
    for r in scored:
        if killed(r, "after"):
            v = r["after"].get("variant") or ""
            m = re.search(r"-(1g|25g|lmax)$", v)
            rates[m.group(1) if m else "10g"] = rates.get(m.group(1) if m else "10g", 0) + 1
    if args.block != "mq":
        lines.append(f"killing case (after): {inj} from an injected state; by rate set " +
                     ", ".join(f"{k} {v}" for k, v in sorted(rates.items())))
    a = sum(1 for r in scored if killed(r, "after"))
    total = (f"TOTAL: {len(rows)} mutants, {len(rows) - len(scored)} provably equivalent (not run); "
             + (f"killed {pct(a, len(scored))} (by the 12 scenarios "
                f"{sum(1 for r in scored if killed(r, 'after') and r['after'].get('by') == 'scenarios')}, by the fuzzer "
                f"{sum(1 for r in scored if killed(r, 'after') and r['after'].get('by') == 'fuzz')})"
                if args.block == "mq" else
                f"after: killed {pct(a, len(scored))} within {args.seconds:.0f} s each"))
    if have_before:
        b = sum(1 for r in scored if killed(r, "before"))
        only_after = [r["name"] for r in scored if killed(r, "after") and not killed(r, "before")]
        only_before = [r["name"] for r in scored if killed(r, "before") and not killed(r, "after")]
        total += (f"; before: killed {pct(b, len(scored))} within {args.before_seconds:.0f} s each"
                  f"\nkilled after but not before: {', '.join(only_after) or 'none'}"
                  f"\nkilled before but not after: {', '.join(only_before) or 'none'}")
    lines.append(total)
    return lines


def render(rows, args, build_s, fuzz_s, control=()):
    rate = case_rate(rows)
    have_before = any(r.get("before") for r in rows)
    lines = []
    for c in control:
        runs = "; ".join(f"{w}: {c[w]['status'] if c[w]['status'] != 'survived' else '0 mismatches'} "
                         + (f"in 12 scenarios x {c[w].get('seeds_run')} seeds"
                            + (f" and {c[w]['cases']} fuzz cases" if c[w].get("cases") else "") + ", "
                            if c[w].get("seeds_run") else f"in {c[w].get('cases', '?')} cases, ")
                         + f"{c[w]['seconds']:.0f} s"
                         for w in ("after", "before") if c.get(w))
        lines.append(f"control {c['variant']} (the unmutated RTL, same seed and budgets): {runs}")
    if not control:
        lines.append("control: none recorded (a campaign before the control run existed)")
    lines += [f"{'mutant':<48} {'category':<9} {'after':<9} {'case':>5} {'~s':>5} {'rates':<5} {'inj':<3}"
             + ("  before    case" if have_before else "") + "  first field"]
    for r in rows:
        a, b = r["after"], r.get("before")
        v = a.get("variant") or ""
        rs = re.search(r"-(1g|25g|lmax)$", v)
        d = detect_s(a, rate)
        line = (f"{r['name']:<48} {r['category']:<9} {a['status']:<9} "
                f"{a.get('case') if a.get('case') is not None else '':>5} "
                f"{f'{d:.1f}' if d is not None else '':>5} "
                f"{(rs.group(1) if rs else ('10g' if a['status'] == 'killed' else '')):<5} "
                f"{('yes' if a.get('injected') else 'no') if a['status'] == 'killed' else '':<3}")
        if have_before:
            line += (f"  {b['status']:<9} {b.get('case') if b.get('case') is not None else '':>4}" if b else "  -" + " " * 13)
        line += f"  {a.get('field', '')}{a.get('error', '')}"
        if a.get("scenario"):
            line += f" ({a['scenario']} seed {a['seed']}, cycle {a['cycle']})"
        elif a.get("by") == "fuzz":
            line += f" (fuzz case {a.get('case')}; {a.get('replay', '')})"
        lines.append(line)
    lines += summary(rows, args)
    if args.block == "mq":
        lines.append(f"(block mq, hdl {args.hdl}, sample seed {args.sample_seed}, QPS {MQ_QPS}, the 12 scenarios x "
                     f"{args.mq_cycles} cycles at seeds {','.join(map(str, args.mq_seeds))} in turn, then "
                     f"{args.mq_fuzz_cases} fuzz cases x {args.mq_fuzz_cycles} cycles at fuzz seed {args.seed}; "
                     f"build {build_s:.0f} s, lockstep {fuzz_s:.0f} s wall, {args.jobs} runs at a time)")
    else:
        lines.append(f"(hdl {args.hdl}, sample seed {args.sample_seed}, fuzz seed {args.seed}, "
                     f"{args.cycles} cycles per case, rates 10g{',' + args.rates if args.rates else ''}; "
                     f"build {build_s:.0f} s, fuzzing {fuzz_s:.0f} s wall, {args.jobs} runs at a time)")
    for r in rows:
        if r["after"]["status"] != "killed":
            lines.append(f"\n{r['after']['status']}: {r['name']} ({r['file']}:{r['line']}, {r['category']}, "
                         f"{r['kind']}{'; ' + r['equivalent'] if r['equivalent'] else ''})\n- "
                         + r["old"].replace("\n", "\n- ") + "\n+ " + r["new"].replace("\n", "\n+ "))
    return "\n".join(lines)


def report_sites(hdl, cands):
    counts = {}
    for c in cands:
        counts[c[6]] = counts.get(c[6], 0) + 1
    print(f"{hdl}: {len(cands)} candidate sites (" +
          ", ".join(f"{k} {counts[k]}" for k in CATEGORIES if k in counts) + ")", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", "--count", dest="sample", type=int, default=int(os.environ.get("MUTANTS", "48")),
                    help="mutants drawn, stratified by category and block (default $MUTANTS or 48)")
    ap.add_argument("--sample-seed", type=int, default=int(os.environ.get("MUTANT_SAMPLE_SEED", "1")),
                    help="seed of the stratified sample (default $MUTANT_SAMPLE_SEED or 1)")
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("MUTANT_SECONDS", "60")),
                    help="fuzz budget per mutant, default campaign (after)")
    ap.add_argument("--before-seconds", type=float, default=float(os.environ.get("MUTANT_BEFORE_SECONDS", "60")),
                    help="fuzz budget per mutant without injection and variants (before); 0: not run")
    ap.add_argument("--rates", default=os.environ.get("MUTANT_RATES", "1g,25g,lmax"),
                    help="rate sets each mutant is also built at (besides 10g); empty: 10g only")
    ap.add_argument("--cycles", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1, help="fuzz campaign seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="fuzz runs at a time")
    ap.add_argument("--hdl", choices=("sv", "vhdl", "both"), default="sv",
                    help="both: --sample SV mutants and --sample-vhdl VHDL mutants in one build")
    ap.add_argument("--sample-vhdl", type=int, default=None, help="with --hdl both (default: --sample)")
    ap.add_argument("--widths", default=os.environ.get("MUTANT_WIDTHS", "8"),
                    help="beat widths of the correct variants built beside the mutants (DCQCN_WIDTHS); "
                         "8,32,64 lets the same binary run the default campaign and make cosim")
    ap.add_argument("--since", default=os.environ.get("MUTANT_SINCE") or None,
                    help="only mutants of rtl/ lines changed since this git revision (default $MUTANT_SINCE): "
                         "a campaign on what a change added")
    ap.add_argument("--block", choices=("rl", "mq"), default=os.environ.get("MUTANT_BLOCK", "rl"),
                    help="rl: dcqcn_rl (rtl/, rtl/vhdl/; killed by dcqcn fuzz); mq: the multi-QP block "
                         "(rtl/mq/, rtl/vhdl/mq/; killed by the multi-QP lockstep's scenarios, then its fuzzer)")
    ap.add_argument("--mq-seeds", default=os.environ.get("MUTANT_MQ_SEEDS", "1,2,3"),
                    help="--block mq: the scenario seeds, in turn until a mismatch (default 1,2,3)")
    ap.add_argument("--mq-cycles", type=int, default=int(os.environ.get("MUTANT_MQ_CYCLES", "50000")),
                    help="--block mq: cycles per scenario run (default 50000)")
    ap.add_argument("--mq-fuzz-cases", type=int, default=int(os.environ.get("MUTANT_MQ_FUZZ_CASES", "300")),
                    help="--block mq: fuzz cases run on a mutant the scenarios do not kill (default 300; 0: none)")
    ap.add_argument("--mq-fuzz-cycles", type=int, default=int(os.environ.get("MUTANT_MQ_FUZZ_CYCLES", "20000")),
                    help="--block mq: cycles per fuzz case (default 20000)")
    ap.add_argument("--list", action="store_true", help="print the sample (no build, no run)")
    ap.add_argument("--report", action="store_true", help="render the report again from results.json")
    args = ap.parse_args()
    mq = args.block == "mq"
    try:
        args.mq_seeds = [int(s) for s in args.mq_seeds.split(",") if s.strip()]
    except ValueError:
        sys.exit(f"mutants.py: --mq-seeds: comma-separated integers, not `{args.mq_seeds}`")
    if mq and not args.mq_seeds:
        sys.exit("mutants.py: --mq-seeds: at least one seed")
    global OUT
    OUT = (ROOT / "target" / "mutants-mq" / args.hdl if mq else
           ROOT / "target" / {"sv": "mutants", "vhdl": "mutants-vhdl", "both": "mutants-both"}[args.hdl])

    if args.report:
        data = json.loads((OUT / "results.json").read_text())
        rows = data["rows"] if isinstance(data, dict) else data
        build_s, fuzz_s = (data.get("build_s", 0), data.get("fuzz_s", 0)) if isinstance(data, dict) else (0, 0)
        control = data.get("control", []) if isinstance(data, dict) else []
        report = render(rows, args, build_s, fuzz_s, control)
        (OUT / "report.txt").write_text(report + "\n")
        print(report)
        k, n = rate(rows)
        return 0 if k * 100 >= 95 * max(1, n) else 1

    picked = []
    rates = rate_sets(args.rates) if not mq else [VARIANTS["rates"][0]]
    if mq:
        args.rates, args.before_seconds = "", 0.0  # the multi-QP variants: first rate set, one mode
    changed = changed_lines(args.since) if args.since else None

    def restrict(cands):
        return cands if changed is None else [c for c in cands if touches(c, changed)]

    def check(c):
        if mq:
            return mq_builds(c[0], c[3], c[4], OUT / "scratch")
        return builds(c[0], c[3], c[4], OUT / "scratch", rates)

    if args.hdl in ("sv", "both"):
        cands = []
        sv_dir = RTL / "mq" if mq else RTL
        for path in sorted(sv_dir.glob("*.sv")) + sorted(sv_dir.glob("*.svh")):
            cands += candidates(path)
        cands = restrict(cands)
        report_sites("SV", cands)
        picked += stratified(cands, args.sample, args.sample_seed, check)
    if args.hdl in ("vhdl", "both"):
        cands = []
        for path in sorted((RTL / "vhdl" / "mq").glob("dcqcn_mq*.vhd") if mq else (RTL / "vhdl").glob("dcqcn_*.vhd")):
            if path.name != "dcqcn_tap_pkg.vhd":  # simulation only
                cands += vhdl_candidates(path)
        cands = restrict(cands)
        report_sites("VHDL", cands)
        n = args.sample if args.hdl == "vhdl" or args.sample_vhdl is None else args.sample_vhdl
        picked += stratified(cands, n, args.sample_seed, check)
    # build.rs reads the multi-QP mutants from the `mq/` of its mutants directory
    defs = OUT / "defs" / "mq" if mq else OUT / "defs"
    defs.mkdir(parents=True, exist_ok=True)
    chosen = []
    for k, (file, line, kind, old, new, block, cat) in enumerate(picked):
        prefix = "vhdl-" if file.startswith("vhdl/") else ""
        short = block.replace("vhdl/", "").replace("_", "")
        name = f"{prefix}s{len(chosen):02d}-{short}-{line}-{kind}"
        body = (f"description = \"{kind} ({cat}) at {file}:{line}\"\nfile = \"{file}\"\n"
                f"find = {toml_str(old)}\nreplace = {toml_str(new)}\n")
        target = defs / f"{name}.toml"
        # Rewrite only what changed, so an unchanged campaign does not rebuild.
        if not target.exists() or target.read_text() != body:
            target.write_text(body)
        chosen.append((name, file, line, kind, old, new, block, cat))
    if args.list:
        for m in chosen:
            print(f"{m[0]:<48} {m[7]:<10} {m[6]:<12} {m[1]}:{m[2]}")
        return 0
    keep = {f"{c[0]}.toml" for c in chosen}
    for stale in defs.glob("*.toml"):
        if stale.name not in keep:
            stale.unlink()
    print(f"sample: {len(chosen)} (seed {args.sample_seed}, all elaborate); building each at 10g"
          f"{', ' + args.rates if args.rates else ''}...", flush=True)

    env = dict(os.environ, DCQCN_MUTANTS_DIR=str(defs.parent if mq else defs), DCQCN_WIDTHS=args.widths,
               CARGO_TARGET_DIR=str(CARGO_DIR), DCQCN_MUTANT_RATES=args.rates)
    if mq:
        # the correct multi-QP variants at the mutants' QPS only, each mutant at QPS 4
        env.update(DCQCN_MQ_QPS=str(MQ_QPS), DCQCN_MQ_MUTANT_QPS=str(MQ_QPS))
    t0 = time.time()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "dcqcn-cli"], cwd=ROOT, env=env, check=True)
    build_s = time.time() - t0
    if mq:
        print(f"built in {build_s:.0f} s; each mutant: the 12 scenarios x {args.mq_cycles} cycles at QPS {MQ_QPS}, "
              f"seeds {','.join(map(str, args.mq_seeds))} in turn, then {args.mq_fuzz_cases} fuzz cases x "
              f"{args.mq_fuzz_cycles} cycles, until a mismatch", flush=True)
    else:
        print(f"built in {build_s:.0f} s; fuzzing each for up to {args.seconds:.0f} s"
              f"{f' (and {args.before_seconds:.0f} s before)' if args.before_seconds > 0 else ''}", flush=True)
    dcqcn = CARGO_DIR / "release" / "dcqcn"
    runs = OUT / "runs"
    shutil.rmtree(runs, ignore_errors=True)
    runs.mkdir()

    def following(m):
        lines = (RTL / m[1]).read_text().split("\n")
        return lines[m[2]:m[2] + 4]

    tasks = []
    rows = {}
    for m in chosen:
        name, file, line, kind, old, new, block, cat = m
        eq = "min/max boundary" if provably_equivalent(kind, old, new, following(m)) else None
        rows[name] = {"name": name, "file": file, "line": line, "kind": kind, "category": cat, "block": block,
                      "old": old, "new": new, "equivalent": eq, "after": None, "before": None}
        if eq is None:
            variant = "mut_" + name.replace("-", "_")
            tasks.append((name, "after", variant, args.seconds, False))
            if args.before_seconds > 0:
                tasks.append((name, "before", variant, args.before_seconds, True))

    def attack(task):
        name, which, variant, secs, before = task
        if mq:
            return name, which, mq_run(dcqcn, variant, args, runs / f"{name}-{which}.json")
        return name, which, fuzz_run(dcqcn, variant, secs, args, runs / f"{name}-{which}.json", before)

    # The control: the unmutated RTL of each HDL in the campaign, fuzzed exactly as a mutant is
    # (same seed, cycles, budgets, one job per run, its rate siblings), first. A failure there is a
    # false kill waiting in every mutant's run, so the campaign stops before it measures anything.
    hdls = {"sv": ["sv"], "vhdl": ["vhdl"], "both": ["sv", "vhdl"]}[args.hdl]
    control_tasks = []
    for hdl in hdls:
        base = ({"sv": f"mq-q{MQ_QPS}", "vhdl": f"mq-vhdl-q{MQ_QPS}"} if mq else {"sv": "w8", "vhdl": "vhdl-w8"})[hdl]
        control_tasks.append((f"control-{base}", "after", base, args.seconds, False))
        if args.before_seconds > 0:
            control_tasks.append((f"control-{base}", "before", base, args.before_seconds, True))
    print(f"control: the unmutated RTL ({', '.join(sorted({t[2] for t in control_tasks}))}) for the same budgets",
          flush=True)
    control = {}
    t1 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, which, res in pool.map(attack, control_tasks):
            control.setdefault(name, {"name": name, "variant": name[len("control-"):]})[which] = res
            print(f"  {name:<48} {which:<6} {res['status']:<9} {res['seconds']:>6.1f}s"
                  f"{'  ' + str(res.get('cases')) + ' cases' if res.get('cases') else ''}", flush=True)
    control = list(control.values())
    failed = [(c["name"], w, c[w]) for c in control for w in ("after", "before")
              if c.get(w) and c[w]["status"] != "survived"]
    if failed:
        (OUT / "results.json").write_text(json.dumps({"control": control, "rows": []}, indent=1) + "\n")
        for name, which, res in failed:
            print(f"error: control {name} ({which}): the unmutated RTL {res['status']}"
                  f"{' at case ' + str(res.get('case')) + ', field ' + res.get('field', '') if res.get('case') is not None else ''}"
                  f"{': ' + res['error'] if res.get('error') else ''}; "
                  + (f"replay: dcqcn cosim --block mq --variant {name[len('control-'):]} --scenario {res.get('scenario')} "
                     f"--seed {res.get('seed')}" if mq else
                     f"replay: dcqcn fuzz --replay {runs / (name + '-' + which + '.json')}"), file=sys.stderr)
        print("error: the fuzzer fails the correct RTL within the budget, so a kill measures nothing: "
              "fix the harness (or the RTL) first", file=sys.stderr)
        return 2

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, which, res in pool.map(attack, tasks):
            rows[name][which] = res
            print(f"  {name:<48} {which:<6} {res['status']:<9} {res['seconds']:>6.1f}s", flush=True)
    fuzz_s = time.time() - t1
    rows = [rows[m[0]] for m in chosen]
    for r in rows:
        if r["equivalent"]:
            r["after"] = {"status": "equivalent", "seconds": 0.0}

    report = render(rows, args, build_s, fuzz_s, control)
    (OUT / "report.txt").write_text(report + "\n")
    (OUT / "results.json").write_text(json.dumps({"build_s": build_s, "fuzz_s": fuzz_s, "control": control,
                                                  "rows": rows}, indent=1) + "\n")
    print(report)
    k, n = rate(rows)
    return 0 if k * 100 >= 95 * max(1, n) else 1


if __name__ == "__main__":
    sys.exit(main())
