"""pytest entry: builds dcqcn_cosim_top with cocotb's runner on Verilator and replays every golden set.

    pytest testbench/cocotb                       # every set under golden/
    GOLDEN_SETS="golden/bypass golden/cnp-storm" pytest testbench/cocotb

One test per set; the build is shared per beat width (under target/cocotb/w<N>).
"""

import os
import time
from pathlib import Path

import pytest
from cocotb.runner import get_runner

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def _sets():
    env = os.environ.get("GOLDEN_SETS")
    if env:
        return [Path(p) for p in env.split()]
    return sorted(p.parent for p in (ROOT / "golden").glob("*/vectors.txt"))


def _data_bytes(vectors):
    with open(vectors) as f:
        for line in f:
            if line.startswith("data_bytes "):
                return int(line.split()[1])
    return 8  # a header without it is reported by the reader, with its line


_runners = {}


def _runner(data_bytes):
    """The runner of this beat width, built once per session (cocotb needs the same object)."""
    build_dir = ROOT / "target" / "cocotb" / f"w{data_bytes}"
    if data_bytes not in _runners:
        runner = get_runner("verilator")
        runner.build(
            verilog_sources=sorted((ROOT / "rtl").glob("*.sv"))
            + [ROOT / "verilator" / "dcqcn_cosim_top.sv"],
            includes=[ROOT / "rtl"],
            hdl_toplevel="dcqcn_cosim_top",
            parameters={"DATA_BYTES": data_bytes},
            build_args=["-Wno-fatal", "-O2"],
            build_dir=build_dir,
            timescale=("1ns", "1ps"),
        )
        _runners[data_bytes] = runner
    return _runners[data_bytes], build_dir


@pytest.mark.parametrize("set_dir", _sets(), ids=lambda p: Path(p).name)
def test_golden_set(set_dir):
    vectors = Path(set_dir) / "vectors.txt"
    data_bytes = int(os.environ.get("RTL_DATA_BYTES", _data_bytes(vectors)))
    runner, build_dir = _runner(data_bytes)
    start = time.monotonic()
    results = runner.test(
        hdl_toplevel="dcqcn_cosim_top",
        test_module="test_golden",
        test_dir=build_dir,
        build_dir=build_dir,
        extra_env={
            "GOLDEN_VECTORS": str(vectors.resolve()),
            "GOLDEN_SET": Path(set_dir).name,
            "GOLDEN_DATA_BYTES": str(data_bytes),
            "PYTHONPATH": str(HERE),
        },
    )
    elapsed = time.monotonic() - start
    # runner.test returns the results file; a failed cocotb test is a failure element in it.
    xml = Path(results).read_text()
    assert "<failure" not in xml and "<error" not in xml, f"{set_dir}: see the log above"
    print(f"cocotb {Path(set_dir).name}: {elapsed:.1f} s")
