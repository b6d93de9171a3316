"""cocotb tests of the model scoreboard (dcqcn_model.cocotb): random traffic, CNP bursts and
register traffic on the DUT, the bit-exact model stepped beside it every cycle.

Run by test_scoreboard.py (pytest, one test per simulator and configuration). Environment:
SB_CONFIG (a named configuration, programmed through AXI4-Lite after reset), SB_CYCLES, SB_SEED,
SB_EXPECT_MISMATCH=1 (a planted defect: the test passes only if the scoreboard reports it).
"""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

import dcqcn_model as dm
from dcqcn_model.cocotb import Scoreboard, ScoreboardMismatch


def _clock(dut):
    try:
        clock = Clock(dut.clk, 10, unit="ns")  # cocotb 2.x
    except TypeError:
        clock = Clock(dut.clk, 10, units="ns")  # cocotb 1.9
    started = clock.start()
    if started is not None:  # cocotb 1.9: a coroutine to schedule
        cocotb.start_soon(started)


class Driver:
    """Drives every input at the falling edge; AXI4-Lite requests from a queue."""

    def __init__(self, dut, data_bytes, rng):
        self.dut, self.db, self.rng = dut, data_bytes, rng
        self.bus = []  # (kind, addr, data)
        self.aw = self.ar = None

    def idle(self):
        for name in dm.INPUTS:
            getattr(self.dut, name).value = 0

    async def cycle(self, rst=0, traffic=True, cnp=0):
        await FallingEdge(self.dut.clk)
        d, r = self.dut, self.rng
        d.rst.value = rst
        d.cnp.value = cnp
        full = (1 << self.db) - 1
        valid = traffic and r.random() < 0.9
        d.s_axis_tvalid.value = int(valid)
        d.s_axis_tdata.value = r.getrandbits(8 * self.db)
        d.s_axis_tkeep.value = full if r.random() < 0.8 else r.randrange(full + 1)
        d.s_axis_tlast.value = int(r.random() < 0.1)
        d.m_axis_tready.value = int(r.random() < 0.85)
        # one write and one read in flight at most, answered with random ready
        if self.aw is None and self.bus and self.bus[0][0] == "w":
            self.aw = self.bus.pop(0)
        if self.ar is None and self.bus and self.bus[0][0] == "r":
            self.ar = self.bus.pop(0)
        d.s_axil_awvalid.value = d.s_axil_wvalid.value = int(self.aw is not None)
        if self.aw is not None:
            d.s_axil_awaddr.value, d.s_axil_wdata.value = self.aw[1], self.aw[2]
            d.s_axil_wstrb.value = 0xF
        d.s_axil_bready.value = int(r.random() < 0.7)
        d.s_axil_arvalid.value = int(self.ar is not None)
        if self.ar is not None:
            d.s_axil_araddr.value = self.ar[1]
        d.s_axil_rready.value = int(r.random() < 0.7)

    def accepted(self):
        """After the cycle's outputs settled: drop the requests the DUT accepted."""
        d = self.dut
        if self.aw is not None and d.s_axil_awready.value == 1:
            self.aw = None
        if self.ar is not None and d.s_axil_arready.value == 1:
            self.ar = None


@cocotb.test()
async def scoreboard_random(dut):
    cycles = int(os.environ.get("SB_CYCLES", "3000"))
    seed = int(os.environ.get("SB_SEED", "1"))
    config = os.environ.get("SB_CONFIG", "upstream-reset")
    expect_mismatch = os.environ.get("SB_EXPECT_MISMATCH") == "1"
    data_bytes = len(dut.s_axis_tkeep)
    rng = random.Random(seed)
    _clock(dut)
    drv = Driver(dut, data_bytes, rng)
    drv.idle()
    sb = Scoreboard(dut, scenario=f"scoreboard-random-{config}", seed=seed,
                    replay=f"SB_CONFIG={config} SB_SEED={seed} SB_CYCLES={cycles} "
                           f"pytest testbench/cocotb/test_scoreboard.py",
                    fail_fast=not expect_mismatch)
    sb.start()
    # reset, then the configuration through the bus (what the model must follow)
    for _ in range(2):
        await drv.cycle(rst=1, traffic=False)
    drv.bus += [("w", a, v) for a, v in dm.Model(config).config_writes()]
    regs = [a for a, _, _ in dm.REGISTER_MAP] + [0x028, 0x11C]
    try:
        for c in range(cycles):
            # CNP bursts (decreases), register reads and the odd write (counter clear, bypass off)
            cnp = int((c // 40) % 25 == 0)
            if rng.random() < 0.03:
                drv.bus.append(("r", rng.choice(regs), 0))
            if rng.random() < 0.002:
                drv.bus.append(("w", 0x100, 0x101))
            await drv.cycle(cnp=cnp)
            await cocotb.triggers.ReadOnly()
            drv.accepted()
            if sb.mismatch is not None:
                break
        await FallingEdge(dut.clk)
        await FallingEdge(dut.clk)
        await sb.stop()
    except ScoreboardMismatch as e:
        if not expect_mismatch:
            raise
        dut._log.info(f"planted defect reported at cycle {e.cycle}, fields {e.fields}")
        print(f"SCOREBOARD-CAUGHT cycle {e.cycle} fields {','.join(e.fields)}")
        return
    dut._log.info(f"SCOREBOARD {sb.cycles} cycles, {sb.seconds:.2f} s, "
                  f"{sb.cycles_per_second():.0f} cycles/s, registers compared: "
                  f"{sb.compares_registers}")
    print(f"SCOREBOARD-SPEED {sb.cycles} {sb.seconds:.3f}")
    assert not expect_mismatch, "the planted defect was not reported"
    assert sb.cycles >= cycles
