#!/usr/bin/env python3
"""SURF's own cocotb test of RoCEv2Dcqcn, unmodified, with the upstream model beside it as a
scoreboard (`dcqcn_model.cocotb.SurfScoreboard`), on GHDL (docs/surf-lockstep.md, "SURF's own
cocotb bench with the scoreboard").

    scripts/surf_cocotb.py --surf-dir DIR             # make surf-cocotb SURF_DIR=DIR
    scripts/surf_cocotb.py --surf-dir DIR --defects   # make surf-cocotb-defects SURF_DIR=DIR

The checkout is only read: GHDL's library, the simulations and the planted-defect copies live
under --work (default target/surf-cocotb/). Each of SURF's cocotb tests runs in a simulation of
its own, so that the DUT and the model both start at power-up. The test module is imported from
the checkout (`tests.ethernet.RoCEv2.test_RoCEv2Dcqcn`, with the checkout on PYTHONPATH);
testbench/surf-cocotb/surf_scoreboard_tests.py wraps each of its tests with the scoreboard.

--defects: the same tests on three copies of the block, each with one line changed (DEFECTS
below), in non-fail-fast mode: SURF's assertions run to their end and the scoreboard reports its
first difference; a table of both verdicts is printed and written to --work/defects.md. Exit 0
when each defect passes SURF's assertions and is caught by the scoreboard and the unmodified
block passes both.

Exit: 0 pass, 1 a test failed (a SURF assertion or a scoreboard mismatch), 2 bad input (one line
naming what is missing), 3 a build or harness error.
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO / "testbench" / "surf-cocotb"
WRAPPER_MODULE = "surf_scoreboard_tests"

TEST_FILE = "tests/ethernet/RoCEv2/test_RoCEv2Dcqcn.py"
TEST_MODULE = "tests.ethernet.RoCEv2.test_RoCEv2Dcqcn"
WRAPPER_FILE = "ethernet/RoCEv2/wrappers/RoCEv2DcqcnWrapper.vhd"
TOPLEVEL = "rocev2dcqcnwrapper"
GHDL_FLAGS = ["--std=08", "-fsynopsys", "-frelaxed-rules", "-fexplicit"]

# The files GHDL is offered: what `dcqcn cosim --rtl surf` offers (crates/dcqcn-surf/src/ghdl/
# common.rs and tree.rs), the wrapper included.
SOURCE_DIRS = ["base", "axi", "protocols/ssi", "dsp/generic"]
SKIP_DIRS = {"sim", "tb", "xilinx", "altera", "ip_integrator"}
BASE_FILES = [
    "base/general/rtl/StdRtlPkg.vhd",
    "axi/axi-stream/rtl/AxiStreamPkg.vhd",
    "axi/axi-lite/rtl/AxiLitePkg.vhd",
    "axi/axi-stream/rtl/AxiStreamFifoV2.vhd",
    "axi/axi-stream/rtl/AxiStreamMon.vhd",
    "axi/axi-lite/ip_integrator/SlaveAxiLiteIpIntegrator.vhd",
]
BLOCK_FILES = [
    "ethernet/RoCEv2/rtl/RoCEv2Pkg.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2Dcqcn.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2RateDecProc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2RateIncProc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2TokenBucket.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2TokenCalc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2AxisBucket.vhd",
    WRAPPER_FILE,
]

# Three one-line defects, each planted in a copy of one block file: (name, file, a regular
# expression that must match exactly one code line of it, outside comments, its replacement,
# what the change does). Each moves Rc, alpha or the time of an update by far less than SURF's
# tolerance bands (Rc within 3 % of LINE_RATE/2, egress 0.20-0.30 beats per clock).
DEFECTS = [
    ("alpha-rounding", "ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd",
     r"(else\s*\n(?:.*\n){0,3}?\s*multRound\s*:=\s*mult)\s*\+\s*512", r"\1",
     "alpha's decay without its rounding constant: multRound := mult + 512 -> mult "
     "(the branch without a CNP)"),
    ("decrease-multiply", "ethernet/RoCEv2/rtl/RoCEv2RateDecProc.vhd",
     r"(v\.mult\s*:=\s*curRc\s*\*\s*)alpha\s*;", r"\1(alpha - 1);",
     "the rate decrease multiplies Rc by alpha - 1 instead of alpha (a cut 1/1023 smaller)"),
    ("decrease-timer", "ethernet/RoCEv2/rtl/RoCEv2RateDecProc.vhd",
     r"(if\s+r\.timer\s*)>=(\s*rateDecInterval\s+then)", r"\1>\2",
     "the decrease timer's period one cycle longer (timer >= interval -> timer > interval)"),
]


class BadInput(Exception):
    """Exit 2 with this one line."""


class HarnessError(Exception):
    """Exit 3 with this message."""


def check_python():
    """The Python packages the run needs, each named with how to get it."""
    need = [("cocotb", "pip install 'cocotb>=2'"),
            ("cocotbext.axi", "pip install cocotbext-axi (SURF's test module drives the bus with it)"),
            ("cocotb_test", "pip install cocotb-test (SURF's tests/common/regression_utils.py imports it)"),
            ("dcqcn_model", "make python")]
    for mod, how in need:
        try:
            found = importlib.util.find_spec(mod) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            raise BadInput(f"Python package `{mod}` is not installed: {how}")
    import cocotb
    if int(cocotb.__version__.split(".")[0]) < 2:
        raise BadInput(f"cocotb {cocotb.__version__} is installed; this bench needs cocotb 2 "
                       "(pip install 'cocotb>=2')")


def entity_ports(text):
    """Port names of the first entity in VHDL `text` (comments removed), lower case, in order."""
    src = "\n".join(line.split("--", 1)[0] for line in text.splitlines())
    m = re.search(r"\bentity\s+\w+\s+is\b(.*?)\bend\b", src, re.I | re.S)
    if not m:
        return []
    body = m.group(1)
    p = re.search(r"\bport\s*\(", body, re.I)
    if not p:
        return []
    depth, i = 1, p.end()
    start = i
    while i < len(body) and depth:
        depth += {"(": 1, ")": -1}.get(body[i], 0)
        i += 1
    names = []
    for decl in body[start:i - 1].split(";"):
        if ":" in decl:
            names += [n.strip().lower() for n in decl.split(":", 1)[0].split(",") if n.strip()]
    return names


def check_checkout(surf: Path):
    if not surf.exists():
        raise BadInput(f"SURF_DIR {surf}: no such directory")
    if not surf.is_dir():
        raise BadInput(f"SURF_DIR {surf}: not a directory")
    missing = [f for f in BASE_FILES if not (surf / f).is_file()]
    if missing:
        raise BadInput(f"SURF_DIR {surf}: not a SURF checkout: missing {', '.join(missing)}")
    missing = [f for f in BLOCK_FILES if not (surf / f).is_file()]
    if missing:
        raise BadInput(f"SURF_DIR {surf}: this SURF has no RoCEv2Dcqcn block: missing "
                       f"{', '.join(missing)}")
    if not (surf / TEST_FILE).is_file():
        raise BadInput(f"SURF_DIR {surf}: no SURF test module of the block: missing {TEST_FILE}")
    helpers = ["tests/axi/utils.py", "tests/common/regression_utils.py"]
    missing = [f for f in helpers if not (surf / f).is_file()]
    if missing:
        raise BadInput(f"SURF_DIR {surf}: {TEST_FILE} imports modules this checkout lacks: "
                       f"missing {', '.join(missing)}")
    try:
        from dcqcn_model import SURF_PORTS
    except ImportError:
        raise BadInput("Python package `dcqcn_model` is not installed: make python") from None
    got = entity_ports((surf / WRAPPER_FILE).read_text(errors="replace"))
    want = [p.lower() for p in SURF_PORTS]
    lost = [p for p in want if p not in got]
    extra = [p for p in got if p not in want]
    if lost or extra:
        parts = []
        if lost:
            parts.append("missing " + ", ".join(lost))
        if extra:
            parts.append("unexpected " + ", ".join(extra))
        raise BadInput(f"SURF_DIR {surf}: the ports of {WRAPPER_FILE} differ from the ones the "
                       f"scoreboard attaches to: {'; '.join(parts)}")


def sources(surf: Path, replace=None):
    """The VHDL files offered to GHDL; `replace` maps a block file to the copy to use instead."""
    out = []
    for d in SOURCE_DIRS:
        for root, dirs, files in os.walk(surf / d):
            dirs[:] = sorted(x for x in dirs if x.lower() not in SKIP_DIRS)
            out += [Path(root) / f for f in files if f.lower().endswith(".vhd")]
    out.append(surf / "axi/axi-lite/ip_integrator/SlaveAxiLiteIpIntegrator.vhd")
    for f in BLOCK_FILES:
        out.append((replace or {}).get(f, surf / f))
    return sorted(set(out))


def ghdl_path_dir(work: Path):
    """A folder with `ghdl` pointing at GHDL's LLVM back end when installed (about 1.6x the speed
    of mcode on the upstream block, docs/surf-lockstep.md), else none."""
    llvm = shutil.which("ghdl-llvm")
    if not llvm or os.environ.get("GHDL"):
        return None
    d = work / "bin"
    d.mkdir(parents=True, exist_ok=True)
    link = d / "ghdl"
    if not link.exists():
        link.symlink_to(llvm)
    return d


def build(surf: Path, build_dir: Path, replace=None):
    from cocotb_tools.runner import get_runner
    runner = get_runner("ghdl")
    log = build_dir / "build.log"
    build_dir.mkdir(parents=True, exist_ok=True)
    try:
        with open(log, "w") as f:
            saved = (os.dup(1), os.dup(2))
            os.dup2(f.fileno(), 1)
            os.dup2(f.fileno(), 2)
            try:
                runner.build(vhdl_sources=[str(p) for p in sources(surf, replace)],
                             hdl_library="surf", hdl_toplevel=TOPLEVEL,
                             build_args=GHDL_FLAGS, build_dir=str(build_dir), always=False)
            finally:
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
    except (SystemExit, Exception) as e:
        raise HarnessError(f"GHDL build of {surf} failed ({e}); log: {log}") from None
    return runner


def run_tests(runner, surf: Path, build_dir: Path, tests, results: Path, fail_fast: bool,
              label: str):
    """Each SURF test in its own simulation; returns the result records (one per test)."""
    results.unlink(missing_ok=True)
    # cocotb's runner sets the simulation's PYTHONPATH from this process's sys.path
    for p in (str(BENCH_DIR), str(surf)):
        if p not in sys.path:
            sys.path.insert(0, p)
    env = {
        "SURF_COCOTB_RESULTS": str(results),
        "SURF_COCOTB_FAIL_FAST": "1" if fail_fast else "0",
        "SURF_COCOTB_LABEL": label,
        "SURF_COCOTB_MODULE": TEST_MODULE,
    }
    for t in tests:
        t0 = time.time()
        log = build_dir / f"{t}.log"
        with open(log, "w") as f:
            saved = (os.dup(1), os.dup(2))
            os.dup2(f.fileno(), 1)
            os.dup2(f.fileno(), 2)
            try:
                runner.test(test_module=WRAPPER_MODULE, hdl_toplevel=TOPLEVEL,
                            hdl_toplevel_library="surf", hdl_toplevel_lang="vhdl",
                            test_args=GHDL_FLAGS, build_dir=str(build_dir),
                            test_dir=str(build_dir), extra_env=env, testcase=t,
                            results_xml=f"{t}.xml")
            except (SystemExit, Exception):
                pass  # the verdict is read from the results file below
            finally:
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
        got = [r for r in read_results(results) if r["test"] == t]
        if not got:
            raise HarnessError(f"{label}: test {t} left no result (simulation log: {log})")
        r = got[-1]
        r["seconds"] = time.time() - t0
        r["log"] = str(log)
        yield r


def read_results(path: Path):
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def surf_tests(surf: Path):
    """The cocotb tests of SURF's module, by name, in file order (read from its source)."""
    text = (surf / TEST_FILE).read_text(errors="replace")
    return re.findall(r"@cocotb\.test\([^)]*\)\s*\n\s*async\s+def\s+(\w+)", text)


def plant(surf: Path, work: Path, name: str):
    """A copy of the defect's block file with its one line changed, under work/defects/<name>/;
    returns (block file, copy, the line before, the line after)."""
    _, rel, pattern, repl, _ = next(d for d in DEFECTS if d[0] == name)
    text = (surf / rel).read_text()
    # comments blanked (same length) so that a commented-out line cannot match
    code = re.sub(r"--[^\n]*", lambda m: " " * len(m.group(0)), text)
    found = list(re.finditer(pattern, code))
    if len(found) != 1:
        raise HarnessError(f"defect {name}: expected one place to change in {rel}, found "
                           f"{len(found)}: this block version differs from the one the defects "
                           "were written for")
    m = found[0]
    # the groups as the file has them (the match ran on the text with comments blanked)
    groups = [text[m.start(g):m.end(g)] for g in range(1, (m.re.groups or 0) + 1)]
    sub = re.sub(r"\\(\d)", lambda g: groups[int(g.group(1)) - 1], repl)
    new = text[:m.start()] + sub + text[m.end():]
    old_lines, new_lines = text.splitlines(), new.splitlines()
    changed = [i for i, (x, y) in enumerate(zip(old_lines, new_lines)) if x != y]
    if len(old_lines) != len(new_lines) or len(changed) != 1:
        raise HarnessError(f"defect {name}: the change to {rel} is not one line")
    i = changed[0]
    d = work / "defects" / name
    d.mkdir(parents=True, exist_ok=True)
    copy = d / Path(rel).name
    copy.write_text(new)
    return rel, copy, f"line {i + 1}: {old_lines[i].strip()}", new_lines[i].strip()


def verdicts(records):
    surf = "; ".join(f"{r['test']}: " + ("pass" if r["surf"] == "pass" else "FAIL")
                     for r in records)
    sb = []
    for r in records:
        if r["scoreboard"] == "pass":
            sb.append(f"{r['test']}: pass ({r['cycles']:,} cycles)")
        else:
            sb.append(f"{r['test']}: MISMATCH cycle {r['mismatch_cycle']} "
                      f"({', '.join(r['mismatch_fields'])})")
    return surf, "; ".join(sb)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--surf-dir", required=True, type=Path)
    ap.add_argument("--work", type=Path, default=REPO / "target" / "surf-cocotb")
    ap.add_argument("--defects", action="store_true",
                    help="the three planted defects and the unmodified block, both verdicts")
    ap.add_argument("--test", action="append", help="only this SURF test (repeatable)")
    ap.add_argument("--case", action="append",
                    help="with --defects: only this case (none or a defect name; repeatable)")
    args = ap.parse_args()
    surf = args.surf_dir.resolve() if args.surf_dir.exists() else args.surf_dir
    try:
        check_checkout(surf)
        check_python()
        if shutil.which("ghdl") is None:
            raise BadInput("GHDL not found: install it with scripts/deps.sh")
        tests = surf_tests(surf)
        if not tests:
            raise BadInput(f"SURF_DIR {surf}: {TEST_FILE} has no @cocotb.test() coroutine")
        if args.test:
            unknown = [t for t in args.test if t not in tests]
            if unknown:
                raise BadInput(f"--test {', '.join(unknown)}: not a test of {TEST_FILE} "
                               f"(it has {', '.join(tests)})")
            tests = args.test
        work = args.work.resolve()
        gdir = ghdl_path_dir(work)
        if gdir:
            os.environ["PATH"] = f"{gdir}{os.pathsep}{os.environ['PATH']}"
        if not args.defects:
            return plain(surf, work, tests)
        cases = ["none"] + [d[0] for d in DEFECTS]
        unknown = [c for c in args.case or [] if c not in cases]
        if unknown:
            raise BadInput(f"--case {', '.join(unknown)}: not one of {', '.join(cases)}")
        return defects(surf, work, tests, args.case or cases)
    except BadInput as e:
        print(f"surf-cocotb: {e}", file=sys.stderr)
        return 2
    except HarnessError as e:
        print(f"surf-cocotb: {e}", file=sys.stderr)
        return 3


def plain(surf, work, tests):
    build_dir = work / "checkout"
    print(f"surf-cocotb: building {surf} with GHDL under {build_dir}", flush=True)
    runner = build(surf, build_dir)
    failed = 0
    total = 0
    for r in run_tests(runner, surf, build_dir, tests, build_dir / "results.jsonl", True,
                       "checkout"):
        total += r["cycles"]
        if r["surf"] == "pass" and r["scoreboard"] == "pass":
            print(f"{r['test']}: SURF's assertions pass; scoreboard: 0 mismatches, "
                  f"{r['cycles']:,} cycles compared ({r['seconds']:.0f} s)", flush=True)
        else:
            failed += 1
            if r["scoreboard"] != "pass":
                print(r["report"], end="", file=sys.stderr)
            print(f"{r['test']}: SURF's assertions: {r['surf']}; scoreboard: "
                  f"{r['scoreboard']} (log: {r['log']})", flush=True)
    print(f"surf-cocotb: {len(tests)} tests, {total:,} cycles compared, "
          f"{'0 mismatches' if not failed else f'{failed} failed'}")
    return 1 if failed else 0


def defects(surf, work, tests, only):
    rows = []
    ok = True
    cases = [("none (unmodified checkout)", None)] + [(d[0], d) for d in DEFECTS]
    cases = [c for c in cases if (c[1][0] if c[1] else "none") in only]
    for label, d in cases:
        if d is None:
            replace, line = None, "-"
            build_dir = work / "checkout"
            key = "checkout"
        else:
            rel, copy, before, after = plant(surf, work, d[0])
            replace = {rel: copy}
            line = f"`{Path(rel).name}`: `{before}` -> `{after}`"
            build_dir = work / "defects" / d[0] / "build"
            key = d[0]
        print(f"surf-cocotb: {label}: building", flush=True)
        runner = build(surf, build_dir, replace)
        recs = list(run_tests(runner, surf, build_dir, tests, build_dir / "results.jsonl",
                              False, key))
        sv, bv = verdicts(recs)
        surf_pass = all(r["surf"] == "pass" for r in recs)
        sb_pass = all(r["scoreboard"] == "pass" for r in recs)
        ok &= surf_pass and (sb_pass if d is None else not sb_pass)
        rows.append((label, line, sv, bv))
        print(f"  SURF's assertions: {sv}\n  scoreboard: {bv}", flush=True)
        for r in recs:
            if r["scoreboard"] != "pass":
                (build_dir / f"{r['test']}.mismatch.txt").write_text(r["report"])
    table = ["| defect | line changed | SURF's verdict | scoreboard's verdict and cycle |",
             "|---|---|---|---|"]
    table += [f"| {a} | {b} | {c} | {e} |" for a, b, c, e in rows]
    text = "\n".join(table) + "\n"
    (work / "defects.md").write_text(text)
    print(text)
    print(f"surf-cocotb: table written to {work / 'defects.md'}; "
          f"{'as expected' if ok else 'NOT as expected'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
