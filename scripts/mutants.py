#!/usr/bin/env python3
"""make mutants: a mutation campaign against the lockstep fuzzer.

Generates mutants of rtl/ automatically (operator swaps, dropped negations and conditions,
constants +-1, swapped if/else-if priorities, narrowed widths), only inside the combinational
processes, and narrowed widths of declared signals and of packed-struct fields (the register record
and word layouts of rtl/*.svh), keeps those that still elaborate, builds them all as Verilator variants (own target
directory, so the normal build is untouched), fuzzes each for a fixed budget on every core, and
prints killed / survived with time-to-kill and each survivor's diff. Deterministic: the same rtl/
gives the same mutants.

`--hdl vhdl` does the same to the VHDL twin rtl/vhdl/: the same kinds of change in the `comb`
processes and in the package body's functions (`=`/`/=`, `and`/`or`, `not`, VHDL's `if ... then`
/ `elsif`), kept when GHDL still analyses and synthesises the result (scripts/vhdl2verilog.py),
verilated through the same path as the twin (report in target/mutants-vhdl/report.txt). No
narrowed widths: VHDL's strict typing turns a narrowed declaration into an analysis error.
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

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
    out, start, depth = [], None, 0
    for i, line in enumerate(lines):
        code = line.split("//")[0]
        if start is None and "always_comb" in code:
            start, depth = i, 0
        if start is not None:
            depth += len(re.findall(r"\bbegin\b", code)) - len(re.findall(r"\bend\b", code))
            if depth == 0 and i > start:
                out.append((start + 1, i))
                start = None
    return out


def candidates(path):
    text = path.read_text()
    lines = text.split("\n")
    found = []

    def add(i_from, i_to, new_block, kind):
        old = "\n".join(lines[i_from:i_to + 1])
        if old != new_block and text.count(old) == 1:
            found.append((path.name, i_from + 1, kind, old, new_block))

    for lo, hi in comb_ranges(lines):
        for i in range(lo, hi):
            line = lines[i]
            code, sep, comment = line.partition("//")
            if not code.strip():
                continue
            for a, b, kind in SWAPS:
                if a in code:
                    add(i, i, code.replace(a, b, 1) + sep + comment, kind)
            for m in CONST.finditer(code):
                w, v = int(m.group(1)), int(m.group(2))
                for nv, kind in ((v + 1, "const-plus-1"), (v - 1, "const-minus-1")):
                    if 0 <= nv < (1 << w):
                        add(i, i, code[:m.start()] + f"{w}'d{nv}" + code[m.end():] + sep + comment, kind)
            m = DROP_TERM.search(code)
            if m:
                add(i, i, code[:m.start()] + code[m.end():] + sep + comment, "drop-condition")
            # Swapped priority: `if (A) begin ... end else if (B) begin` -> conditions exchanged.
            m = re.match(r"^(\s*)if \((.*)\) begin\s*$", code)
            if m:
                for j in range(i + 1, min(i + 8, hi)):
                    n = re.match(r"^(\s*)end else if \((.*)\) begin\s*$", lines[j].split("//")[0])
                    if n:
                        block = lines[i:j + 1]
                        block[0] = f"{m.group(1)}if ({n.group(2)}) begin"
                        block[-1] = f"{n.group(1)}end else if ({m.group(2)}) begin"
                        add(i, j, "\n".join(block), "swap-priority")
                        break
    for i, line in enumerate(lines):
        m = DECL.match(line)
        # A reserved field reads 0 whatever its width: narrowing it cannot change anything.
        if m and int(m.group(2)) > 1 and not m.group(4).startswith("reserved"):
            add(i, i, f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}", "narrow-width")
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
VHDL_MESSAGE_ONLY = ("to_dec_string", "dcqcn_check_params")


def vhdl_ranges(lines, name):
    """Line ranges of the `comb` process bodies, and in the package the package body's functions
    (those of VHDL_MESSAGE_ONLY left out)."""
    out, start = [], None
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
        if start is None and re.match(r"\s*comb\s*:\s*process", code):
            start = i
        elif start is not None and re.match(r"\s*end process comb", code):
            out.append((start + 1, i))
            start = None
    return out


def vhdl_candidates(path):
    text = path.read_text()
    lines = text.split("\n")
    found = []
    file = f"vhdl/{path.name}"

    def add(i_from, i_to, new_block, kind):
        old = "\n".join(lines[i_from:i_to + 1])
        if old != new_block and text.count(old) == 1:
            found.append((file, i_from + 1, kind, old, new_block))

    for lo, hi in vhdl_ranges(lines, path.name):
        for i in range(lo, hi):
            code, sep, comment = lines[i].partition("--")
            if not code.strip() or re.match(r"\s*(variable|constant)\b", code):
                continue
            for a, b, kind in VHDL_SWAPS:
                if a in code:
                    add(i, i, code.replace(a, b, 1) + sep + comment, kind)
            for m in VHDL_CONST.finditer(code):
                v = int(m.group(1))
                for nv, kind in ((v + 1, "const-plus-1"), (v - 1, "const-minus-1")):
                    if nv >= 0:
                        add(i, i, code[:m.start()] + str(nv) + code[m.end():] + sep + comment, kind)
            m = VHDL_DROP_TERM.search(code)
            if m:
                add(i, i, code[:m.start()] + code[m.end():] + sep + comment, "drop-condition")
            # Swapped priority: `if (A) then ... elsif (B) then` -> conditions exchanged.
            m = re.match(r"^(\s*)if (.*) then\s*$", code)
            if m:
                for j in range(i + 1, min(i + 8, hi)):
                    n = re.match(r"^(\s*)elsif (.*) then\s*$", lines[j].split("--")[0])
                    if n and n.group(1) == m.group(1):
                        block = lines[i:j + 1]
                        block[0] = f"{m.group(1)}if {n.group(2)} then"
                        block[-1] = f"{n.group(1)}elsif {m.group(2)} then"
                        add(i, j, "\n".join(block), "swap-priority")
                        break
    return found


def vhdl_elaborates(file, old, new, scratch):
    """GHDL analyses and synthesises the mutated twin (the path the variant is built by)."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(RTL / "vhdl", scratch)
    t = scratch / pathlib.Path(file).name
    t.write_text(t.read_text().replace(old, new, 1))
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "vhdl2verilog.py"), "--data-bytes", "8",
                        "--src", str(scratch), "--out", str(scratch / "dcqcn_rl.v")],
                       capture_output=True, text=True)
    return r.returncode == 0


def elaborates(file, old, new, scratch):
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(RTL, scratch)
    t = scratch / file
    t.write_text(t.read_text().replace(old, new, 1))
    r = subprocess.run(["verilator", "--lint-only", "-Wno-fatal", "-Wno-lint", "-Wno-style", f"-I{scratch}",
                        "--top-module", "dcqcn_rl"] + sorted(str(p) for p in scratch.glob("*.sv")),
                       capture_output=True, text=True)
    return r.returncode == 0


def toml_str(s):
    return "'''\n" + s + "'''" if "'''" not in s else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=int(os.environ.get("MUTANTS", "48")))
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("MUTANT_SECONDS", "60")))
    ap.add_argument("--cycles", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hdl", choices=("sv", "vhdl"), default="sv")
    args = ap.parse_args()
    global OUT
    if args.hdl == "vhdl":
        OUT = ROOT / "target" / "mutants-vhdl"

    cands = []
    if args.hdl == "sv":
        for path in sorted(RTL.glob("*.sv")) + sorted(RTL.glob("*.svh")):
            cands += candidates(path)
        check = elaborates
    else:
        for path in sorted((RTL / "vhdl").glob("dcqcn_*.vhd")):
            if path.name != "dcqcn_tap_pkg.vhd":  # simulation only
                cands += vhdl_candidates(path)
        check = vhdl_elaborates
    # Round-robin over kinds, evenly spaced within a kind (so every kind and file is represented),
    # deterministically.
    kinds = {}
    for c in sorted(cands, key=lambda c: (c[0], c[1])):
        kinds.setdefault(c[2], []).append(c)
    spread = {}
    for k, lst in kinds.items():
        stride = max(1, len(lst) // 7)
        spread[k] = [lst[j] for r in range(stride) for j in range(r, len(lst), stride)]
    order = []
    for rank in range(max(len(v) for v in spread.values())):
        order += [spread[k][rank] for k in sorted(spread) if rank < len(spread[k])]
    defs = OUT / "defs"
    defs.mkdir(parents=True, exist_ok=True)
    chosen = []
    for c in order:
        if len(chosen) >= args.count:
            break
        file, line, kind, old, new = c
        if toml_str(old) is None or toml_str(new) is None:
            continue
        if not check(file, old, new, OUT / "scratch"):
            continue
        prefix = "" if args.hdl == "sv" else "vhdl-"
        name = f"{prefix}g{len(chosen):02d}-{pathlib.Path(file).stem[6:].replace('_', '')}-{line}-{kind}"
        body = (f"description = \"{kind} at {file}:{line}\"\nfile = \"{file}\"\n"
                f"find = {toml_str(old)}\nreplace = {toml_str(new)}\n")
        target = defs / f"{name}.toml"
        # Rewrite only what changed, so an unchanged campaign does not rebuild.
        if not target.exists() or target.read_text() != body:
            target.write_text(body)
        chosen.append((name, file, line, kind, old, new))
    keep = {f"{c[0]}.toml" for c in chosen}
    for stale in defs.glob("*.toml"):
        if stale.name not in keep:
            stale.unlink()
    print(f"mutants: {len(chosen)} of {len(cands)} candidate sites (all elaborate); building...", flush=True)

    env = dict(os.environ, DCQCN_MUTANTS_DIR=str(defs), DCQCN_WIDTHS="8", CARGO_TARGET_DIR=str(CARGO_DIR))
    t0 = time.time()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "dcqcn-cli"], cwd=ROOT, env=env, check=True)
    print(f"built in {time.time() - t0:.0f} s; fuzzing each for up to {args.seconds:.0f} s", flush=True)
    dcqcn = CARGO_DIR / "release" / "dcqcn"
    runs = OUT / "runs"
    shutil.rmtree(runs, ignore_errors=True)
    runs.mkdir()

    def following(m):
        lines = (RTL / m[1]).read_text().split("\n")
        return lines[m[2]:m[2] + 4]

    def attack(m):
        name, _, _, kind, old, new = m
        if provably_equivalent(kind, old, new, following(m)):
            return m, "equivalent", 0.0, "(min/max boundary)", ""
        variant = "mut_" + name.replace("-", "_")
        t = time.time()
        r = subprocess.run([str(dcqcn), "fuzz", "--variant", variant, "--seconds", str(args.seconds),
                            "--cycles", str(args.cycles), "--seed", str(args.seed), "--jobs", "1",
                            "--save", str(runs / f"{name}.json")],
                           capture_output=True, text=True, cwd=runs)
        dt = time.time() - t
        status = {1: "killed", 0: "survived"}.get(r.returncode, f"error {r.returncode}")
        field = ""
        if r.returncode == 1:
            f = re.search(r"\n  (\w+)\s+\w+\s+0x", r.stderr)
            field = f.group(1) if f else ""
        return m, status, dt, field, r.stderr[-400:] if status.startswith("error") else ""

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(attack, chosen))

    killed = sum(1 for r in results if r[1] == "killed")
    equivalent = sum(1 for r in results if r[1] == "equivalent")
    scored = len(results) - equivalent
    lines = [f"{'mutant':<44} {'status':<9} {'time':>7}  first field"]
    for (name, *_), status, dt, field, err in results:
        lines.append(f"{name:<44} {status:<9} {dt:>6.1f}s  {field}{err}")
    lines.append(f"{len(results)} mutants, {equivalent} provably equivalent (not run); "
                 f"killed {killed}/{scored} ({100.0 * killed / max(1, scored):.1f}%), "
                 f"each within {args.seconds:.0f} s of fuzzing (seed {args.seed}, {args.cycles} cycles per case)")
    for (name, file, line, kind, old, new), status, *_ in results:
        if status not in ("killed", "equivalent"):
            lines.append(f"\n{status}: {name} ({file}:{line})\n- " + old.replace("\n", "\n- ") + "\n+ " + new.replace("\n", "\n+ "))
    report = "\n".join(lines)
    (OUT / "report.txt").write_text(report + "\n")
    print(report)
    return 0 if killed * 100 >= 95 * max(1, scored) else 1


if __name__ == "__main__":
    sys.exit(main())
