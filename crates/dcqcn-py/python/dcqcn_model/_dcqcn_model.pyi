"""Typed interface of the native module (PyO3, crate crates/dcqcn-py over crates/dcqcn-model)."""

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

class DcqcnError(ValueError):
    """Base of every error of dcqcn_model; str() is the Rust crate's message."""

class ConfigFileError(DcqcnError):
    """A register configuration file that cannot be used: `file:line: `field`: reason` (as `dcqcn`)."""

class UnitError(DcqcnError):
    """A value in human units that cannot be converted."""

class ParamError(DcqcnError):
    """Elaboration parameters the RTL refuses (DATA_BYTES, CLK_FREQ_HZ, LINE_RATE)."""

class InputError(DcqcnError):
    """An unknown port or field, a value wider than its port, a bus transaction that timed out."""

def rate(text: str) -> int:
    """A rate in human units to bytes/s, as config files read it: rate("10Gbps") == 1_250_000_000,
    rate("6MB/s") == 6_000_000 (round half up, exact decimals)."""

def size(text: str) -> int:
    """A size to bytes: size("1MiB") == 1_048_576, size("5KB") == 5_000."""

def cycles(text: str, clk_hz: int = 156_250_000) -> int:
    """A time to clock cycles at clk_hz: cycles("2ms") == 312_500 at 156.25 MHz."""

def alpha_g(gain: str) -> int:
    """The gain g ("1/256" or "0.00390625") as the register alpha_g = 1024 - round(1024 g)."""

def port_width(name: str, data_bytes: int) -> int:
    """Bits of an input/output port, spec-7 register or event for data_bytes-byte beats."""

class Model:
    """One DCQCN rate limiter: the bit-exact model, one clock cycle per `step`.

    config: None (spec 6.2 reset values, "upstream-reset"), a configuration name of spec 6.3
    ("paper-table2"), or a register TOML file as a path object (pathlib.Path), read exactly as
    `dcqcn cosim --config FILE` reads it (same units, same error messages). The configuration is
    programmed into the model's registers at construction and by reset(); a cycle with rst = 1
    resets every register to its reset value, configuration included (spec 3), as the RTL does.
    data_bytes, clk_hz, line_rate: the RTL's DATA_BYTES, CLK_FREQ_HZ, LINE_RATE (ParamError
    if the RTL would refuse them).
    """

    def __init__(self, config: Union[str, os.PathLike[str], None] = None, *, data_bytes: int = 8,
                 clk_hz: int = 156_250_000, line_rate: int = 1_250_000_000) -> None: ...
    def reset(self) -> None:
        """Back to the state after construction (reset values, configuration programmed, cycle 0)."""
    @property
    def data_bytes(self) -> int: ...
    @property
    def clk_hz(self) -> int: ...
    @property
    def line_rate(self) -> int: ...
    @property
    def cycle(self) -> int:
        """Cycles stepped since construction or reset()."""
    @property
    def config(self) -> Config:
        """The configuration the model was built with (register units)."""
    def step(self, inputs: Optional[Inputs] = None, **ports: int) -> Outputs:
        """One clock cycle: the outputs of the cycle (before the edge); every register advances.
        Ports come as a dict and/or keywords; missing ports are 0. InputError for an unknown port
        or a value wider than the port."""
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
        FIELDS or REGISTERS names; None (an X/Z value) always differs."""
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
        REGISTER_MAP (a read-only name raises InputError) or a byte address. idle: the other
        inputs during the transaction."""
    def read(self, register: Union[str, int], *, idle: Optional[Inputs] = None,
             max_cycles: int = 16) -> Tuple[int, int]:
        """An AXI4-Lite read through the ports: (RDATA, RRESP)."""
    def config_writes(self) -> List[Tuple[int, int]]:
        """The full-strobe (address, data) writes that program this model's configuration into a
        block at its reset values (what a testbench writes into the DUT after reset)."""
    def show(self, field: str, value: int) -> Tuple[str, str]:
        """A value of a field as `dcqcn cosim` shows it: (hex, decoded in the field's unit),
        e.g. ("0x4a817c80", "1250000000 B/s (10.0000 Gb/s)") for rc."""
    def cycles(self, time: str) -> int:
        """A time in human units as cycles at this model's clock."""
    def bpc(self, rate_bytes_per_s: int) -> int:
        """spec 5.1: bytes per clock (Q16.16) for a rate in bytes/s at this clock."""
    def _run(self, n: int, stimulus: Dict[str, Union[int, np.ndarray]],
             record: List[str]) -> Dict[str, np.ndarray]: ...
