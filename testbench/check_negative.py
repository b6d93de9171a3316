#!/usr/bin/env python3
"""Proof that every golden-vector reader fails when it should.

From one canonical set it writes damaged copies under target/golden-negative/ and runs every
testbench (and `dcqcn golden verify`) on each. Each damaged copy must fail with the expected
message; the undamaged copy must pass everywhere (so the failures come from the damage):

    intact           a plain copy                                     -> PASS everywhere
    expected-value   one expected register value changed, the CRC     -> MISMATCH ... field rc
                     recomputed (a wrong or stale vector, not a corrupt file)
    flipped-digit    one digit changed, CRC left as it was            -> checksum mismatch, naming the end line
    truncated        the file cut in the middle                       -> truncated
    wrong-version    `dcqcn-golden 2`, CRC recomputed                 -> format version, line 1
    beat-width       an 8-byte set replayed on the 32-byte RTL        -> beat-width mismatch, naming the line
    manifest-clock   intact vectors, manifest.txt says clk_hz         -> MISMATCH ... field bpc (the
                     125000000 (runners that read the manifest's        DUT was built with the
                     rates; verify: the manifest no longer matches)     manifest's clock)

The multi-QP block's readers (tb_golden_mq.sv on Verilator and Icarus, tb_golden_mq.vhd on GHDL and
the VHDL twin, and `dcqcn golden verify`) get the same damage on one of its sets (golden/mq-*/, block
dcqcn_mq; cases prefixed mq-): expected-value changes an expected m_grant_qp, qps-mismatch replays
the QPS 4 vectors on the DUT built with QPS 8 (`qps mismatch`, naming the header line), and
manifest-clock holds for every mq runner (each builds dcqcn_mq with the manifest's clock).

Runners: sv-verilator, sv-icarus (testbench/sv/run.sh), cocotb (Verilator) and cocotb-ghdl (GHDL on
the VHDL twin) (testbench/cocotb), vhdl (testbench/vhdl/run.sh on the netlist of the SV), vhdl-twin
(the same on the VHDL twin, HDL=vhdl), verify (`dcqcn golden verify`).

    python3 testbench/check_negative.py \
        [--only sv-verilator,sv-icarus,cocotb,cocotb-ghdl,vhdl,vhdl-twin,verify] [--block all|rl|mq]
"""

import argparse
import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "golden" / "fuzz-mutant-inc-timer-late"
BASE_MQ = ROOT / "golden" / "mq-cnp-storm-q4"
OUT = ROOT / "target" / "golden-negative"
# The runners that replay the multi-QP block's sets (the others SKIP them or do not know them).
MQ_RUNNERS = {"sv-verilator", "sv-icarus", "vhdl-twin", "verify"}



def _cocotb(hdl):
    """The cocotb run (testbench/cocotb) on one HDL: sv (Verilator) or vhdl (GHDL, VHDL twin)."""
    def cmd(d, env):
        env = {k: v for k, v in env.items() if k != "GOLDEN_SETS_VHDL"}
        return ([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
                 "testbench/cocotb"], {**env, "GOLDEN_SETS": str(d), "COCOTB_HDL": hdl})
    return cmd


RUNNERS = {
    "sv-verilator": lambda d, env: (["testbench/sv/run.sh", "verilator", str(d)], env),
    "sv-icarus": lambda d, env: (["testbench/sv/run.sh", "icarus", str(d)], env),
    "cocotb": _cocotb("sv"),
    "cocotb-ghdl": _cocotb("vhdl"),
    "vhdl": lambda d, env: (["testbench/vhdl/run.sh", str(d)], env),
    "vhdl-twin": lambda d, env: (["testbench/vhdl/run.sh", str(d)], {**env, "HDL": "vhdl"}),
    "verify": lambda d, env: (["target/release/dcqcn", "golden", "verify", str(d)], env),
}
# Runners that take CLK_FREQ_HZ / LINE_RATE from the set's manifest.txt (testbench/sv/run.sh builds
# the RTL defaults whatever the manifest says).
READS_MANIFEST_RATES = {"cocotb", "cocotb-ghdl", "vhdl", "vhdl-twin"}


def split(text):
    lines = text.split("\n")[:-1]
    return lines[:-1], lines[-1]


def seal(body_lines, cycles):
    body = "".join(l + "\n" for l in body_lines)
    return body + f"end {cycles} {zlib.crc32(body.encode()):08x}\n"


def make_cases(base=BASE, mq=False):
    """The damaged copies of `base`: a single-flow set, or (mq) a multi-QP one, whose cases are
    named mq-<case> and whose block-specific cases differ (see the module's docstring)."""
    prefix = "mq-" if mq else ""
    text = (base / "vectors.txt").read_text()
    body, end = split(text)
    cycles = int(end.split()[1])
    cases = {}

    def write(name, content, manifest=True):
        d = OUT / (prefix + name)
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        (d / "vectors.txt").write_text(content)
        for f in ("manifest.txt", "config.txt", "case.json"):
            if manifest and (base / f).exists():
                shutil.copy(base / f, d / f)
        return d

    def case(name, content, env, expect):
        cases[prefix + name] = (content, env, expect)

    case("intact", write("intact", text), {}, None)

    # The first template that sets field 32 (rc; mq: 20, m_grant_qp): change its last digit.
    rc, rc_name = (20, "m_grant_qp") if mq else (32, "rc")
    for n, l in enumerate(body):
        t = l.split(" ")
        if t[0] == "t" and str(rc) in t[3::2]:
            pos = 3 + 2 * t[3::2].index(str(rc)) + 1
            d = t[pos]
            t[pos] = d[:-1] + ("1" if d[-1] != "1" else "2")
            changed = body[:n] + [" ".join(t)] + body[n + 1:]
            break
    else:
        raise SystemExit(f"{base}: no template sets {rc_name}")
    case("expected-value", write("expected-value", seal(changed, cycles)), {},
         ["MISMATCH", f"field {rc_name}"])

    # A digit of a `c`/`r` record flipped, the end line kept: the checksum must catch it.
    for n in range(len(body) - 1, 0, -1):
        if body[n].startswith(("c ", "r ")):
            l = body[n]
            flipped = l[:-1] + ("1" if l[-1] != "1" else "2")
            bad = body[:n] + [flipped] + body[n + 1:]
            break
    content = "".join(l + "\n" for l in bad) + end + "\n"
    end_line = len(bad) + 1
    case("flipped-digit", write("flipped-digit", content), {},
         ["checksum mismatch", f"vectors.txt:{end_line}:"])

    case("truncated", write("truncated", text[: len(text) // 2]), {}, ["truncated"])

    magic = body[0].rsplit(" ", 1)[0]
    v2 = [f"{magic} 2"] + body[1:]
    case("wrong-version", write("wrong-version", seal(v2, cycles)), {}, ["version", "vectors.txt:1:"])

    if mq:
        # the QPS 4 vectors on the DUT built with QPS 8: the header's qps line is refused
        qps_line = next(n for n, l in enumerate(body) if l.startswith("qps ")) + 1
        case("qps-mismatch", write("qps-mismatch", text), {"RTL_QPS": "8"},
             ["qps mismatch", f"vectors.txt:{qps_line}:"])
    else:
        db_line = next(n for n, l in enumerate(body) if l.startswith("data_bytes ")) + 1
        case("beat-width", write("beat-width", text), {"RTL_DATA_BYTES": "32"},
             ["beat-width mismatch", f"vectors.txt:{db_line}:"])

    # The intact vectors with a manifest that says another clock: a runner that builds the DUT
    # with the manifest's CLK_FREQ_HZ gets another bytes-per-cycle from the first cycle on.
    d = write("manifest-clock", text)
    m = (d / "manifest.txt").read_text()
    assert "\nclk_hz 156250000\n" in m, f"{base}/manifest.txt: no default clk_hz line"
    (d / "manifest.txt").write_text(m.replace("\nclk_hz 156250000\n", "\nclk_hz 125000000\n"))
    # (mq: the rates set the line window and the timers, so some output differs; which one first
    # depends on the set)
    case("manifest-clock", d, {}, ["MISMATCH"] if mq else ["MISMATCH", "field bpc"])
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=",".join(RUNNERS))
    ap.add_argument("--block", choices=["all", "rl", "mq"], default="all",
                    help="damage a set of dcqcn_rl, of dcqcn_mq, or of both (default)")
    args = ap.parse_args()
    runners = [r for r in args.only.split(",") if r]
    cases = make_cases() if args.block != "mq" else {}
    if args.block != "rl":
        cases.update(make_cases(BASE_MQ, mq=True))
    failures = 0
    for case, (d, extra_env, expect) in cases.items():
        mq = case.startswith("mq-")
        for r in runners:
            if mq and r not in MQ_RUNNERS:
                continue  # no reader of the multi-QP block's sets
            if r == "verify" and case in ("beat-width", "mq-qps-mismatch"):
                continue  # the model has no RTL width or QPS to disagree with
            if (case == "manifest-clock" and r not in READS_MANIFEST_RATES | {"verify"}):
                continue  # builds the default clock whatever the manifest says
            cmd, env = RUNNERS[r](d, {**os.environ, **extra_env})
            p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
            out = p.stdout + p.stderr
            if expect is None:
                ok = p.returncode == 0
                want = "pass"
            elif r == "verify":
                # verify checks the manifest first: every damaged copy no longer matches it.
                ok = p.returncode != 0 and "manifest.txt" in out
                want = "fail naming manifest.txt"
            else:
                ok = p.returncode != 0 and all(s in out for s in expect)
                want = "fail with " + " + ".join(repr(s) for s in expect)
            shown = [l.strip() for l in out.splitlines()
                     if "raise " not in l and "_fail(" not in l and "Running command" not in l]
            line = next((l for l in shown if all(s in l for s in (expect or ["PASS"]))),
                        next((l for l in shown if any(s in l for s in (expect or ["PASS", "ok "]))),
                             ""))
            print(f"{'ok  ' if ok else 'BAD '} {case:<18} {r:<13} {want}: {line[:150]}")
            if not ok:
                failures += 1
                print("\n".join("      " + l for l in out.splitlines()[-15:]))
    if failures:
        print(f"{failures} reader(s) did not fail as they should")
        return 1
    print("every reader passes the intact set and rejects each damaged one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
