"""pytest entry of the model scoreboard examples (scoreboard_tests.py), cocotb runner style:
one test per simulator and configuration, and the planted defects.

    sv-icarus      rtl/*.sv in verilator/dcqcn_cosim_top.sv, Icarus Verilog (-g2012)
    sv-verilator   the same, Verilator (cocotb 2.x: >= 5.036, see test_runner.verilator_for_cocotb)
    vhdl-ghdl      the VHDL twin rtl/vhdl/ in testbench/vhdl/dcqcn_cosim_top_vhdl.vhd, GHDL (the
                   generated top of test_runner.py)

    make scoreboard                                       # everything below
    pytest testbench/cocotb/test_scoreboard.py -k icarus
    SB_CYCLES=20000 pytest testbench/cocotb/test_scoreboard.py -k speed

The mutant tests build a copy of the RTL with one defect of verilator/mutants/ applied and pass
only if the scoreboard reports a mismatch. Each run prints its speed (cycles/s of the whole flow:
DUT, cocotb, model and comparison), summed up after the pytest report.
"""

import os
import re
import shutil
import time
try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib
from pathlib import Path

import pytest

import test_runner
from test_runner import OUT, ROOT, get_runner, sources

HERE = Path(__file__).resolve().parent
SV_TOP = ROOT / "verilator" / "dcqcn_cosim_top.sv"
CONFIGS = ["upstream-reset", "paper-table2"]
SIMS = ["sv-icarus", "sv-verilator", "vhdl-ghdl"]

# (sim, config, cycles, seconds) of every passed run, for conftest.py's summary
SPEEDS = []


def _rtl_copy(mutant):
    """rtl/ copied under target/ with the mutant's one textual change (must match once)."""
    spec = tomllib.loads((ROOT / "verilator" / "mutants" / f"{mutant}.toml").read_text())
    dst = OUT / "scoreboard" / f"rtl-{mutant}"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(ROOT / "rtl", dst)
    f = dst / spec["file"]
    text = f.read_text()
    assert text.count(spec["find"]) == 1, f"{mutant}: `find` must match {spec['file']} once"
    f.write_text(text.replace(spec["find"], spec["replace"]))
    return dst


_built = {}


def _build(sim, rtl, key):
    if (sim, key) in _built:
        return _built[(sim, key)]
    build_dir = OUT / "scoreboard" / f"{sim}-{key}"
    if sim == "vhdl-ghdl":
        if shutil.which("ghdl") is None:
            pytest.skip("ghdl not installed")
        arch = test_runner._cosim_arch()
        build_dir = Path(f"{build_dir}-{arch}")
        build_dir.mkdir(parents=True, exist_ok=True)
        top_file = build_dir / "dcqcn_cocotb_w8.vhd"
        top = test_runner._vhdl_top("w8", 8, test_runner.DEFAULT_CLK_HZ,
                                    test_runner.DEFAULT_LINE_RATE, arch, top_file)
        vhdl = rtl / "vhdl"
        files = [vhdl / f"{u}.vhd" for u in test_runner.VHDL_RTL]
        files += sorted(set(vhdl.glob("*.vhd")) - set(files))
        runner = get_runner("ghdl")
        runner.build(**sources("vhdl", files + [test_runner.VHDL_WRAPPER,
                                                test_runner.VHDL_WRAPPER_TAP, top_file]),
                     hdl_toplevel=top, build_args=test_runner.GHDL_FLAGS, build_dir=build_dir)
        entry = (runner, build_dir, top, {"test_args": test_runner.GHDL_FLAGS,
                                          "plusargs": ["--ieee-asserts=disable-at-0"]})
    else:
        files = sorted(rtl.glob("*.sv")) + [SV_TOP]
        if sim == "sv-verilator":
            test_runner.verilator_for_cocotb()
            runner = get_runner("verilator")
            build_args = ["-Wno-fatal", "-O2"]
        else:
            runner = get_runner("icarus")
            build_args = []
        runner.build(**sources("verilog", files), includes=[rtl], hdl_toplevel="dcqcn_cosim_top",
                     parameters={"DATA_BYTES": 8}, build_args=build_args, build_dir=build_dir,
                     timescale=("1ns", "1ps"))
        entry = (runner, build_dir, "dcqcn_cosim_top", {})
    _built[(sim, key)] = entry
    return entry


def _run(sim, rtl, key, config, cycles, expect_mismatch=False):
    runner, build_dir, top, extra = _build(sim, rtl, key)
    start = time.monotonic()
    results = runner.test(
        hdl_toplevel=top, test_module="scoreboard_tests", test_dir=build_dir,
        build_dir=build_dir, **extra,
        extra_env={"SB_CONFIG": config, "SB_CYCLES": str(cycles),
                   "SB_SEED": os.environ.get("SB_SEED", "1"),
                   "SB_EXPECT_MISMATCH": "1" if expect_mismatch else "0",
                   "PYTHONPATH": str(HERE)})
    xml = Path(results).read_text()
    assert "<failure" not in xml and "<error" not in xml, f"{sim} {config}: see the log above"
    return time.monotonic() - start


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("sim", SIMS)
def test_scoreboard(sim, config, capfd):
    cycles = int(os.environ.get("SB_CYCLES", "3000"))
    _run(sim, ROOT / "rtl", "rtl", config, cycles)
    out = capfd.readouterr().out
    m = re.search(r"SCOREBOARD-SPEED (\d+) ([\d.]+)", out)
    assert m, "the cocotb test printed no speed line"
    n, s = int(m.group(1)), float(m.group(2))
    assert n >= cycles
    SPEEDS.append((sim, config, n, s))
    print(out)


# A defect of the SV on both Verilog simulators, its VHDL twin on GHDL (seen on an output port),
# and one seen only in a register (st_cnt_stall) on Icarus.
@pytest.mark.parametrize("sim,mutant", [("sv-icarus", "gate-strict"),
                                        ("sv-verilator", "gate-strict"),
                                        ("vhdl-ghdl", "vhdl-gate-strict"),
                                        ("sv-icarus", "cnt-stall-no-reset")])
def test_scoreboard_reports_planted_defect(sim, mutant, capfd):
    rtl = _rtl_copy(mutant)
    _run(sim, rtl, mutant, "upstream-reset", 3000, expect_mismatch=True)
    out = capfd.readouterr().out
    print(out)
    assert "SCOREBOARD-CAUGHT" in out, f"{mutant} on {sim}: no mismatch reported"
    assert "MISMATCH at cycle" in out and "model (expected)" in out and "rtl (actual)" in out
