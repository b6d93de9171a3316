#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""synth_surf: upstream SURF's DCQCN block as one Verilog netlist, for `make synth SURF_DIR=...`.

The block is upstream's own flat wrapper `ethernet/RoCEv2/wrappers/RoCEv2DcqcnWrapper.vhd` (32-byte
beats) with the files it needs from the user's SURF checkout (the same closure as the lockstep,
docs/surf-lockstep.md). GHDL 2.0 (Debian 12) cannot synthesise that closure as it is: `ghdl --synth`
stops on constructs its synthesis does not implement (the first one is SynchronizerFifo.vhd:51,
`unhandled IIR_PREDEFINED_IEEE_STD_LOGIC_UNSIGNED_EQ_SLV_SLV`). So this script

1. copies the closure to a work folder (default target/synth/surf/src; the user's tree is only read),
2. applies REWRITES below to the copy: each one a fixed textual substitution that replaces one
   construct GHDL 2.0 cannot synthesise by one it can, with the same value (each entry says why it
   is the same), each checked to match the number of times it matched on the verified tree (a
   different SURF version stops here with the rewrite's name, rather than giving other figures),
   and lists them in <work>/REWRITES.txt,
3. runs `ghdl --synth --out=verilog` (SURF CI's flags) on the copy, then the two repairs GHDL 2.0's
   Verilog writer needs that scripts/vhdl2verilog.py also makes for our VHDL twin (wide constants
   written as strings; `case` without its `when others` value),
4. drops the memory initialisations that are all zero (GHDL writes one `mem[i] = 0` line per word;
   Yosys 0.23 takes 90 s to read the 4096-word one, and a zero initial content is what the RAMs
   power up with anyway: it is no resource).

A netlist made from the same files by the same script and GHDL is reused (<work>/stamp.txt).
Verified on: the SURF tree of docs/surf-lockstep.md (snapshot fc56630d plus the block's files at the
commits listed there), GHDL 2.0.0. The netlist is written to --out; nothing is written elsewhere.
Exit 0 ok, 2 the directory is not a SURF checkout with the block, 3 a rewrite or a tool failed.
Python 3 standard library only.
"""

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no scripts/__pycache__ from the import below
sys.path.insert(0, str(Path(__file__).resolve().parent))
import vhdl2verilog  # noqa: E402  (the case-default repair, shared with the VHDL twin)

ROOT = Path(__file__).resolve().parent.parent
TOP = "RoCEv2DcqcnWrapper"
FLAGS = ["--std=08", "-fsynopsys", "-frelaxed-rules", "-fexplicit"]  # SURF CI's GHDL flags
# The closure as the lockstep bridge offers it to GHDL, read from its one declaration
# (crates/dcqcn-surf/src/ghdl/common.rs): SOURCE_DIRS (less simulation models, testbenches and
# vendor primitives), the base files the wrapper needs (BASE_FILES; the AXI-Lite shim among them is
# in a skipped directory) and the block's files (BLOCK_FILES).
COMMON_RS = ROOT / "crates" / "dcqcn-surf" / "src" / "ghdl" / "common.rs"


def rust_str_list(name):
    """The string literals of `const <name>: &[&str] = &[...];` in COMMON_RS."""
    text = COMMON_RS.read_text()
    m = re.search(rf"const {name}: &\[&str\] = &\[(.*?)\];", text, re.S)
    if not m:
        raise SystemExit(f"synth_surf.py: {COMMON_RS.relative_to(ROOT)}: no const {name} list")
    return re.findall(r'"([^"]+)"', m.group(1))


SOURCE_DIRS = rust_str_list("SOURCE_DIRS")
SKIP_DIRS = {"sim", "tb", "xilinx", "altera", "ip_integrator"}
BASE_FILES = rust_str_list("BASE_FILES")
# the base files GHDL's directory scan does not offer
EXTRA_FILES = [f for f in BASE_FILES if set(Path(f).parts[:-1]) & SKIP_DIRS]
BLOCK_FILES = rust_str_list("BLOCK_FILES")
NEEDED = BASE_FILES + BLOCK_FILES

# Helpers added to the copy of AxiStreamPkg's body for rewrite 7 (ours, not upstream code).
AXIS_HELPERS = """
   -- Added by scripts/synth_surf.py (GHDL 2.0 synthesis of a copy; see rewrite 7 there).
   function ghdl2Len (v : slv) return natural is
   begin
      return v'length;
   end function;
   function ghdl2Insert (v : slv; lo : natural; x : slv) return slv is
      variable r : slv(v'range) := v;
   begin
      r(lo+x'length-1 downto lo) := x;
      return r;
   end function;
   function ghdl2Extract (v : slv; lo : natural; n : natural) return slv is
   begin
      return v(lo+n-1 downto lo);
   end function;
"""

# Each rewrite: (name, files, regex, replacement, matches on the verified tree, why the value is the
# same). `files` is a path of the closure, or "std_logic_unsigned users": every closure file with
# `use ieee.std_logic_unsigned.all` (there "=" on two std_logic_vectors is the numeric comparison).
REWRITES = [
    ("1 static slv = \"0\"", "std_logic_unsigned users",
     r'\bINIT_G\s*=\s*"0"',
     'ieee.numeric_std."="(ieee.numeric_std.unsigned(INIT_G), 0)', 7,
     "GHDL 2.0 cannot fold std_logic_unsigned's \"=\" (slv, slv) in a constant (unhandled "
     "IIR_PREDEFINED_IEEE_STD_LOGIC_UNSIGNED_EQ_SLV_SLV). Under std_logic_unsigned, INIT_G = \"0\" "
     "is the numeric test INIT_G = 0, which numeric_std's \"=\" (UNSIGNED, NATURAL) computes the "
     "same way (L/H read as 0/1, FALSE on a metavalue) and GHDL folds."),
    ("2 static unsigned /= 0", "base/general/rtl/StdRtlPkg.vhd",
     r"\(unsigned\(vector\)\s*/=\s*0\)", "(not (unsigned(vector) = 0))", 1,
     "GHDL 2.0 cannot fold numeric_std's \"/=\" (UNSIGNED, NATURAL) (unhandled "
     "IIR_PREDEFINED_IEEE_NUMERIC_STD_NE_UNS_NAT, in isPowerOf2, used by log2); numeric_std "
     "defines it as the negation of \"=\", which GHDL folds."),
    ("3 static slv - 1", "base/fifo/rtl/inferred/FifoWrFsm.vhd",
     r"(constant\s+AFULL_C\s*:\s*slv\(ADDR_WIDTH_G-1 downto 0\)\s*:=\s*)FULL_C\s*-\s*1\s*;",
     r'\1std_logic_vector(ieee.numeric_std."-"(ieee.numeric_std.unsigned(FULL_C), 1));', 1,
     "GHDL 2.0 cannot fold std_logic_unsigned's \"-\" (slv, integer) (unhandled "
     "IIR_PREDEFINED_IEEE_STD_LOGIC_UNSIGNED_SUB_SLV_INT); numeric_std's \"-\" (UNSIGNED, "
     "NATURAL) gives the same (FULL_C - 1) mod 2**width at the same width."),
    ("4 static exp(x*log(2.0))", "ethernet/RoCEv2/rtl/RoCEv2TokenCalc.vhd",
     r"exp\(real\(n_bits \+ frac_bits\) \* log\(2\.0\)\)", "(2.0 ** real(n_bits + frac_bits))", 1,
     "GHDL 2.0 does not evaluate math_real's exp and log (\"unhandled call to ieee function "
     "exp\"); exp(x*log(2.0)) is 2.0**x up to rounding of the last bits of a double, and the "
     "constant is integer(2**48 / 156,250,000) = 1,801,440 either way (the quotient is "
     "1801439.85, far from a .5 tie)."),
    ("5a std_match on a variable (mask)", "axi/axi-lite/rtl/AxiLitePkg.vhd",
     r"variable strobeMask : slv\(3 downto 0\) := \(others => '-'\);",
     "variable strobeMask : slv(3 downto 0) := (others => '0');", 2,
     "with 5b: GHDL 2.0 needs one operand of std_match to be a constant (\"one operand of "
     "std_match must be constant\"), and strobeMask is a variable. The mask's don't-care bits "
     "become '0' ..."),
    ("5b std_match on a variable (test)", "axi/axi-lite/rtl/AxiLitePkg.vhd",
     r"std_match\(ep\.axiWriteMaster\.wstrb, strobeMask\)",
     "((ep.axiWriteMaster.wstrb and strobeMask) = strobeMask)", 2,
     "... and std_match(wstrb, mask) with mask bits '1' or '-' is true iff wstrb is 1 (or H) "
     "wherever the mask is '1': (wstrb and mask) = mask with the '-' bits made '0'."),
    ("6 slice with two variable bounds", "ethernet/RoCEv2/rtl/RoCEv2RateDecProc.vhd",
     r"shifted\(shifted'high - r\.shift_val downto 0\)\s*:=\s*r\.mult\(shifted'high downto r\.shift_val\);",
     "shifted := std_logic_vector(ieee.numeric_std.shift_right(ieee.numeric_std.unsigned(r.mult), "
     "r.shift_val));", 1,
     "GHDL 2.0: \"left and right bounds of a slice must be either constant or dynamic\". The "
     "statement after `shifted := (others => '0')` is a logical right shift of r.mult (both 42 "
     "bits) by shift_val (dec_gain + 10, 10..25), which shift_right computes (0 above 41 too)."),
    ("7a assignSlv of a bit", "axi/axi-stream/rtl/AxiStreamPkg.vhd",
     r"assignSlv\(i, retValue, din\.tLast\);", "retValue(i) := din.tLast; i := i+1;", 1,
     "7a-7e: GHDL 2.0 passes the inout integer of StdRtlPkg's assignSlv/assignRecord as a "
     "signal, so their `vector(i-1 downto low)` becomes a dynamic slice whose offset logic it "
     "builds without a source location, and both of its netlist writers then stop "
     "(TYPES.INTERNAL_ERROR : netlists-disp_verilog.adb:1169, in AxiStreamFifoV2). The calls of "
     "toSlv and toAxiStreamMaster are written out with the procedures' own bodies (7a, 7c: the "
     "std_logic overloads) or through the helpers 7e adds, which take i as a constant."),
    ("7b assignSlv of a vector", "axi/axi-stream/rtl/AxiStreamPkg.vhd",
     r"assignSlv\(i, retValue, (.+?)\);", r"retValue := ghdl2Insert(retValue, i, \1); i := i+ghdl2Len(\1);",
     11, "assignSlv's body: low := i; i := i + value'length; vector(i-1 downto low) := value."),
    ("7c assignRecord of a bit", "axi/axi-stream/rtl/AxiStreamPkg.vhd",
     r"assignRecord\(i, din, master\.tLast\);", "master.tLast := din(i); i := i+1;", 1,
     "assignRecord's std_logic body: value := vector(i); i := i+1."),
    ("7d assignRecord of a vector", "axi/axi-stream/rtl/AxiStreamPkg.vhd",
     r"assignRecord\(i, din, (.+?)\);", r"\1 := ghdl2Extract(din, i, ghdl2Len(\1)); i := i+ghdl2Len(\1);",
     11, "assignRecord's body: low := i; i := i + value'length; value := vector(i-1 downto low)."),
    ("7e helpers for 7b and 7d", "axi/axi-stream/rtl/AxiStreamPkg.vhd",
     r"^(package body AxiStreamPkg is[ \t]*\n)", r"\1" + AXIS_HELPERS.replace("\\", "\\\\"), 1,
     "ghdl2Insert(v, lo, x) is v with v(lo+x'length-1 downto lo) := x; ghdl2Extract(v, lo, n) is "
     "v(lo+n-1 downto lo); ghdl2Len(v) is v'length."),
]


class Error(Exception):
    def __init__(self, msg, code=3):
        super().__init__(msg)
        self.code = code


def closure(surf):
    """The closure's files, relative to the checkout, sorted."""
    files = set()
    for d in SOURCE_DIRS:
        for p in (surf / d).rglob("*.vhd") if (surf / d).is_dir() else []:
            rel = p.relative_to(surf)
            if not SKIP_DIRS.intersection(part.lower() for part in rel.parts[:-1]):
                files.add(rel.as_posix())
    files.update(EXTRA_FILES + BLOCK_FILES)
    return sorted(files)


def apply_rewrites(src, files):
    """REWRITES on the copy in `src`; the lines of REWRITES.txt."""
    users = [f for f in files
             if re.search(r"use\s+ieee\.std_logic_unsigned\.all", (src / f).read_text(errors="replace"), re.I)]
    report = []
    for name, where, pattern, repl, expect, why in REWRITES:
        targets = users if where == "std_logic_unsigned users" else [where]
        total, hits = 0, []
        for f in targets:
            p = src / f
            text = p.read_text(errors="replace")
            new, n = re.subn(pattern, repl, text, flags=re.M)
            if n:
                p.write_text(new)
                total += n
                hits.append(f"{f} ({n})")
        if total != expect:
            raise Error(f"rewrite {name}: {total} matches, {expect} on the verified SURF tree "
                        "(docs/surf-lockstep.md); this SURF version needs its rewrites checked")
        report.append(f"rewrite {name}: {total} in {', '.join(hits)}\n  why: {why}\n")
    return report


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        shown = cmd if len(cmd) < 12 else cmd[:8] + [f"<{len(cmd) - 8} files>"]
        err = "\n".join(line for line in p.stderr.splitlines() if "unhandled attribute" not in line)
        raise Error(f"`{' '.join(shown)}` failed (exit {p.returncode}) in {cwd}:\n{err[-3000:]}")
    return p.stdout


def x_others(vhdl):
    """GHDL's VHDL netlist writes some never-taken `when others` values as "XX..": as
    (N downto 0 => 'X'), the form vhdl2verilog's repair reads."""
    return re.sub(r'"(X+)"(\s+when\s+others)', lambda m: f"({len(m.group(1)) - 1} downto 0 => 'X'){m.group(2)}", vhdl)


def drop_zero_memory_init(verilog):
    """Step 4 of the module docstring: `initial begin mem[i] = N'b0..0; ... end` blocks removed."""
    pat = re.compile(r"^  initial begin\n((?:    \w+\[\d+\] = \d+'b[01]+;\n)+)    end\n", re.M)
    dropped = 0

    def zero(m):
        nonlocal dropped
        if all(set(v) == {"0"} for v in re.findall(r"= \d+'b([01]+);", m.group(1))):
            dropped += 1
            return ""
        return m.group(0)

    return pat.sub(zero, verilog), dropped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--surf-dir", type=Path, required=True, help="the SURF checkout (read only)")
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "synth" / "surf")
    ap.add_argument("--out", type=Path, required=True, help="the Verilog netlist to write")
    ap.add_argument("--ghdl", default="ghdl")
    args = ap.parse_args()
    try:
        surf = args.surf_dir.resolve()
        if not surf.is_dir():
            raise Error(f"SURF_DIR={args.surf_dir}: not a directory", 2)
        missing = [f for f in NEEDED if not (surf / f).is_file()]
        if missing:
            raise Error(f"SURF_DIR={args.surf_dir}: not a SURF checkout with the block; missing "
                        + ", ".join(missing), 2)
        files = closure(surf)
        # A netlist made from the same files by the same script and GHDL is reused.
        h = hashlib.sha256(Path(__file__).read_bytes())
        h.update(run([args.ghdl, "--version"], ROOT).encode())
        for f in files:
            h.update(f.encode() + b"\0" + (surf / f).read_bytes())
        stamp = args.work / "stamp.txt"
        if args.out.is_file() and stamp.is_file() and stamp.read_text() == h.hexdigest():
            return
        src = args.work / "src"
        shutil.rmtree(src, ignore_errors=True)  # the copy and GHDL's library are made anew
        (args.work / "surf-obj08.cf").unlink(missing_ok=True)
        stamp.unlink(missing_ok=True)
        for f in files:
            (src / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(surf / f, src / f)
        report = apply_rewrites(src, files)
        (args.work / "REWRITES.txt").write_text(
            f"Copy of {surf} for `ghdl --synth` (GHDL 2.0), made by scripts/synth_surf.py:\n\n" + "\n".join(report))
        lib = [f"--workdir={args.work}", "--work=surf"]
        run([args.ghdl, "-i", *FLAGS, *lib, *[str(src / f) for f in files]], args.work)
        run([args.ghdl, "-m", *FLAGS, *lib, TOP.lower()], args.work)
        synth = [args.ghdl, "--synth", *FLAGS, *lib, "--no-formal"]
        verilog = run(synth + ["--out=verilog", TOP.lower()], args.work)
        vhdl = run(synth + ["--out=vhdl", TOP.lower()], args.work)
        # vhdl2verilog's repairs 1 (wide constants) and 2 (case defaults), as for the VHDL twin
        verilog, wide = re.subn(r'"([01]+)"', lambda m: f"{len(m.group(1))}'b{m.group(1)}", verilog)
        left = re.search(r'"[^"\n]*"', verilog)
        if left:
            raise Error(f"ghdl --synth output still holds a string literal: {left.group(0)[:80]}")
        verilog, cases = vhdl2verilog.add_case_defaults(verilog, x_others(vhdl))
        verilog, inits = drop_zero_memory_init(verilog)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            f"// Generated by scripts/synth_surf.py from {surf} (a copy with the rewrites of "
            f"{args.work / 'REWRITES.txt'}),\n// ghdl --synth; {wide} wide constants, {cases} case "
            f"defaults repaired, {inits} all-zero memory initialisations dropped. Top: {TOP}.\n" + verilog)
        stamp.write_text(h.hexdigest())
    except vhdl2verilog.Error as e:
        print(f"synth_surf: {e}", file=sys.stderr)
        sys.exit(3)
    except Error as e:
        print(f"synth_surf: {e}", file=sys.stderr)
        sys.exit(e.code)
    except OSError as e:
        print(f"synth_surf: {e}", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    main()
