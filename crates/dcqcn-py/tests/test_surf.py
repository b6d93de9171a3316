"""SurfModel (the upstream SURF block's model, crate dcqcn-surf) held to the sets recorded from
upstream's VHDL in GHDL (golden/surf/, docs/surf-lockstep.md): every input of every cycle into
SurfModel.run, and every output port (the m_axis payload where m_axis_tvalid is 1, as recorded)
and Rc, Rt, alpha and the CNP count register after every edge compared with the recording, as
crates/dcqcn-surf/tests/golden.rs does in Rust. No SURF checkout or GHDL needed. Then the calls
SurfModel shares with Model (step, write, read, state, events) and its comparison and report.
"""

import pathlib
import sys

import numpy as np
import pytest

import dcqcn_model as dm

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "testbench" / "cocotb"))
import golden_reader  # noqa: E402

SETS = sorted(p.parent for p in (ROOT / "golden" / "surf").glob("*/vectors.txt"))
SURF_FORMAT = "dcqcn-golden-surf 1"


class SurfVectors(golden_reader.GoldenVectors):
    """The golden reader on the upstream format: the same records, its own header (line 1
    `dcqcn-golden-surf 1`, the fields as `f <k> <in|out|st> <width> <name>` lines)."""

    def _parse_header(self, data_bytes):
        rec = self._records()
        n, line = next(rec)
        if line != SURF_FORMAT:
            self._fail(n, f"`{line}` is not `{SURF_FORMAT}`")
        n, line = next(rec)
        self.data_bytes = int(line.split(" ")[1])
        n, line = next(rec)
        count = int(line.split(" ")[1])
        self.fields = []
        for k in range(count):
            n, line = next(rec)
            t = line.split(" ")
            if len(t) != 5 or t[0] != "f" or int(t[1]) != k:
                self._fail(n, f"`{line}`: expected `f {k} <dir> <width> <name>`")
            self.fields.append((t[4], t[2], int(t[3])))
        self._body = rec


def words(values):
    return np.array([[(int(v) >> (64 * w)) & (2**64 - 1) for w in range(4)] for v in values],
                    dtype=np.uint64)


@pytest.mark.parametrize("set_dir", SETS, ids=lambda p: p.name)
def test_recorded_set(set_dir):
    vec = SurfVectors(set_dir / "vectors.txt")
    rows = np.array([list(v) for _, v in vec.cycles()], dtype=object)
    n = len(rows)
    col = {name: k for k, (name, _, _) in enumerate(vec.fields)}
    stim = {}
    for name, d, _ in vec.fields:
        if d == "in":
            c = rows[:, col[name]]
            stim[name] = words(c) if name == "s_axis_tdata" else c.astype(np.uint64)
    got = dm.SurfModel().run(n, stim, record=dm.SURF_FIELDS)
    recorded = [name for name, d, _ in vec.fields if d != "in"]
    assert recorded == dm.SURF_FIELDS
    valid = rows[:, col["m_axis_tvalid"]].astype(bool)
    for name, d, _ in vec.fields:
        if d == "in":
            continue
        want = rows[:, col[name]]
        have = got[name]
        if name == "m_axis_tdata":
            want = words(want)
        else:
            want, have = want.astype(np.uint64), have.astype(np.uint64)
        if name in ("m_axis_tdata", "m_axis_tkeep", "m_axis_tlast"):
            # recorded as 0 where m_axis_tvalid is 0 (upstream leaves the payload undefined)
            zero = np.zeros_like(have)
            have = np.where(valid.reshape((n,) + (1,) * (have.ndim - 1)), have, zero)
        differs = (want != have).reshape(n, -1).any(axis=1)
        if d == "out":
            differs[0] = False  # cycle 0: power-up values (neither lockstep compares them)
        bad = np.nonzero(differs)[0]
        assert bad.size == 0, (f"{set_dir.name}: cycle {bad[0]} field {name}: recorded "
                               f"{want[bad[0]]}, SurfModel gives {have[bad[0]]}")


def test_every_recorded_set_is_replayed():
    assert len(SETS) == 10


def test_step_matches_run_and_shares_the_model_calls():
    a, b = dm.SurfModel(), dm.SurfModel()
    n = 800  # the cut comes at the decrease timer's next period (Nd + 3 = 628 cycles)
    cnp = np.zeros(n, dtype=np.uint8)
    cnp[40] = 1
    rst = np.zeros(n, dtype=bool)
    rst[:8] = True
    res = a.run(n, {"rst": rst, "cnp": cnp, "m_axis_tready": 1, "s_axis_tvalid": 1,
                      "s_axis_tlast": 1, "s_axis_tkeep": 0xFFFF_FFFF},
                record=["rc", "alpha", "cnp_cnt", "m_axis_tvalid", "cnp_edge"])
    for k in range(n):
        out = b.step(rst=int(rst[k]), cnp=int(cnp[k]), m_axis_tready=1, s_axis_tvalid=1,
                     s_axis_tlast=1, s_axis_tkeep=0xFFFF_FFFF)
        assert out["m_axis_tvalid"] == res["m_axis_tvalid"][k]
        assert b.state["rc"] == res["rc"][k]
        assert b.state["cnp_cnt"] == res["cnp_cnt"][k]
        assert b.events["cnp_edge"] == res["cnp_edge"][k]
    assert a.cycle == b.cycle == n
    # one CNP: the edge three cycles after the pin, counted once, Rc cut about in half
    assert res["cnp_edge"].sum() == 1 and int(np.argmax(res["cnp_edge"])) == 43
    assert b.state["cnp_cnt"] == 1
    assert 0.49 < b.state["rc"] / dm.SurfModel().line_rate < 0.51
    # the bus: upstream's map, byte addresses
    assert b.write(0x010, 1234) == 0
    assert b.read(0x010) == (1234, 0)
    assert b.state["inc_interval"] == 1234
    assert b.read(0x018)[0] == b.state["rc"]


def test_bad_input_names_the_port():
    s = dm.SurfModel()
    with pytest.raises(dm.InputError, match="s_axis_tkeep"):
        s.step(s_axis_tkeep=1 << 32)
    with pytest.raises(dm.InputError, match="unknown input port `nope`"):
        s.step(nope=1)
    with pytest.raises(dm.InputError, match="s_axil_awaddr"):
        s.step(s_axil_awaddr=0x10000)
    with pytest.raises(dm.InputError, match=r"`cnp`\[2\]: 0x2 does not fit the 1-bit port"):
        s.run(3, {"cnp": np.array([0, 1, 2])})
    with pytest.raises(dm.InputError, match="unknown field"):
        s.run(1, record=["nope"])
    assert s.cycle == 0  # a refused call steps nothing


def test_diff_follows_the_upstream_lockstep_rules():
    s = dm.SurfModel()
    s.step(rst=1)
    snap = s.snapshot()
    assert s.diff(snap) == []
    # the payload is not compared while the DUT's m_axis_tvalid is 0
    assert s.diff(dict(snap, m_axis_tvalid=0, m_axis_tdata=123, m_axis_tkeep=5)) == []
    assert s.diff(dict(snap, m_axis_tvalid=1, m_axis_tdata=123)) == ["m_axis_tvalid", "m_axis_tdata"]
    assert s.diff(dict(snap, rc=snap["rc"] + 1, alpha=None)) == ["rc", "alpha"]
    rep = s.report(dict(snap, rc=snap["rc"] + 1), scenario="t", variant="surf x", replay="r")
    assert rep.startswith("MISMATCH at cycle 0 (t = 0.000 us), scenario t, seed 0, RTL variant "
                          "surf x (32 B beats)\n")
    assert "  rc     st" in rep and "4a817c80 1250000000" in rep and "4a817c81 1250000001" in rep
    assert "last cycles (inputs | model outputs):" in rep
    assert rep.endswith("configuration: upstream writes []\nreplay: r\n")
