"""cocotb test: replays one golden vector set on dcqcn_cosim_top (docs/golden-format.md).

The set comes from the environment: GOLDEN_VECTORS (path of vectors.txt) and GOLDEN_SET (name for
messages). test_runner.py builds the design with cocotb's runner and calls this once per set.
"""

import os

import cocotb
from cocotb.triggers import Timer

from golden_reader import GoldenVectors


def _hex(v, width):
    return format(v, f"0{(width + 3) // 4}x")


@cocotb.test()
async def replay(dut):
    path = os.environ["GOLDEN_VECTORS"]
    name = os.environ.get("GOLDEN_SET", path)
    data_bytes = int(os.environ["GOLDEN_DATA_BYTES"])
    vec = GoldenVectors(path, data_bytes=data_bytes)  # raises `file:line: reason`

    # Handles, in field order: inputs are driven, outputs and st_* registers compared.
    handles, inputs, outputs, regs = [], [], [], []
    for k, (fname, d, width) in enumerate(vec.fields):
        h = getattr(dut, fname if d != "st" else f"st_{fname}")
        handles.append(h)
        (inputs if d == "in" else outputs if d == "out" else regs).append(k)

    # The raw binary string of each compared signal: cocotb's BinaryValue wrapper costs several
    # times more per read, and 56 signals are read every cycle. int(s, 2) rejects X and Z.
    raw = [h._handle.get_signal_val_binstr for h in handles]

    def compare(ks, values, cycle):
        for k in ks:
            s = raw[k]()
            try:
                ok = int(s, 2) == values[k]
            except ValueError:
                ok = False
            if not ok:
                fname, _, width = vec.fields[k]
                try:
                    shown = _hex(int(s, 2), width)
                except ValueError:
                    shown = s
                raise AssertionError(
                    f"MISMATCH {name} cycle {cycle} field {fname}: "
                    f"expected {_hex(values[k], width)} got {shown}")

    clk = dut.clk
    clk.value = 0
    driven = [None] * len(vec.fields)
    await Timer(5, "ns")
    cycles = 0
    for cycle, values in vec.cycles():
        # Inputs change with the falling clock edge; outputs settle; then the rising edge.
        clk.value = 0
        for k in inputs:
            if driven[k] != values[k]:
                handles[k].value = values[k]
                driven[k] = values[k]
        await Timer(5, "ns")
        if cycle > 0:
            compare(outputs, values, cycle)
        clk.value = 1
        await Timer(5, "ns")
        compare(regs, values, cycle)
        cycles = cycle + 1
    dut._log.info(f"PASS {name} {cycles} cycles")
