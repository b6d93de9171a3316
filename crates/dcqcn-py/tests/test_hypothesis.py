"""Arbitrary arguments into every entry point of the package (hypothesis): huge and negative
ints, floats, strings (lone surrogates too), None, bytes, lists, numpy scalars and arrays of odd
dtypes, byte orders and shapes. Each call returns, or raises TypeError (a value of the wrong
type) or a dcqcn_model.DcqcnError (a value outside its documented limits, docs/inputs.md) whose
message names what was wrong; never a PanicException, a bare OverflowError, a crash, a hang.

`make test` runs HYPOTHESIS_EXAMPLES (default 200) derandomized examples per target, the same
ones every run; `make fuzz-parsers` runs PY_FUZZ_EXAMPLES (default 60,000) per target: 7 targets
making 17 calls per 7 examples, about 10^6 calls."""

import operator
import os
import pathlib

# hypothesis's caches (and a failing example's patch) under target/, not in the work tree
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY",
                      str(pathlib.Path(__file__).resolve().parents[3] / "target" / "hypothesis"))

import numpy as np  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

import dcqcn_model as dm  # noqa: E402

EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "200"))
SETTINGS = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))

# Values at and around every width the package checks (ports, registers, 32/64-bit arguments,
# beats) and their negatives. (Ints past str()'s 4300 digits are in test_limits.py: hypothesis
# could not print a failing example holding one.)
EDGES = sorted({s * (2 ** k + d) for k in (0, 1, 4, 8, 12, 16, 20, 31, 32, 63, 64, 127, 128, 512)
                for d in (-1, 0, 1) for s in (1, -1)} | {10 ** 100, -(10 ** 1000)})
INTS = st.one_of(st.integers(), st.integers(-(2 ** 600), 2 ** 600), st.sampled_from(EDGES))
DTYPES = ["?", "i1", "u1", "<i2", ">i2", "<u2", ">u4", "<i4", "<u8", ">u8", "<i8", ">i8",
          "f2", "<f4", ">f8", "c8", "U3", "S2", "M8[s]", "m8[ns]"]
ARRAYS = hnp.arrays(dtype=st.sampled_from(DTYPES).map(np.dtype),
                    shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))
NP_SCALARS = st.sampled_from([np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64,
                              np.uint64, np.float32, np.float64]).flatmap(
    lambda t: hnp.from_dtype(np.dtype(t)).map(t))
NAMES = (dm.INPUTS + dm.FIELDS + dm.EVENTS + dm.REGISTERS + dm.NAMED_CONFIGS
         + [name for _, name, _ in dm.REGISTER_MAP])
UNITS = ["10Gbps", "6MB/s", "1/256", "0.00390625", "2ms", "1us", "40 us", "1MiB", "5KB", "1_000",
         "99999999999999999999999999999999s", "1.5.5", ".", "", "1e9", "-1ms", "12 parsecs"]
TEXT = st.one_of(st.sampled_from(NAMES + UNITS), st.text(max_size=12),
                 st.text(st.characters(codec=None, categories=None), max_size=6))
ANY = st.one_of(INTS, st.booleans(), st.none(), st.floats(), TEXT, st.binary(max_size=6),
                ARRAYS, NP_SCALARS, st.lists(INTS, max_size=4), st.tuples(INTS),
                st.dictionaries(TEXT, INTS, max_size=2),
                st.lists(st.one_of(INTS, st.floats(), TEXT), max_size=3))
# ints that are mostly small: what a run or a port may take
SMALL = st.one_of(st.integers(0, 300), ANY)
WIDTHS = st.sampled_from([1, 3, 4, 8, 12, 16, 64])


def allowed(call, *, steps=True, model=None):
    """Runs `call`; a documented error is fine, anything else fails the example. With
    `steps=False` a refused call must not have stepped `model`."""
    before = model.cycle if model is not None else None
    try:
        return call()
    except (TypeError, dm.DcqcnError) as e:
        msg = str(e)
        assert msg and "panicked" not in msg, msg
        if isinstance(e, TypeError):
            # ours quote the argument; pyo3's (a dict-typed argument) say "argument 'idle': ..."
            assert msg.startswith(("`", "argument '")), f"a TypeError that names no argument: {msg}"
        if not steps:
            assert model.cycle == before, "a refused call stepped the model"
        return e


def fresh(data_bytes):
    return dm.Model(data_bytes=data_bytes)


@SETTINGS
@given(config=st.one_of(st.none(), st.sampled_from(dm.NAMED_CONFIGS), TEXT.map(pathlib.Path), ANY),
       data_bytes=SMALL, clk_hz=st.one_of(st.sampled_from([65_536, 65_537, 156_250_000]), ANY),
       line_rate=ANY)
def test_model_constructor(config, data_bytes, clk_hz, line_rate):
    m = allowed(lambda: dm.Model(config, data_bytes=data_bytes, clk_hz=clk_hz, line_rate=line_rate))
    if isinstance(m, dm.Model):
        assert m.step()["s_axil_rresp"] == 0 and m.cycle == 1


PORT_VALUES = st.dictionaries(st.one_of(st.sampled_from(dm.INPUTS), TEXT),
                              st.one_of(st.integers(0, 1), SMALL), max_size=4)


@SETTINGS
@given(db=WIDTHS, inputs=st.one_of(PORT_VALUES, ANY), kwargs=PORT_VALUES)
def test_step(db, inputs, kwargs):
    m = fresh(db)
    out = allowed(lambda: m.step(inputs, **{k: v for k, v in kwargs.items() if k != "inputs"}),
                  steps=False, model=m)
    if isinstance(out, dict):
        assert list(out) == dm.OUTPUTS and m.cycle == 1


@st.composite
def stimulus(draw, n, db):
    """Input port -> value: arrays of n (or n x words) values of odd dtypes and orders, ints."""
    words = (db + 7) // 8
    out = {}
    for name in draw(st.lists(st.one_of(st.sampled_from(dm.INPUTS), TEXT), max_size=4)):
        shape = (n, words) if name == "s_axis_tdata" else (n,)
        out[name] = draw(st.one_of(
            hnp.arrays(st.sampled_from(["?", "u1", ">u2", "<i4", "u8", ">i8", "f4"]).map(np.dtype),
                       draw(st.sampled_from([shape, (n + 1,), (n, words + 1), (n, 1, 1)]))),
            st.integers(0, 1), SMALL))
    return out


@SETTINGS
@given(db=WIDTHS, data=st.data())
def test_run(db, data):
    m = fresh(db)
    n = data.draw(st.one_of(st.integers(0, 50), INTS, ANY), label="n")
    rows = n if type(n) is int and 0 <= n <= 50 else 3
    stim = data.draw(st.one_of(stimulus(rows, db), ANY), label="stimulus")
    record = data.draw(st.one_of(st.none(), st.lists(st.one_of(st.sampled_from(dm.FIELDS + dm.EVENTS), TEXT),
                                                     max_size=3), ANY), label="record")
    try:
        cycles = operator.index(n)
    except TypeError:
        cycles = None
    if cycles is not None and 50 < cycles < 2 ** 64:
        # a long run is a legitimate call; only the refused ones are tried (every output port
        # recorded: 2 bytes per cycle or more, past 1 GiB from 2^29 cycles on)
        n, record = max(cycles, 2 ** 29 + 1), None
    r = allowed(lambda: m.run(n, stim, record=record), steps=False, model=m)
    if isinstance(r, dict):
        assert m.cycle == cycles
        assert all(len(v) == cycles for v in r.values())


@SETTINGS
@given(db=WIDTHS, register=st.one_of(st.sampled_from([a for a, _, _ in dm.REGISTER_MAP]),
                                     st.sampled_from([name for _, name, _ in dm.REGISTER_MAP]), ANY),
       value=st.one_of(st.integers(0, 2 ** 32 - 1), ANY), strb=st.one_of(st.integers(0, 15), ANY),
       idle=st.one_of(st.none(), PORT_VALUES), max_cycles=st.one_of(st.integers(0, 32), ANY))
def test_write_and_read(db, register, value, strb, idle, max_cycles):
    m = fresh(db)
    allowed(lambda: m.write(register, value, strb, idle=idle, max_cycles=max_cycles))
    allowed(lambda: m.read(register, idle=idle, max_cycles=max_cycles))
    m.step()


@SETTINGS
@given(field=st.one_of(st.sampled_from(dm.FIELDS + dm.REGISTERS), TEXT, ANY),
       value=st.one_of(st.integers(0, 2 ** 64 - 1), ANY), seed=st.one_of(st.integers(0, 5), ANY),
       text=st.one_of(TEXT, ANY))
def test_show_diff_report(field, value, seed, text):
    m = fresh(8)
    m.step(rst=1)
    allowed(lambda: m.show(field, value))
    observed = {field: value} if isinstance(field, str) else {"rc": value}
    allowed(lambda: m.diff(observed))
    allowed(lambda: m.report(observed, scenario=text, seed=seed, variant="v", replay=text))
    allowed(lambda: m.diff(field))


@SETTINGS
@given(text=st.one_of(st.sampled_from(UNITS), TEXT, ANY),
       clk_hz=st.one_of(st.sampled_from([0, 1, 65_536, 65_537, 2 ** 32 - 1]), ANY))
def test_unit_helpers(text, clk_hz):
    for f in (dm.rate, dm.size, dm.alpha_g, dm.cycles, fresh(8).cycles):
        allowed(lambda: f(text))
    allowed(lambda: dm.cycles(text, clk_hz=clk_hz))


@SETTINGS
@given(name=st.one_of(st.sampled_from(NAMES), ANY), data_bytes=SMALL, rate=ANY)
def test_port_width_and_bpc(name, data_bytes, rate):
    allowed(lambda: dm.port_width(name, data_bytes))
    allowed(lambda: fresh(8).bpc(rate))


def test_targets_cover_every_entry_point():
    """The targets above reach every public callable of the module (gbps aside: Python
    arithmetic on a number, no conversion) and every method of Model that takes arguments
    (reset, snapshot and config_writes take none)."""
    tested = {"Model", "rate", "size", "cycles", "alpha_g", "port_width", "gbps"}
    public = {n for n in dm.__all__
              if n == "Model" or callable(getattr(dm, n)) and not isinstance(getattr(dm, n), type)}
    assert public == tested, public ^ tested
    methods = {n for n in dir(dm.Model) if not n.startswith("__") and callable(getattr(dm.Model, n))}
    assert methods == {"reset", "step", "snapshot", "diff", "report", "write", "read", "config_writes",
                       "show", "cycles", "bpc", "run", "_run"}, methods
