"""A per-cycle scoreboard for cocotb testbenches (cocotb 2.x; 1.9 works too).

It watches a DUT with the ports of spec 3 (`dcqcn_rl`, or a wrapper with the same port names) and,
if the DUT has them, the spec-7 registers as `st_<name>` ports (`verilator/dcqcn_cosim_top.sv`,
`testbench/vhdl/dcqcn_cosim_top_vhdl.vhd`). Every cycle it samples every input and output port,
steps the bit-exact model with the sampled inputs and compares the DUT's outputs of the cycle and
registers after its edge with the model's. The first difference raises `ScoreboardMismatch` whose
message is `dcqcn cosim`'s mismatch report: cycle, field, block, expected (model) and actual (RTL)
in hex and in the field's unit, the last cycles' inputs, the configuration and how to replay.

    from dcqcn_model.cocotb import Scoreboard

    @cocotb.test()
    async def traffic(dut):
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        sb = Scoreboard(dut, scenario="traffic", replay="pytest testbench/cocotb/test_scoreboard.py")
        sb.start()
        ...                      # drive the inputs, starting with rst = 1
        await sb.stop()          # raises the first mismatch, if any

Timing: the scoreboard samples in the read-only phase after each falling clock edge. Drive the
inputs at the falling edge (as the repository's testbenches do) or right after the rising edge;
both are stable then. Cycle 0 is the first cycle in which `rst` is sampled 1: the model starts
there, and the DUT's outputs of that cycle are not compared (they are undefined before the first
reset edge); from its edge on, everything is.
"""

import os
import time
from typing import Any, Dict, List, Optional

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from . import FIELDS, INPUTS, OUTPUTS, Model

__all__ = ["Scoreboard", "ScoreboardMismatch"]


class ScoreboardMismatch(AssertionError):
    """The DUT differs from the model; str() is the report of `dcqcn cosim`. Attributes: cycle,
    fields (the differing names), report."""

    def __init__(self, report: str, cycle: int, fields: List[str]):
        super().__init__(report)
        self.report = report
        self.cycle = cycle
        self.fields = fields


def _reader(handle):
    """A function returning the handle's value as (int or None for X/Z, raw bits)."""
    raw = handle._handle.get_signal_val_binstr  # one VPI/VHPI read, no value object

    def read():
        s = raw()
        try:
            return int(s, 2), s
        except ValueError:
            return None, s
    return read


class Scoreboard:
    """Steps a `dcqcn_model.Model` beside a DUT, cycle by cycle, and compares.

    dut: the toplevel handle. model: the model to step (default: Model with the DUT's beat width,
    `data_bytes`, and the given clock and line rate; it follows the DUT's configuration through the
    bus). clk: the clock handle (default dut.clk). registers: also compare the `st_*` registers
    (default: if the DUT has them). scenario, seed, replay: what the report names; variant: the
    report's RTL variant (default `<simulator>:<toplevel>`). fail_fast: raise the mismatch in
    the scoreboard's task, which fails the running test at once (default); False: keep it in
    `mismatch`, stop comparing, and raise it from stop().
    """

    def __init__(self, dut: Any, model: Optional[Model] = None, *, clk: Any = None,
                 data_bytes: Optional[int] = None, clk_hz: int = 156_250_000,
                 line_rate: int = 1_250_000_000, registers: Optional[bool] = None,
                 scenario: str = "cocotb", seed: int = 0, variant: Optional[str] = None,
                 replay: Optional[str] = None, fail_fast: bool = True):
        self.dut = dut
        self.fail_fast = fail_fast
        if data_bytes is None:
            data_bytes = len(dut.s_axis_tkeep)
        self.model = model or Model(data_bytes=data_bytes, clk_hz=clk_hz, line_rate=line_rate)
        self.clk = clk if clk is not None else dut.clk
        self.scenario = scenario
        self.seed = seed
        self.variant = variant or f"{cocotb.SIM_NAME}:{dut._name}"
        self.replay = replay or os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0] or "-"
        self._inputs = [(n, _reader(getattr(dut, n))) for n in INPUTS]
        self._outputs = [(n, _reader(getattr(dut, n))) for n in OUTPUTS]
        regs = [f for f in FIELDS if f not in OUTPUTS]
        if registers is None:
            registers = all(hasattr(dut, f"st_{r}") for r in regs)
        self._registers = ([(r, _reader(getattr(dut, f"st_{r}"))) for r in regs]
                           if registers else [])
        self.cycles = 0
        """Cycles compared (from the first reset cycle on)."""
        self.seconds = 0.0
        """Wall time from the first compared cycle to stop()."""
        self.mismatch: Optional[ScoreboardMismatch] = None
        self._task = None
        self._started_at: Optional[float] = None

    @property
    def compares_registers(self) -> bool:
        return bool(self._registers)

    def start(self):
        """Starts watching (a cocotb task); returns the task."""
        self._task = cocotb.start_soon(self._watch())
        return self._task

    async def stop(self) -> None:
        """Stops watching; raises the first mismatch if there was one."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self._started_at is not None:
            self.seconds = time.perf_counter() - self._started_at
        if self.mismatch is not None:
            raise self.mismatch

    def cycles_per_second(self) -> float:
        return self.cycles / self.seconds if self.seconds > 0 else 0.0

    async def _watch(self) -> None:
        pending: Optional[Dict[str, Optional[int]]] = None  # outputs of the stepped cycle
        raw: Dict[str, str] = {}
        started = False
        while True:
            await FallingEdge(self.clk)
            await ReadOnly()
            if pending is not None:
                observed = dict(pending)
                for name, read in self._registers:
                    v, s = read()
                    observed[name] = v
                    if v is None:
                        raw[name] = s
                if not self._check(observed, raw):
                    return
            if not started:
                rst, _ = self._inputs[0][1]()  # INPUTS[0] is rst; other inputs may be X before it
                if rst != 1:
                    continue
                started = True
                self._started_at = time.perf_counter()
                first = True
            else:
                first = False
            ins = {}
            for name, read in self._inputs:
                v, s = read()
                if v is None:
                    # an undriven or X input: the model cannot take it
                    self._fail_input(name, s)
                ins[name] = v
            outs: Dict[str, Optional[int]] = {}
            raw = {}
            if not first:
                for name, read in self._outputs:
                    v, s = read()
                    outs[name] = v
                    if v is None:
                        raw[name] = s
            self.model.step(ins)
            self.cycles += 1
            pending = outs

    def _check(self, observed: Dict[str, Optional[int]], raw: Dict[str, str]) -> bool:
        """False (or the raised mismatch) when the DUT differs from the model."""
        diff = self.model.diff(observed)
        if not diff:
            return True
        report = self.model.report(observed, scenario=self.scenario, seed=self.seed,
                                   variant=self.variant, replay=self.replay, raw=raw)
        self.mismatch = ScoreboardMismatch(report, self.model.cycle - 1, diff)
        self.dut._log.error(report)
        if self.fail_fast:
            raise self.mismatch
        return False

    def _fail_input(self, name: str, raw: str) -> None:
        msg = (f"scoreboard: input `{name}` is `{raw}` at model cycle {self.model.cycle}: drive "
               f"every input port with 0/1 (the model takes no X or Z)")
        self.mismatch = ScoreboardMismatch(msg, self.model.cycle, [name])
        raise self.mismatch
