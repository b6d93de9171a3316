"""The Python package against the model's own contract: run() is step() in bulk, the register
helpers go through the AXI4-Lite port, configurations and errors are those of the `dcqcn` CLI."""

import pathlib
import subprocess
import typing

import numpy as np
import pytest

import dcqcn_model as dm
from dcqcn_model import _types

ROOT = pathlib.Path(__file__).resolve().parents[3]


def random_stimulus(n, data_bytes, seed):
    """Traffic, back-pressure, CNP pulses, resets and register traffic on every port."""
    rng = np.random.default_rng(seed)
    words = (data_bytes + 7) // 8
    keep_full = (1 << data_bytes) - 1
    regs = np.array([a for a, _, _ in dm.REGISTER_MAP] + [0x028, 0x11C], dtype=np.uint64)
    tdata = rng.integers(0, 1 << 63, size=(n, words), dtype=np.uint64)
    if data_bytes % 8:
        tdata[:, -1] &= np.uint64((1 << (8 * (data_bytes % 8))) - 1)
    return {
        "rst": (rng.random(n) < 0.0005).astype(np.uint8),
        "cnp": ((np.arange(n) // 37) % 11 == 0).astype(np.uint8),
        "s_axis_tdata": tdata,
        "s_axis_tkeep": np.where(rng.random(n) < 0.8, keep_full,
                                 rng.integers(0, keep_full + 1, n, dtype=np.uint64)).astype(np.uint64),
        "s_axis_tvalid": (rng.random(n) < 0.9).astype(np.uint8),
        "s_axis_tlast": (rng.random(n) < 0.1).astype(np.uint8),
        "m_axis_tready": (rng.random(n) < 0.85).astype(np.uint8),
        "s_axil_awaddr": rng.choice(regs, n),
        "s_axil_awvalid": (rng.random(n) < 0.02).astype(np.uint8),
        "s_axil_wdata": rng.integers(0, 1 << 32, n, dtype=np.uint64),
        "s_axil_wstrb": rng.integers(0, 16, n, dtype=np.uint64),
        "s_axil_wvalid": (rng.random(n) < 0.03).astype(np.uint8),
        "s_axil_bready": (rng.random(n) < 0.5).astype(np.uint8),
        "s_axil_araddr": rng.choice(regs, n),
        "s_axil_arvalid": (rng.random(n) < 0.05).astype(np.uint8),
        "s_axil_rready": (rng.random(n) < 0.5).astype(np.uint8),
    }


@pytest.mark.parametrize("data_bytes,config", [(8, "paper-table2"), (3, None), (64, "upstream-reset")])
def test_run_is_step_by_step(data_bytes, config):
    n = 6000
    stim = random_stimulus(n, data_bytes, seed=data_bytes)
    record = dm.FIELDS + dm.EVENTS
    bulk = dm.Model(config, data_bytes=data_bytes).run(n, stim, record=record)
    m = dm.Model(config, data_bytes=data_bytes)
    words = (data_bytes + 7) // 8
    changed = set()
    for c in range(n):
        ins = {k: int(v[c]) for k, v in stim.items() if k != "s_axis_tdata"}
        ins["s_axis_tdata"] = sum(int(w) << (64 * k) for k, w in enumerate(stim["s_axis_tdata"][c]))
        out = m.step(ins)
        snap = m.snapshot()
        assert out == {k: snap[k] for k in dm.OUTPUTS}
        for name in dm.FIELDS:
            got = bulk[name][c]
            if name == "m_axis_tdata":
                got = sum(int(w) << (64 * k) for k, w in enumerate(got[:words]))
            assert int(got) == snap[name], f"cycle {c} field {name}"
            if c and name != "m_axis_tdata" and bulk[name][c] != bulk[name][c - 1]:
                changed.add(name)
        ev = m.events
        phase = {None: 0, "fast_recovery": 1, "additive": 2, "hyper": 3}[ev["inc_phase"]]
        assert phase == bulk["inc_phase"][c]
        for name in dm.EVENTS:
            if name != "inc_phase":
                assert int(ev[name]) == int(bulk[name][c]), f"cycle {c} event {name}"
    # the stimulus exercised the block: rates, credit, the bus and the counters moved
    assert {"rc", "credit", "s_axil_rdata", "cnt_cnp", "cnt_bytes", "m_axis_tvalid"} <= changed, changed
    assert m.cycle == n


def test_run_dtypes_shapes_and_defaults():
    m = dm.Model(data_bytes=16)
    r = m.run(5, {"m_axis_tready": 1})
    assert set(r) == set(dm.OUTPUTS)
    assert r["m_axis_tdata"].shape == (5, 2) and r["m_axis_tdata"].dtype == np.uint64
    assert r["s_axis_tready"].dtype == np.bool_ and r["s_axil_rdata"].dtype == np.uint32
    assert r["s_axil_bresp"].dtype == np.uint8 and r["m_axis_tkeep"].dtype == np.uint16
    r = m.run(3, record=["credit", "cnt_bytes", "bytes_in"])
    assert r["credit"].dtype == np.uint64 and r["bytes_in"].dtype == np.uint8
    assert m.cycle == 8


def test_register_helpers_use_the_bus():
    m = dm.Model()
    assert m.write("rai", dm.rate("6MB/s")) == 0
    assert m.state["cfg_rai"] == 6_000_000
    assert m.read("rai") == (6_000_000, 0)
    assert m.read("id") == (0xDCC10108, 0)
    # spec 6.1: byte strobes lane by lane; a read-only word by address answers DECERR
    assert m.write(0x004, 0xAABBCCDD, strb=0b0010) == 0
    assert m.read(0x004)[0] == (6_000_000 & ~0xFF00) | 0xCC00
    assert m.write(0x018, 1) == 3
    assert m.read(0x028) == (0, 3)
    with pytest.raises(dm.InputError, match=r"register `rc` \(0x018\) is read-only"):
        m.write("rc", 1)
    with pytest.raises(dm.InputError, match="unknown register `rcc`"):
        m.read("rcc")
    # every helper cycle is a real model cycle
    c = m.cycle
    m.read("rc")
    assert m.cycle == c + 2


def test_event_trace_through_the_bus_and_the_getter():
    """spec 4.10: armed by 0x170, a CNP gives a decrease entry; the bus read-out of entry 0 is
    the getter's first entry."""
    m = dm.Model()
    assert m.trace == []
    assert m.write("inc_interval", 50) == 0
    assert m.write("trace_ctrl", 1) == 0
    for c in range(600):
        m.step(cnp=int(c < 3), s_axis_tvalid=1, s_axis_tkeep=0xFF, m_axis_tready=1)
    t = m.trace
    assert t[0]["event"] == "decrease" and t[0]["kind"] == 0
    assert all(e["event"].startswith("increase/timer/") for e in t[1:]) and len(t) > 5
    assert [e["stamp"] for e in t] == sorted(e["stamp"] for e in t)
    assert m.write("trace_ctrl", 0) == 0
    status, _ = m.read("trace_status")
    assert status & 0x7F == len(t)
    assert m.write("trace_sel", 0) == 0
    assert m.read("trace_entry") == (1 << 8, 0)
    assert m.read("trace_rc") == (t[0]["rc"], 0)
    assert m.read("trace_stamp") == (t[0]["stamp"], 0)


def test_named_configurations_and_config_writes():
    p = dm.Model("paper-table2")
    assert p.config["inc_interval"] == dm.cycles("2ms") == 312_500
    assert p.config["dec_interval"] == 469 and p.config["clamp_tgt"] == 1
    assert p.state["cfg_alpha_interval"] == 6_250
    # the config writes program a reset block into the same configuration, through the bus
    m = dm.Model()
    for addr, data in p.config_writes():
        assert m.write(addr, data) == 0
    assert {k: m.state["cfg_" + k] for k in p.config} == p.config
    # a cycle with rst=1 resets the configuration too (spec 3), reset() restores it
    p.step(rst=1)
    assert p.state["cfg_inc_interval"] == dm.Model().config["inc_interval"]
    p.reset()
    assert p.state["cfg_inc_interval"] == 312_500 and p.cycle == 0


def _cli(*args):
    exe = ROOT / "target" / "release" / "dcqcn"
    if not exe.is_file():
        pytest.skip("target/release/dcqcn not built")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("text", [
    '[registers]\nrai = 5\nrhai = "12 parsecs"\n',
    '[registers]\n\ndec_interval = "1ms"\n',
    'base = "nope"\n',
    '[registers\n',
    '[registers]\ng = "1/256"\nalpha_g = 3\n',
])
def test_config_file_errors_are_the_cli_messages(tmp_path, text):
    f = tmp_path / "regs.toml"
    f.write_text(text)
    with pytest.raises(dm.ConfigFileError) as e:
        dm.Model(f)
    cli = _cli("sim", "--scenario", "paper-table2", "--cycles", "1", "--config", str(f))
    assert cli.returncode == 2
    assert cli.stderr.strip() == f"error: {e.value}"


def test_config_file_in_human_units(tmp_path):
    f = tmp_path / "t2.toml"
    f.write_text('[registers]\ng = "1/256"\nclamp_tgt = true\nrai = "6MB/s"\nrhai = "96Mbps"\n'
                 'dec_interval = "3us"\nalpha_interval = "40us"\ninc_interval = "2ms"\n')
    assert dm.Model(f).config == dm.Model("paper-table2").config
    with pytest.raises(dm.ConfigFileError, match="cannot read"):
        dm.Model(tmp_path / "missing.toml")


def test_errors():
    with pytest.raises(dm.InputError, match=r"unknown configuration `nope` \(known: upstream-reset, paper-table2, dcqcn-sigcomm15, nvidia-cx, ns3-hpcc\)"):
        dm.Model("nope")
    with pytest.raises(dm.ParamError, match="DATA_BYTES = 65: must be 1..=64"):
        dm.Model(data_bytes=65)
    m = dm.Model(data_bytes=4)
    with pytest.raises(dm.InputError, match="unknown input port `rts`"):
        m.step(rts=1)
    with pytest.raises(dm.InputError, match=r"`s_axis_tkeep`: 0x1f does not fit the 4-bit port"):
        m.step(s_axis_tkeep=0x1F)
    with pytest.raises(dm.InputError, match=r"`s_axil_awaddr`\[2\]: 0x1000 does not fit the 12-bit port"):
        m.run(3, {"s_axil_awaddr": np.array([0, 4, 0x1000])})
    with pytest.raises(dm.InputError, match="`cnp`: 2 values, expected 3"):
        m.run(3, {"cnp": [0, 1]})
    with pytest.raises(dm.InputError, match="unknown field `rcc`"):
        m.run(3, record=["rcc"])
    with pytest.raises(dm.UnitError, match="unknown rate unit `parsecs`"):
        dm.rate("12 parsecs")
    assert isinstance(dm.UnitError("x"), ValueError)
    assert m.cycle == 0  # nothing was stepped by a refused call


def test_units_and_display():
    assert dm.rate("10Gbps") == 1_250_000_000 and dm.rate("48Mbps") == 6_000_000
    assert dm.size("1MiB") == 1 << 20 and dm.alpha_g("1/256") == 1020
    assert dm.cycles("40us") == 6_250 and dm.cycles("1us", clk_hz=125_000_000) == 125
    assert dm.gbps(1_250_000_000) == 10.0
    m = dm.Model()
    assert m.bpc(1_250_000_000) == 524_288
    assert m.show("rc", 625_610_352) == ("0x254a0e70", "625610352 B/s (5.0049 Gb/s)")
    assert m.show("alpha", 1023) == ("0x3ff", "1023/1024 (0.9990)")


def test_typed_dicts_name_every_field():
    hints = lambda t: list(typing.get_type_hints(t))
    assert hints(_types.Inputs) == dm.INPUTS
    assert hints(_types.Outputs) == dm.OUTPUTS
    assert hints(_types.State) == dm.REGISTERS
    assert hints(_types.Events) == dm.EVENTS
    m = dm.Model()
    assert list(m.config) == hints(_types.Config)
    assert list(m.state) == dm.REGISTERS and list(m.events) == dm.EVENTS
    assert dm.FIELDS[:len(dm.OUTPUTS)] == dm.OUTPUTS


def test_diff_and_report_format():
    m = dm.Model()
    m.step(rst=1)
    m.step()
    obs = {k: m.state[k] for k in ("rc", "rt", "credit")}
    assert m.diff(obs) == []
    obs["rc"] += 1
    obs["credit"] = None
    assert m.diff(obs) == ["rc", "credit"]
    rep = m.report(obs, scenario="t", seed=3, variant="icarus", replay="pytest x",
                   raw={"credit": "0x0000xx"})
    lines = rep.splitlines()
    assert lines[0] == "MISMATCH at cycle 1 (t = 0.006 us), scenario t, seed 3, RTL variant icarus (8 B beats)"
    assert lines[2].split()[:3] == ["rc", "top", "0x4a817c80"]
    assert lines[2].split()[-5:] == ["0x4a817c81", "1250000001", "B/s", "(10.0000", "Gb/s)"]
    assert lines[3].split() == ["credit", "credit_gate", "0x000000080000", "8.000000", "B", "0x0000xx", "(X/Z)"]
    assert lines[4] == "last cycles (inputs | model outputs):"
    assert lines[5].split()[0] == "0" and lines[5].split()[1] == "rst=1"
    assert lines[-1] == "replay: pytest x" and lines[-2].startswith("configuration: Config { alpha_g: 1020")
