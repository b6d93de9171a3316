#!/usr/bin/env python3
"""Prove the SystemVerilog of the work tree equal to the SystemVerilog at a git revision.

For a change that must not change behaviour (an area saving, a restructuring): Yosys builds both
designs (flattened, `chparam` generics applied to both), pairs their nets by name (`equiv_make`),
and proves every pair with `equiv_simple` and `equiv_induct`: every register's next state and every
output. A net that keeps its name but changes its meaning (a result now taken before a clamp) is
named with --unpair; it is then not a pair, and the logic behind it is proven through the pairs
downstream of it.

    python3 scripts/equiv_rev.py --rev 08082cf --set TRACE_DEPTH=0 --unpair rc_dec ...

make formal-rev REV=<rev> runs it with the settings of the last area change (Makefile).
Exit: 0 proven; 1 not proven (the unproven nets are listed); 2 bad arguments; 3 a tool failed.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", required=True, help="the git revision whose rtl/*.sv is the reference")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a generic of dcqcn_rl on both sides (repeatable)")
    ap.add_argument("--unpair", action="append", default=[], metavar="NET",
                    help="a net whose meaning changed: not paired (repeatable)")
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "formal-rev")
    ap.add_argument("--yosys", default="yosys")
    args = ap.parse_args()

    sets = []
    for s in args.set:
        m = re.fullmatch(r"([A-Z_][A-Z0-9_]*)=([0-9]+)", s)
        if not m:
            print(f"equiv_rev.py: --set {s}: use NAME=INTEGER", file=sys.stderr)
            sys.exit(2)
        sets.append(m.groups())
    for n in args.unpair:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", n):
            print(f"equiv_rev.py: --unpair {n}: not a net name", file=sys.stderr)
            sys.exit(2)

    rev = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.rev}^{{commit}}"],
                         cwd=ROOT, capture_output=True, text=True)
    if rev.returncode != 0:
        print(f"equiv_rev.py: --rev {args.rev}: not a commit of this repository", file=sys.stderr)
        sys.exit(2)
    commit = rev.stdout.strip()

    # the reference's rtl/ files (*.sv and the included *.svh), from git, under the work directory
    ref = args.work / commit[:12]
    ref.mkdir(parents=True, exist_ok=True)
    names = subprocess.run(["git", "ls-tree", "--name-only", commit, "rtl/"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    names = [n for n in names if n.endswith((".sv", ".svh"))]
    for n in names:
        blob = subprocess.run(["git", "show", f"{commit}:{n}"], cwd=ROOT, capture_output=True, check=True).stdout
        (ref / Path(n).name).write_bytes(blob)

    def read(d, files):
        chparam = "".join(f"chparam -set {k} {v} dcqcn_rl\n" for k, v in sets)
        return (f"read_verilog -sv -I{d} {' '.join(str(d / f) for f in files)}\n{chparam}"
                "hierarchy -top dcqcn_rl\nproc; flatten; memory_map; opt_clean\n")

    gold = sorted(Path(n).name for n in names if n.endswith(".sv"))
    gate = sorted(p.name for p in (ROOT / "rtl").glob("*.sv"))
    black = args.work / "unpair.txt"
    black.write_text("".join(f"{n}\n" for n in args.unpair))
    script = args.work / "equiv.ys"
    script.write_text(
        read(ref, gold) + "rename dcqcn_rl gold\ndesign -stash gold\n"
        + read(ROOT / "rtl", gate) + "rename dcqcn_rl gate\ndesign -stash gate\n"
        + "design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n"
        + f"equiv_make -blacklist {black} gold gate equiv\nhierarchy -top equiv\nasync2sync\n"
        + "equiv_struct\nequiv_simple\nequiv_induct\nequiv_status\n")
    log = args.work / "equiv.log"
    try:
        p = subprocess.run([args.yosys, "-q", "-l", str(log), str(script)], cwd=ROOT,
                           capture_output=True, text=True)
    except FileNotFoundError:
        print(f"equiv_rev.py: {args.yosys} not found; run 'make deps'", file=sys.stderr)
        sys.exit(3)
    if p.returncode != 0:
        print(f"equiv_rev.py: yosys failed (log: {log}):\n{p.stderr.strip()}", file=sys.stderr)
        sys.exit(3)
    text = log.read_text(errors="replace")
    m = re.findall(r"Of those cells (\d+) are proven and (\d+) are unproven", text)
    if not m:
        print(f"equiv_rev.py: no equiv_status in {log}", file=sys.stderr)
        sys.exit(3)
    proven, unproven = map(int, m[-1])
    what = f"rtl/*.sv against {args.rev} ({commit[:12]})" + (f", {' '.join(args.set)}" if args.set else "")
    if unproven or proven == 0:
        nets = sorted(set(re.findall(r"Unproven \$equiv \S+: \\(\S+?)_gold\b", text)))
        print(f"equiv_rev: {what}: NOT PROVEN: {proven} pairs proven, {unproven} unproven: "
              f"{', '.join(nets) or '(none listed)'} (log: {log})")
        sys.exit(1)
    print(f"equiv_rev: {what}: PROVEN ({proven} pairs; {len(args.unpair)} nets unpaired: "
          f"{' '.join(args.unpair) or 'none'})")


if __name__ == "__main__":
    main()
