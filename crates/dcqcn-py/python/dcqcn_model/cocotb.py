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

from . import (FIELDS, INPUTS, OUTPUTS, SURF_INPUTS, SURF_OUTPUTS, SURF_PORTS, Model,
               SurfModel)

__all__ = ["Scoreboard", "ScoreboardMismatch", "SurfScoreboard"]


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


class SurfScoreboard:
    """Steps a `dcqcn_model.SurfModel` beside upstream SURF's `RoCEv2DcqcnWrapper`, cycle by
    cycle, and compares as `dcqcn cosim --rtl surf` does.

    It attaches by the wrapper's own port names (PORTS: clk, rst, cnp and the S_AXIS_*, M_AXIS_*
    and S_AXIL_* groups; AWPROT/ARPROT are read by nothing in the block and not sampled). Every
    cycle it samples every input and output port, steps the model with the inputs and compares
    every output port of the cycle (the m_axis payload only where the DUT's M_AXIS_TVALID is 1:
    upstream leaves it undefined otherwise) and, where the simulator reaches them (`registers`),
    Rc, Rt and alpha (the ports curRc, curRt, alpha of the block's RateDecProc_1, wired to its
    registers) and the CNP count register (the counter output cnpCnt, registered one edge later,
    0 in reset) after the cycle's edge. The first difference raises `ScoreboardMismatch` whose
    message is the upstream lockstep's report: cycle, field (block out or st), model and DUT in
    hex and decimal, the last cycles' inputs and model outputs, the register writes taken, and a
    replay command.

        from dcqcn_model.cocotb import SurfScoreboard

        @cocotb.test()
        async def my_test(dut):
            sb = SurfScoreboard(dut)
            sb.start()                    # before the bench starts the clock and asserts rst
            ...                           # the bench as it is
            await sb.stop()               # raises the first mismatch, if any

    Timing: samples in the read-only phase after each falling edge of `clk`; drive the inputs at
    (or up to half a period after) the rising edge, as SURF's bench does. The wrapper's TPD_G
    (1 ns by default) must be below half a clock period. Cycle 0 is the first cycle in which rst
    is sampled 1: the model starts there at power-up, so start the scoreboard before the DUT's
    first clock edge; the outputs of cycle 0 are not compared (power-up values), everything after
    its edge is. An input that has never been driven (every bit U, e.g. the AXI4-Lite master
    before the bench creates it) is taken as 0, as the block's `= '1'` tests read it, and counted
    in `undriven_cycles`; so is a payload input (S_AXIL_AWADDR, _WDATA, _WSTRB, _ARADDR, the
    S_AXIS payload) that is X or Z while its valid is sampled 0 (cocotbext-axi's AxiLiteMaster
    drives X on an idle channel; neither the block nor the model reads a payload without its
    valid), counted in `dont_care_cycles`. Any other input not 0/1 stops the scoreboard with an
    error. (Were the block to read such a value, its outputs would go X or differ from the
    model's, and that is reported.)
    fail_fast: raise in the scoreboard's task (fails the running test at once, default); False:
    keep the first mismatch in `mismatch`, stop comparing, and raise it from stop().
    """

    PORTS = SURF_PORTS
    """The ports of `RoCEv2DcqcnWrapper` the scoreboard attaches to (SURF's spelling)."""

    PROBES = {"rc": ("U_DUT", "RateDecProc_1", "curRc"),
              "rt": ("U_DUT", "RateDecProc_1", "curRt"),
              "alpha": ("U_DUT", "RateDecProc_1", "alpha"),
              "cnp_cnt": ("U_DUT", "cnpCnt")}
    """Where the four registers are seen inside the wrapper (the signals `dcqcn cosim --rtl surf`
    dumps)."""

    def __init__(self, dut: Any, model: Optional[SurfModel] = None, *, clk: Any = None,
                 registers: Optional[bool] = None, scenario: str = "cocotb", seed: int = 0,
                 variant: Optional[str] = None, replay: Optional[str] = None,
                 fail_fast: bool = True):
        self.dut = dut
        self.fail_fast = fail_fast
        self.model = model or SurfModel()
        missing = [p for p in self.PORTS if not _has(dut, p)]
        if missing:
            raise AttributeError(f"SurfScoreboard: {dut._name} has no port {', '.join(missing)}: "
                                 "not a RoCEv2DcqcnWrapper (or one whose ports differ)")
        self.clk = clk if clk is not None else _get(dut, "clk")
        self.scenario = scenario
        self.seed = seed
        self.variant = variant or f"surf {cocotb.SIM_NAME}:{dut._name}"
        self.replay = replay or os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0] or "-"
        self._inputs = [(n, _reader(_get(dut, _surf_port(n)))) for n in SURF_INPUTS]
        self._outputs = [(n, _reader(_get(dut, _surf_port(n)))) for n in SURF_OUTPUTS]
        probes = {k: _path(dut, p) for k, p in self.PROBES.items()}
        if registers is None:
            registers = all(h is not None for h in probes.values())
        elif registers and any(h is None for h in probes.values()):
            lost = [".".join(self.PROBES[k]) for k, h in probes.items() if h is None]
            raise AttributeError(f"SurfScoreboard: cannot reach {', '.join(lost)} in "
                                 f"{dut._name}")
        self._probes = {k: _reader(h) for k, h in probes.items()} if registers else {}
        self.cycles = 0
        """Cycles compared (from the first reset cycle on)."""
        self.undriven_cycles = 0
        """Cycles in which some input had never been driven (taken as 0)."""
        self.dont_care_cycles = 0
        """Payload inputs sampled X/Z while their valid was 0 (taken as 0), summed over ports."""
        self.seconds = 0.0
        self.mismatch: Optional[ScoreboardMismatch] = None
        self._task = None
        self._started_at: Optional[float] = None

    @property
    def compares_registers(self) -> bool:
        return bool(self._probes)

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

    async def _watch(self) -> None:
        pending: Optional[Dict[str, Optional[int]]] = None  # the stepped cycle's outputs
        raw: Dict[str, str] = {}
        started = False
        rst_idx = SURF_INPUTS.index("rst")
        while True:
            await FallingEdge(self.clk)
            await ReadOnly()
            if pending is not None:
                observed = dict(pending)
                for name in ("rc", "rt", "alpha"):
                    if name in self._probes:
                        v, s = self._probes[name]()
                        observed[name] = v
                        if v is None:
                            raw[name] = s
                if not self._check(observed, raw):
                    return
            if not started:
                rst, _ = self._inputs[rst_idx][1]()
                if rst != 1:
                    continue
                started = True
                self._started_at = time.perf_counter()
                first = True
            else:
                first = False
            sampled = {name: read() for name, read in self._inputs}
            ins: Dict[str, int] = {}
            undriven = False
            for name, (v, s) in sampled.items():
                if v is None:
                    valid = _DONT_CARE_UNLESS.get(name)
                    if set(s) == {"U"}:
                        undriven = True
                    elif valid is not None and sampled[valid][0] == 0:
                        # a payload while its valid is 0 (cocotbext-axi drives it X when idle)
                        self.dont_care_cycles += 1
                    else:
                        self._fail_input(name, s)
                    v = 0
                ins[name] = v
            self.undriven_cycles += undriven
            outs: Dict[str, Optional[int]] = {}
            raw = {}
            if not first:
                for name, read in self._outputs:
                    v, s = read()
                    outs[name] = v
                    if v is None:
                        raw[name] = s
            if "cnp_cnt" in self._probes:
                # the register takes the counter's value of this cycle at the edge, 0 in reset
                v, s = self._probes["cnp_cnt"]()
                outs["cnp_cnt"] = 0 if ins["rst"] else v
                if v is None and not ins["rst"]:
                    raw["cnp_cnt"] = s
            self.model.step(ins)
            self.cycles += 1
            pending = outs

    def _check(self, observed: Dict[str, Optional[int]], raw: Dict[str, str]) -> bool:
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
        msg = (f"SurfScoreboard: input `{_surf_port(name)}` is `{raw}` at model cycle "
               f"{self.model.cycle}: drive every input port with 0/1 (the model takes no X or Z)")
        self.mismatch = ScoreboardMismatch(msg, self.model.cycle, [name])
        raise self.mismatch


# Payload inputs and the valid without which neither the block nor the model reads them.
_DONT_CARE_UNLESS = {"s_axil_awaddr": "s_axil_awvalid", "s_axil_wdata": "s_axil_wvalid",
                     "s_axil_wstrb": "s_axil_wvalid", "s_axil_araddr": "s_axil_arvalid",
                     "s_axis_tdata": "s_axis_tvalid", "s_axis_tkeep": "s_axis_tvalid",
                     "s_axis_tlast": "s_axis_tvalid"}


def _surf_port(name: str) -> str:
    """A SURF_INPUTS/SURF_OUTPUTS name as the wrapper spells the port."""
    return name if name in ("clk", "rst", "cnp") else name.upper()


def _get(h: Any, name: str) -> Any:
    """Child `name` of handle `h`: as spelled, else in lower case (GHDL names VHDL objects in
    lower case; cocotb finds either spelling on most versions)."""
    try:
        return getattr(h, name)
    except AttributeError:
        return getattr(h, name.lower())


def _has(h: Any, name: str) -> bool:
    try:
        _get(h, name)
        return True
    except AttributeError:
        return False


def _path(h: Any, names: Any) -> Any:
    """The handle at `names` below `h`, or None where the simulator does not reach it."""
    for n in names:
        # lower case first: GHDL's VPI lists the instances so, and on cocotb 2.1 an instance
        # found by another spelling has no children
        try:
            h = getattr(h, n.lower())
        except AttributeError:
            try:
                h = getattr(h, n)
            except AttributeError:
                return None
    return h
