"""dcqcn_model: the bit-exact, cycle-accurate DCQCN rate limiter model (docs/spec.md) from Python.

The same Rust model the repository lock-steps against its RTL (crate dcqcn-model), not a second
implementation: one `step` is one clock cycle of `dcqcn_rl`.

    import dcqcn_model as dm
    m = dm.Model("paper-table2")                 # or dm.Model(pathlib.Path("regs.toml"))
    out = m.step(s_axis_tvalid=1, s_axis_tkeep=0xFF, m_axis_tready=1)
    m.state["rc"], m.events["dec_fire"]
    m.write("rai", dm.rate("6MB/s")); m.read("rc")
    res = m.run(1_000_000, {"cnp": cnp_array, "m_axis_tready": 1}, record=["rc", "rt"])

`dcqcn_model.cocotb` holds a per-cycle scoreboard for cocotb testbenches.
"""

from typing import Dict, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._dcqcn_model import (
    EVENTS,
    FIELDS,
    HISTORY_CYCLES,
    INPUTS,
    MAX_BUS_CYCLES,
    MAX_RECORD_BYTES,
    NAMED_CONFIGS,
    OUTPUTS,
    REGISTER_MAP,
    REGISTERS,
    SIGNAL_CHECK_CYCLES,
    ConfigFileError,
    DcqcnError,
    InputError,
    ParamError,
    UnitError,
    alpha_g,
    cycles,
    port_width,
    rate,
    size,
)
from ._dcqcn_model import Model as _Model
from ._types import Config, Events, Inputs, Outputs, State

__all__ = [
    "Model", "Inputs", "Outputs", "State", "Config", "Events",
    "DcqcnError", "ConfigFileError", "UnitError", "ParamError", "InputError",
    "rate", "size", "cycles", "alpha_g", "gbps", "port_width",
    "INPUTS", "OUTPUTS", "REGISTERS", "FIELDS", "EVENTS", "NAMED_CONFIGS", "REGISTER_MAP",
    "HISTORY_CYCLES", "MAX_RECORD_BYTES", "MAX_BUS_CYCLES", "SIGNAL_CHECK_CYCLES",
]

Stimulus = Mapping[str, Union[int, npt.ArrayLike]]


def gbps(bytes_per_s: float) -> float:
    """A rate in bytes/s as Gb/s (the unit of the paper's figures): 1_250_000_000 -> 10.0."""
    return bytes_per_s * 8 / 1e9


class Model(_Model):
    """One DCQCN rate limiter instance (see the module docstring and `_dcqcn_model.pyi`)."""

    def run(self, n: int, stimulus: Optional[Stimulus] = None,
            record: Optional[Sequence[str]] = None) -> Dict[str, np.ndarray]:
        """Steps `n` cycles in Rust, without Python in the loop, and returns the recorded fields.

        stimulus: input port name -> an int (held every cycle) or an array of `n` values of any
        integer or bool dtype, read in place, never widened to a uint64 copy (one in the other
        byte order, or unaligned, is copied once at its own size); `s_axis_tdata`: an int beat,
        or shape (n, words), least significant word first, words = ceil(data_bytes / 8). Ports
        not given are 0.
        record: names from FIELDS (outputs of each cycle, registers after its edge) or EVENTS
        (default: every output port). Returns name -> array of n values, of the smallest unsigned
        type of the field's width (bool for one bit); `m_axis_tdata` as (n, words) uint64.

        Limits (docs/inputs.md), checked before the first cycle: n is 0..=2^64-1; the record
        holds at most MAX_RECORD_BYTES (1 GiB) in all, n times the bytes per cycle of the
        recorded fields (1, 2, 4 or 8 by width, 8 x words for m_axis_tdata), else InputError
        naming `n` and `record` and the most cycles one call may record; a value wider than its
        port raises InputError naming the port and the cycle; a value of the wrong type
        TypeError. Ctrl-C raises KeyboardInterrupt within SIGNAL_CHECK_CYCLES cycles; the cycles
        already stepped stay stepped (`cycle` counts them), and nothing is returned.
        """
        return self._run(n, stimulus, record)
