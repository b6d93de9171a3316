"""Typed interface of the native module (PyO3, crate crates/dcqcn-py over crates/dcqcn-model).

Arguments (docs/inputs.md, "Python package"): every argument is checked before the call reserves
memory or steps a cycle. An integer argument takes an int, a numpy integer or a bool (anything with
__index__), by value: nothing wraps or saturates. A value of the wrong type raises TypeError; a
value outside its range raises the argument's DcqcnError (a ValueError): ParamError for
data_bytes, clk_hz and line_rate, InputError for the others, UnitError for a text in units. Both
name the argument and its range, e.g.
    TypeError: `cnp`: expected an integer 0..=0x1, got float
    InputError: `s_axis_tkeep`: 0x12c does not fit the 8-bit port (0..=0xff)
    InputError: `data`: 4294967296 does not fit 32 bits (0..=4294967295)
An int past 128 bits is shown by its size ("a 601-bit integer"), a quoted text cut after 64
characters. No call raises OverflowError, and a panic in the Rust code would be a bug.
"""

import os
from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from ._types import Config, Events, Inputs, Outputs, State

INPUTS: List[str]
"""Input ports of spec 3 (clock aside), in golden-vector order."""
OUTPUTS: List[str]
"""Output ports of spec 3."""
REGISTERS: List[str]
"""Every spec-7 register: the comparison record's, then m_valid m_data m_keep m_last bvalid bresp
rvalid rdata rresp (shown on the output ports)."""
FIELDS: List[str]
"""The comparison record of `dcqcn cosim` (dcqcn_model::Snapshot): OUTPUTS then the registers."""
EVENTS: List[str]
"""Per-cycle events Model.run can record."""
NAMED_CONFIGS: List[str]
"""The named configurations of spec 6.3."""
REGISTER_MAP: List[Tuple[int, str, bool]]
"""(byte address, word name, writable) of every mapped word (spec 6.2)."""
HISTORY_CYCLES: int
"""Cycles of inputs and outputs a mismatch report lists."""
MAX_RECORD_BYTES: int
"""What one Model.run call may record: 2^30 bytes (1 GiB) of returned arrays in all."""
MAX_BUS_CYCLES: int
"""The largest max_cycles of Model.write and Model.read: 2^20."""
SIGNAL_CHECK_CYCLES: int
"""Model.run checks for Ctrl-C (any signal) every this many cycles: 2^16, about 15 ms."""

class DcqcnError(ValueError):
    """Base of every error of dcqcn_model; str() is the Rust crate's message."""

class ConfigFileError(DcqcnError):
    """A register configuration file that cannot be used: `file:line: `field`: reason` (as `dcqcn`)."""

class UnitError(DcqcnError):
    """A value in human units that cannot be converted."""

class ParamError(DcqcnError):
    """Elaboration parameters the RTL refuses (DATA_BYTES, CLK_FREQ_HZ, LINE_RATE)."""

class InputError(DcqcnError):
    """An unknown port or field, a value wider than its port, an argument outside its range, a run
    that would record more than MAX_RECORD_BYTES, a bus transaction that timed out."""

def rate(text: str) -> int:
    """A rate in human units to bytes/s, as config files read it: rate("10Gbps") == 1_250_000_000,
    rate("6MB/s") == 6_000_000 (round half up, exact decimals)."""

def size(text: str) -> int:
    """A size to bytes: size("1MiB") == 1_048_576, size("5KB") == 5_000."""

def cycles(text: str, clk_hz: int = 156_250_000) -> int:
    """A time to clock cycles at clk_hz: cycles("2ms") == 312_500 at 156.25 MHz. clk_hz is
    checked as Model checks it: ParamError with Model's message below 65537 (0 included)."""

def alpha_g(gain: str) -> int:
    """The gain g ("1/256" or "0.00390625") as the register alpha_g = 1024 - round(1024 g)."""

def port_width(name: str, data_bytes: int) -> int:
    """Bits of an input/output port, spec-7 register or event for data_bytes-byte beats
    (data_bytes 1..=64, ParamError otherwise)."""

class Model:
    """One DCQCN rate limiter: the bit-exact model, one clock cycle per `step`.

    config: None (spec 6.2 reset values, "upstream-reset"), a configuration name of spec 6.3
    ("paper-table2"), or a register TOML file as a path object (pathlib.Path), read exactly as
    `dcqcn cosim --config FILE` reads it (same units, same error messages). The configuration is
    programmed into the model's registers at construction and by reset(); a cycle with rst = 1
    resets every register to its reset value, configuration included (spec 3), as the RTL does.
    data_bytes, clk_hz, line_rate: the RTL's DATA_BYTES, CLK_FREQ_HZ, LINE_RATE, 32-bit ints
    (ParamError outside 32 bits or if the RTL would refuse them: DATA_BYTES 1..=64, CLK_FREQ_HZ
    at least 65537, LINE_RATE at least 1).
    features: the block's feature configuration (spec 2), "full" (every feature, the default) or
    "base" (RATE_RULES = 0, CONTROL = 0, TRACE_DEPTH = 0: those words answer DECERR and their
    registers stay at reset); ParamError for another text.
    """

    def __init__(self, config: Union[str, os.PathLike[str], None] = None, *, data_bytes: int = 8,
                 clk_hz: int = 156_250_000, line_rate: int = 1_250_000_000,
                 features: str = "full") -> None: ...
    def reset(self) -> None:
        """Back to the state after construction (reset values, configuration programmed, cycle 0)."""
    @property
    def data_bytes(self) -> int: ...
    @property
    def clk_hz(self) -> int: ...
    @property
    def line_rate(self) -> int: ...
    @property
    def features(self) -> str:
        """The feature configuration: "full", "base" (spec 2)."""
    @property
    def cycle(self) -> int:
        """Cycles stepped since construction or reset()."""
    @property
    def config(self) -> Config:
        """The configuration the model was built with (register units)."""
    def step(self, inputs: Optional[Inputs] = None, **ports: int) -> Outputs:
        """One clock cycle: the outputs of the cycle (before the edge); every register advances.
        Ports come as a dict and/or keywords; missing ports are 0. InputError for an unknown port
        or a value outside the port's width (negative, or wider); TypeError for a value that is
        not an integer."""
    @property
    def outputs(self) -> Outputs:
        """The outputs of the last stepped cycle."""
    @property
    def state(self) -> State:
        """Every spec-7 register after the last clock edge, by name."""
    @property
    def events(self) -> Events:
        """The internal events of the last stepped cycle."""
    @property
    def trace(self) -> List[Dict[str, Union[int, str]]]:
        """The event trace window (spec 4.10), oldest first: kind, event (decoded), rc, stamp."""
    def snapshot(self) -> Dict[str, int]:
        """The comparison record of `dcqcn cosim` for the last cycle: its outputs and the
        registers after its edge (names of FIELDS)."""
    def diff(self, observed: Dict[str, Optional[int]]) -> List[str]:
        """Names whose observed value (a DUT's) differs from the model's last cycle; keys are
        FIELDS or REGISTERS names; values 0..=2^64-1 (beats up to 512 bits); None (an X/Z value)
        always differs."""
    def report(self, observed: Dict[str, Optional[int]], *, scenario: str, seed: int = 0,
               variant: str, replay: str, raw: Optional[Dict[str, str]] = None) -> str:
        """The mismatch report of `dcqcn cosim` (MISMATCH at cycle ..., field / block /
        model (expected) / rtl (actual), the last HISTORY_CYCLES cycles, the configuration
        registers, the replay command) for the fields of `observed` that differ. raw: how an
        unresolved (None) value looked (e.g. "0x1X"), shown as the actual value."""
    def write(self, register: Union[str, int], data: int, strb: int = 0xF, *,
              idle: Optional[Inputs] = None, max_cycles: int = 16) -> int:
        """An AXI4-Lite write through the model's ports (address + data, then the response):
        steps the cycles it takes and returns BRESP (0 OKAY, 3 DECERR). register: a word name of
        REGISTER_MAP (a read-only name raises InputError) or a byte address 0..=4095. data: 32
        bits, strb: 4 bits. idle: the other inputs during the transaction, as step's. max_cycles:
        0..=MAX_BUS_CYCLES; InputError if the response has not come by then."""
    def read(self, register: Union[str, int], *, idle: Optional[Inputs] = None,
             max_cycles: int = 16) -> Tuple[int, int]:
        """An AXI4-Lite read through the ports: (RDATA, RRESP); arguments as write's."""
    def config_writes(self) -> List[Tuple[int, int]]:
        """The full-strobe (address, data) writes that program this model's configuration into a
        block at its reset values (what a testbench writes into the DUT after reset)."""
    def show(self, field: str, value: int) -> Tuple[str, str]:
        """A value of a field as `dcqcn cosim` shows it: (hex, decoded in the field's unit),
        e.g. ("0x4a817c80", "1250000000 B/s (10.0000 Gb/s)") for rc."""
    def cycles(self, time: str) -> int:
        """A time in human units as cycles at this model's clock."""
    def bpc(self, rate_bytes_per_s: int) -> int:
        """spec 5.1: bytes per clock (Q16.16) for a rate in bytes/s (32 bits) at this clock."""
    def _run(self, n: int, stimulus: Optional[Dict[str, Union[int, np.ndarray, List[int]]]] = None,
             record: Optional[List[str]] = None) -> Dict[str, np.ndarray]:
        """The bulk run behind dcqcn_model.Model.run, which documents it."""


SURF_INPUTS: List[str]
"""Input ports of upstream SURF's `RoCEv2DcqcnWrapper` (clock aside; AWPROT/ARPROT go nowhere),
by the names of INPUTS (lower case): the addresses are 32 bits there, s_axis_tdata 256."""
SURF_OUTPUTS: List[str]
"""Output ports of `RoCEv2DcqcnWrapper`, lower case."""
SURF_FIELDS: List[str]
"""What the upstream lockstep compares: SURF_OUTPUTS, then rc, rt, alpha, cnp_cnt (registers after
the cycle's edge)."""
SURF_EVENTS: List[str]
"""Signals between the upstream rate side's processes that SurfModel.run can record."""


class SurfModel:
    """The upstream SURF block `RoCEv2Dcqcn` as `RoCEv2DcqcnWrapper` deploys it (32-byte beats,
    LINE_RATE_G 1.25e9 B/s, CLK_FREQ_G 156.25 MHz), bit-exact at the wrapper's ports: the Rust
    model `dcqcn_surf::model::SurfLimiter` that `dcqcn cosim --rtl surf` lock-steps against
    upstream's VHDL. One `step` is one clock cycle."""

    def __init__(self) -> None: ...
    def reset(self) -> None:
        """Back to power-up (every signal at its VHDL initial value), cycle 0."""
    @property
    def data_bytes(self) -> int: ...
    @property
    def clk_hz(self) -> int: ...
    @property
    def line_rate(self) -> int: ...
    @property
    def cycle(self) -> int:
        """Cycles stepped since construction or reset()."""
    def step(self, inputs: Optional[Dict[str, int]] = None, **kwargs: int) -> Dict[str, int]:
        """One cycle: the outputs of the cycle (sampled before the edge), then the edge. Inputs by
        SURF_INPUTS names, 0 when not given; an address above 0xffff raises InputError (the model
        takes the 16 bits the wrapper's shim decodes from)."""
    @property
    def outputs(self) -> Dict[str, int]:
        """The outputs of the last stepped cycle."""
    @property
    def state(self) -> Dict[str, Union[int, bool]]:
        """Registers after the last edge: rc, rt, alpha, cnp_cnt (0x020[26:11]), the CNP counter
        itself (cnp_counter), the configuration registers and cnp_cnt_rst."""
    @property
    def events(self) -> Dict[str, Union[int, bool]]:
        """cnp_edge, dec_valid, inc_valid, alpha_valid, time_stage during the last stepped cycle."""
    def snapshot(self) -> Dict[str, int]:
        """SURF_FIELDS of the last cycle: its outputs and the registers after its edge."""
    def diff(self, observed: Dict[str, Optional[int]]) -> List[str]:
        """The SURF_FIELDS of `observed` (None: not 0/1) that differ from the last cycle, by the
        upstream lockstep's rules: the m_axis payload only where the observed m_axis_tvalid is 1."""
    def report(self, observed: Dict[str, Optional[int]], *, scenario: str, seed: Optional[int] = None,
               variant: str, replay: str, raw: Optional[Dict[str, str]] = None) -> str:
        """`dcqcn cosim --rtl surf`'s mismatch report for `observed` against the last cycle: cycle,
        fields (block out/st, model and upstream in hex and decimal), the last HISTORY_CYCLES
        cycles, the register writes taken, the replay command."""
    def write(self, register: int, data: int, strb: Optional[int] = None, *,
              idle: Optional[Dict[str, int]] = None, max_cycles: Optional[int] = None) -> int:
        """One AXI4-Lite write of `data` to byte address `register` (upstream's map: 0x000-0x024)
        through the ports; the response code (0 OKAY). `strb` is driven and ignored (the wrapper
        forces 0xF)."""
    def read(self, register: int, *, idle: Optional[Dict[str, int]] = None,
             max_cycles: Optional[int] = None) -> Tuple[int, int]:
        """One AXI4-Lite read: (data, response code)."""
    def _run(self, n: int, consts: Dict[str, int], columns: Dict[str, np.ndarray],
             record: List[str]) -> Dict[str, np.ndarray]: ...
