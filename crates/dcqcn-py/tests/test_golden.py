"""The golden vector sets under golden/ replayed through the Python package: every input of every
cycle into Model.run, every output and spec-7 register compared with the set's expected values.
The sets were written by `dcqcn golden gen` from the Rust model (docs/golden-format.md); this holds
the package to them, and reads them with the testbenches' own reader (testbench/cocotb).

Default: a subset that covers every beat width and the register bus (seconds); GOLDEN_PY_SETS=all
(or a list of set folders) replays more.
"""

import os
import pathlib
import sys

import numpy as np
import pytest

import dcqcn_model as dm

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "testbench" / "cocotb"))
from golden_reader import GoldenVectors  # noqa: E402

DEFAULT = ["fuzz-mutant-pending-set-loses", "fuzz-mutant-cnp-edge-early", "regs-decerr", "base-absent",
           "random-frames-64b", "trigger-collisions"]


def _sets():
    env = os.environ.get("GOLDEN_PY_SETS")
    if env == "all":
        return sorted(p.parent for p in (ROOT / "golden").glob("*/vectors.txt"))
    if env:
        return [pathlib.Path(p) for p in env.split()]
    return [ROOT / "golden" / s for s in DEFAULT]


def _manifest(set_dir):
    vals = {}
    for line in (set_dir / "manifest.txt").read_text().splitlines():
        t = line.split(" ", 1)
        if len(t) == 2:
            vals[t[0]] = t[1]
    # the configuration the set was recorded on: the first of its `builds` (spec 2; full without)
    features = vals.get("builds", "full").split()[0]
    return int(vals["clk_hz"]), int(vals["line_rate_bytes_per_s"]), features


def load(set_dir):
    vec = GoldenVectors(set_dir / "vectors.txt")
    rows = np.array([list(v) for _, v in vec.cycles()], dtype=object)
    return vec, rows


@pytest.mark.parametrize("set_dir", _sets(), ids=lambda p: p.name)
def test_golden_set(set_dir):
    vec, rows = load(set_dir)
    n = len(rows)
    db = vec.data_bytes
    words = (db + 7) // 8
    clk, line_rate, features = _manifest(set_dir)
    col = {name: k for k, (name, _, _) in enumerate(vec.fields)}

    def beats(values):
        return np.array([[(int(v) >> (64 * w)) & (2**64 - 1) for w in range(words)] for v in values],
                        dtype=np.uint64)

    stim = {}
    for name, d, _ in vec.fields:
        if d == "in":
            c = rows[:, col[name]]
            stim[name] = beats(c) if name == "s_axis_tdata" else c.astype(np.uint64)
    m = dm.Model(data_bytes=db, clk_hz=clk, line_rate=line_rate, features=features)
    got = m.run(n, stim, record=dm.FIELDS)
    compared = 0
    for name, d, _ in vec.fields:
        if d == "in":
            continue
        want = rows[:, col[name]]
        have = got[name]
        if name == "m_axis_tdata":
            want, have = beats(want), have
        else:
            want = want.astype(np.uint64)
            have = have.astype(np.uint64)
        if d == "out":  # outputs before the first edge are undefined in the RTL: not in the vectors' contract
            want, have = want[1:], have[1:]
        bad = np.nonzero((want != have).reshape(len(want), -1).any(axis=1))[0]
        assert bad.size == 0, (f"{set_dir.name}: cycle {bad[0] + (d == 'out')} field {name}: "
                               f"expected {want[bad[0]]} got {have[bad[0]]}")
        compared += 1
    # Golden format 1 holds every field of the comparison record up to `bytes_hi`; the extension
    # rate-rule and control-scheme registers after it (0x150-0x160) are not in the vectors. They must be exactly the
    # fields left out, and keep their reset values (spec 6.2) in every cycle of a format-1 set.
    names = [name for name, d, _ in vec.fields if d != "in"]
    left_out = [f for f in dm.FIELDS if f not in names]
    assert left_out == dm.FIELDS[dm.FIELDS.index("bytes_hi") + 1:]
    assert compared == len(dm.FIELDS) - len(left_out)
    # a fresh model's first cycle holds the reset values
    reset = dm.Model(data_bytes=db, clk_hz=clk, line_rate=line_rate).run(1, {}, record=left_out)
    for name in left_out:
        assert (got[name].astype(np.uint64) == np.uint64(reset[name][0])).all(), \
            f"{set_dir.name}: {name} left its reset value"
