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

`SurfModel` is the upstream SURF block `RoCEv2Dcqcn` (its cocotb wrapper `RoCEv2DcqcnWrapper`),
bit-exact at the wrapper's ports (crate dcqcn-surf), with the same calls where they mean the same:

    s = dm.SurfModel()
    s.step(rst=1); s.step(m_axis_tready=1, cnp=1)
    s.write(0x010, 100); s.read(0x018)           # upstream's register map, byte addresses
    s.state["rc"], s.events["dec_valid"]
    res = s.run(1000, {"cnp": cnp_array, "m_axis_tready": 1}, record=["rc", "m_axis_tvalid"])

`dcqcn_model.cocotb.SurfScoreboard` steps it beside a `RoCEv2DcqcnWrapper` in SURF's own bench.
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
    SURF_EVENTS,
    SURF_FIELDS,
    SURF_INPUTS,
    SURF_OUTPUTS,
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
from ._dcqcn_model import SurfModel as _SurfModel
from ._types import Config, Events, Inputs, Outputs, State

__all__ = [
    "Model", "SurfModel", "Inputs", "Outputs", "State", "Config", "Events",
    "DcqcnError", "ConfigFileError", "UnitError", "ParamError", "InputError",
    "rate", "size", "cycles", "alpha_g", "gbps", "port_width",
    "INPUTS", "OUTPUTS", "REGISTERS", "FIELDS", "EVENTS", "NAMED_CONFIGS", "REGISTER_MAP",
    "SURF_INPUTS", "SURF_OUTPUTS", "SURF_FIELDS", "SURF_EVENTS", "SURF_PORTS",
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


SURF_PORTS = ["clk", "rst", "cnp",
              "S_AXIS_TVALID", "S_AXIS_TDATA", "S_AXIS_TKEEP", "S_AXIS_TLAST", "S_AXIS_TREADY",
              "M_AXIS_TVALID", "M_AXIS_TDATA", "M_AXIS_TKEEP", "M_AXIS_TLAST", "M_AXIS_TREADY",
              "S_AXIL_AWADDR", "S_AXIL_AWPROT", "S_AXIL_AWVALID", "S_AXIL_AWREADY",
              "S_AXIL_WDATA", "S_AXIL_WSTRB", "S_AXIL_WVALID", "S_AXIL_WREADY",
              "S_AXIL_BRESP", "S_AXIL_BVALID", "S_AXIL_BREADY",
              "S_AXIL_ARADDR", "S_AXIL_ARPROT", "S_AXIL_ARVALID", "S_AXIL_ARREADY",
              "S_AXIL_RDATA", "S_AXIL_RRESP", "S_AXIL_RVALID", "S_AXIL_RREADY"]
"""The ports of upstream SURF's `RoCEv2DcqcnWrapper`, as it spells them: what
`dcqcn_model.cocotb.SurfScoreboard` attaches to and `make surf-cocotb` checks a checkout's wrapper
against."""

_SURF_WIDTHS = dict(zip(SURF_INPUTS, [1, 1, 256, 32, 1, 1, 1, 32, 1, 32, 4, 1, 1, 32, 1, 1]))
_SURF_RECORD_WIDTHS = dict(zip(SURF_FIELDS, [1, 1, 256, 32, 1, 1, 1, 1, 2, 1, 1, 32, 2, 32, 32,
                                             10, 16]))
_SURF_RECORD_WIDTHS.update(cnp_edge=1, dec_valid=1, inc_valid=1, alpha_valid=1, time_stage=8)


class SurfModel(_SurfModel):
    """The upstream SURF block (see the module docstring and `_dcqcn_model.pyi`)."""

    def run(self, n: int, stimulus: Optional[Stimulus] = None,
            record: Optional[Sequence[str]] = None) -> Dict[str, np.ndarray]:
        """Steps `n` cycles in Rust and returns the recorded fields, as `Model.run`.

        stimulus: SURF_INPUTS name -> an int (held every cycle) or an array of `n` non-negative
        integers (any integer or bool dtype); `s_axis_tdata`: an int beat or shape (n, 4) words,
        least significant first. Ports not given are 0.
        record: names from SURF_FIELDS (outputs of each cycle, registers after its edge) or
        SURF_EVENTS (default: every output port). Returns name -> array of n values, of the
        smallest unsigned type of the field's width (bool for one bit); `m_axis_tdata` as (n, 4)
        uint64. A value wider than its port raises InputError naming the port and the cycle.
        """
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 0:
            raise TypeError(f"`n`: expected a non-negative integer (cycles), got {n!r:.40}")
        n = int(n)
        consts: Dict[str, int] = {}
        columns: Dict[str, np.ndarray] = {}
        for name, v in (stimulus or {}).items():
            if name not in _SURF_WIDTHS:
                raise InputError(f"unknown input port `{name!s:.64}` (known: {', '.join(SURF_INPUTS)})")
            if isinstance(v, (int, np.integer)):
                consts[name] = v
                continue
            a = np.asarray(v)
            if a.dtype.kind not in "biu":
                raise TypeError(f"`{name}`: expected an int or an integer array, got {a.dtype}")
            want = (n, 4) if name == "s_axis_tdata" else (n,)
            if a.shape != want:
                raise InputError(f"`{name}`: expected an array of shape {want}, got {a.shape}")
            if a.dtype.kind == "i" and a.size and a.min() < 0:
                raise InputError(f"`{name}`: negative value {a.min()} at "
                                 f"[{int(np.argmin(a.reshape(n, -1).min(axis=1)))}]")
            a = np.ascontiguousarray(a, dtype=np.uint64)
            bits = _SURF_WIDTHS[name]
            if bits < 64 and a.size and int(a.max()) >> bits:
                k = int(np.argmax(a >> np.uint64(bits) != 0))
                raise InputError(f"`{name}`[{k}]: {int(a[k]):#x} does not fit the {bits}-bit "
                                 f"port (0..={(1 << bits) - 1:#x}); no cycle was stepped")
            if name in ("s_axil_awaddr", "s_axil_araddr") and a.size and int(a.max()) > 0xFFFF:
                k = int(np.argmax(a > np.uint64(0xFFFF)))
                raise InputError(f"`{name}`[{k}]: {int(a[k]):#x}: the upstream model takes "
                                 "addresses up to 0xffff; no cycle was stepped")
            columns[name] = a
        names = list(record) if record is not None else list(SURF_OUTPUTS)
        got = self._run(n, consts, columns, names)
        out: Dict[str, np.ndarray] = {}
        for name in names:
            a = got[name]
            bits = _SURF_RECORD_WIDTHS[name]
            if bits > 64:
                out[name] = a.reshape(n, 4)
            elif bits == 1:
                out[name] = a.astype(bool)
            else:
                t = np.uint8 if bits <= 8 else np.uint16 if bits <= 16 else np.uint32 \
                    if bits <= 32 else np.uint64
                out[name] = a.astype(t)
        return out
