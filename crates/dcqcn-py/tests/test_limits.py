"""Bad input to the package's entry points (issue 33; docs/inputs.md, "Python package"): every
limit is checked before anything is reserved or stepped, in bounded time and memory; a message
names the argument and its range; a long run answers Ctrl-C."""

import itertools
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dcqcn_model as dm


def _bounded(code, timeout=60):
    """Runs `code` in a fresh interpreter whose address space may grow by at most 1 GiB past what
    the imports took (RLIMIT_AS), and returns its standard output. A reservation beyond 1 GiB
    aborts that interpreter (the test fails on its exit status) instead of the test run."""
    if not pathlib.Path("/proc/self/status").is_file():
        pytest.skip("needs /proc/self/status (Linux)")
    prologue = textwrap.dedent("""
        import resource, time
        import numpy as np
        import dcqcn_model as dm
        vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:"))
        limit = vm * 1024 + (1 << 30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
        def attempt(f):
            t0 = time.monotonic()
            try:
                f()
                out = "returned"
            except Exception as e:
                out = f"{type(e).__name__}: {e}"
            print(out)
            print(f"{time.monotonic() - t0:.3f}")
    """)
    r = subprocess.run([sys.executable, "-c", prologue + textwrap.dedent(code)],
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_run_of_1e8_cycles_is_refused_before_reserving():
    """Finding 1: run(10**8) reserved 8 bytes per cycle per output (10 GB) and killed the
    interpreter. The 23 bytes per cycle of the 13 output ports at 8-byte beats pass the 1 GiB."""
    out = _bounded("""
        m = dm.Model()
        attempt(lambda: m.run(10**8))
        print(m.cycle)
    """)
    assert out[0] == ("InputError: `n` = 100000000 cycles x 23 bytes per cycle of `record` = "
                      "2300000000 bytes: a run records at most 1073741824 bytes (1 GiB); record "
                      "fewer fields or run at most 46684427 cycles per call")
    assert float(out[1]) < 5 and out[2] == "0"


def test_run_of_2_62_cycles_is_refused_not_a_panic():
    """Finding 2: run(2**62, record=["rc"]) panicked (capacity overflow)."""
    out = _bounded("""
        m = dm.Model()
        attempt(lambda: m.run(2**62, record=["rc"]))
        attempt(lambda: m.run(2**64 - 1, record=["m_axis_tdata"]))
    """)
    assert out[0] == ("InputError: `n` = 4611686018427387904 cycles x 4 bytes per cycle of "
                      "`record` = 18446744073709551616 bytes: a run records at most 1073741824 "
                      "bytes (1 GiB); record fewer fields or run at most 268435456 cycles per call")
    assert out[2].startswith("InputError: `n` = 18446744073709551615 cycles x 8 bytes per cycle")
    assert float(out[1]) < 5 and float(out[3]) < 5


def test_record_limit_counts_the_returned_bytes():
    assert dm.MAX_RECORD_BYTES == 1 << 30
    m = dm.Model(data_bytes=64)
    # 64-byte beats: m_axis_tdata is 8 words per cycle, m_axis_tkeep 8 bytes
    n = dm.MAX_RECORD_BYTES // 64 + 1
    with pytest.raises(dm.InputError, match=f"`n` = {n} cycles x 64 bytes per cycle"):
        m.run(n, record=["m_axis_tdata"])
    with pytest.raises(dm.InputError, match="x 73 bytes per cycle"):
        m.run(n, record=["m_axis_tdata", "m_axis_tkeep", "s_axis_tready", "s_axis_tready"])
    # an endless record list is refused after MAX_RECORD_NAMES names, not followed
    with pytest.raises(dm.InputError, match=r"^`record`: more than 4096 names$"):
        m.run(1, record=itertools.repeat("rc"))
    # nothing recorded: no limit but the cycle count; n = 0 gives empty arrays of the right types
    r = m.run(0, record=["m_axis_tdata", "rc", "dec_fire"])
    assert r["m_axis_tdata"].shape == (0, 8) and r["rc"].dtype == np.uint32
    assert r["dec_fire"].dtype == np.bool_ and m.cycle == 0


_INTERRUPTED = """
    import os, signal, threading
    # a shell's background job starts with SIGINT ignored; a terminal's Ctrl-C has Python's handler
    signal.signal(signal.SIGINT, signal.default_int_handler)
    m = dm.Model()
    stimulus = {stimulus}
    sent = []
    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)
    threading.Timer(0.5, interrupt).start()
    try:
        m.run({n}, stimulus, record={record})
        print("returned")
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
    print(f"{{time.monotonic() - sent[0]:.3f}}")
    print(m.cycle)
    m.step()
    print(m.cycle)
"""


@pytest.mark.parametrize("n,stimulus,record", [
    ("2**62", "None", "[]"),
    # 2e7 cycles of recorded stimulus: about 4 s of model time, 100 MB of record
    ("2 * 10**7", "{'cnp': (np.arange(2 * 10**7) % 7 == 0), 'm_axis_tready': 1}", "['dec_fire', 'rc']"),
])
def test_ctrl_c_interrupts_a_long_run(n, stimulus, record):
    """Finding 3: Ctrl-C was ignored inside run. SIGINT from a timer thread 0.5 s into a run of
    minutes or more raises KeyboardInterrupt at the next SIGNAL_CHECK_CYCLES boundary (about
    15 ms; 2 s allowed on a loaded machine); the cycles stepped stay stepped."""
    out = _bounded(_INTERRUPTED.format(n=n, stimulus=stimulus, record=record), timeout=60)
    assert out[0] == "KeyboardInterrupt", out
    assert float(out[1]) < 2
    cycles = int(out[2])
    # stopped before the end of the run (a quiet machine steps 2e7 cycles of the 2**62 run in 0.5 s)
    assert 0 < cycles < eval(n) and cycles % dm.SIGNAL_CHECK_CYCLES == 0
    assert int(out[3]) == cycles + 1


@pytest.mark.parametrize("call,error,message", [
    # finding 4: no bare OverflowError; the argument and its range are named
    (lambda m: m.step(s_axis_tkeep=300), dm.InputError,
     "`s_axis_tkeep`: 0x12c does not fit the 8-bit port (0..=0xff)"),
    (lambda m: m.step(s_axis_tkeep=2**64), dm.InputError,
     "`s_axis_tkeep`: 0x10000000000000000 does not fit the 8-bit port (0..=0xff)"),
    (lambda m: m.step({"cnp": -1}), dm.InputError,
     "`cnp`: -0x1 does not fit the 1-bit port (0..=0x1)"),
    (lambda m: m.step(s_axis_tdata=2**64), dm.InputError,
     "`s_axis_tdata`: 0x10000000000000000 does not fit the 64-bit port (0..=0xffffffffffffffff)"),
    (lambda m: m.step(s_axis_tdata=-(2**600)), dm.InputError,
     "`s_axis_tdata`: a negative 601-bit integer does not fit the 64-bit port (0..=0xffffffffffffffff)"),
    (lambda m: m.step(s_axil_wdata=10**5000), dm.InputError,
     "`s_axil_wdata`: a 16610-bit integer does not fit the 32-bit port (0..=0xffffffff)"),
    (lambda m: m.write("rai", 2**32), dm.InputError,
     "`data`: 4294967296 does not fit 32 bits (0..=4294967295)"),
    (lambda m: m.write("rai", -1), dm.InputError, "`data`: -1 does not fit 32 bits (0..=4294967295)"),
    (lambda m: m.write("rai", 1, strb=16), dm.InputError, "`strb`: 16 does not fit 4 bits (0..=15)"),
    (lambda m: m.write(0x1000, 1), dm.InputError, "`register`: 4096 does not fit 12 bits (0..=4095)"),
    (lambda m: m.read(-4), dm.InputError, "`register`: -4 does not fit 12 bits (0..=4095)"),
    (lambda m: m.read("rai", max_cycles=dm.MAX_BUS_CYCLES + 1), dm.InputError,
     "`max_cycles`: 1048577 is outside 0..=1048576"),
    (lambda m: m.read("rai", idle={"s_axis_tkeep": 256}), dm.InputError,
     "`s_axis_tkeep`: 0x100 does not fit the 8-bit port (0..=0xff)"),
    (lambda m: m.run(-1), dm.InputError, "`n`: -1 does not fit 64 bits (0..=18446744073709551615)"),
    (lambda m: m.run(2**64, record=[]), dm.InputError,
     "`n`: 18446744073709551616 does not fit 64 bits (0..=18446744073709551615)"),
    (lambda m: m.run(3, {"s_axis_tkeep": np.array([0, 300, 0])}), dm.InputError,
     "`s_axis_tkeep`[1]: 0x12c does not fit the 8-bit port (0..=0xff)"),
    (lambda m: m.run(3, {"cnp": np.array([0, 0, -1], dtype=np.int8)}), dm.InputError,
     "`cnp`[2]: -0x1 does not fit the 1-bit port (0..=0x1)"),
    (lambda m: m.run(3, {"rst": 2**70}), dm.InputError,
     "`rst`: 0x400000000000000000 does not fit the 1-bit port (0..=0x1)"),
    (lambda m: m.run(2, {"s_axis_tdata": np.array([[0], [2**63]], dtype=np.uint64)}), dm.InputError,
     "`s_axis_tdata`[1] (word 0): 0x8000000000000000 does not fit the 32-bit port (0..=0xffffffff)"),
    (lambda m: m.bpc(2**32), dm.InputError,
     "`rate_bytes_per_s`: 4294967296 does not fit 32 bits (0..=4294967295)"),
    (lambda m: m.show("rc", -1), dm.InputError,
     "`rc`: -1 does not fit 64 bits (0..=18446744073709551615)"),
    (lambda m: m.report({"rc": 1}, scenario="s", seed=-1, variant="v", replay="r"), dm.InputError,
     "`seed`: -1 does not fit 64 bits (0..=18446744073709551615)"),
    (lambda m: dm.Model(data_bytes=2**64), dm.ParamError,
     "`data_bytes`: 18446744073709551616 does not fit 32 bits (0..=4294967295)"),
    (lambda m: dm.Model(clk_hz=-1), dm.ParamError, "`clk_hz`: -1 does not fit 32 bits (0..=4294967295)"),
    (lambda m: dm.Model(line_rate=2**32), dm.ParamError,
     "`line_rate`: 4294967296 does not fit 32 bits (0..=4294967295)"),
    (lambda m: dm.cycles("1ms", clk_hz=2**32), dm.ParamError,
     "`clk_hz`: 4294967296 does not fit 32 bits (0..=4294967295)"),
    (lambda m: dm.port_width("cnp", 2**40), dm.ParamError,
     "`data_bytes`: 1099511627776 does not fit 32 bits (0..=4294967295)"),
    (lambda m: dm.port_width("s_axis_tdata", 2**29), dm.ParamError, "DATA_BYTES = 536870912: must be 1..=64"),
    (lambda m: dm.Model(features="none"), dm.ParamError,
     "`features`: expected \"full\" or \"base\", got 'none'"),
    # a value of the wrong type: TypeError, naming the argument
    (lambda m: m.step(cnp=1.5), TypeError, "`cnp`: expected an integer 0..=0x1, got float"),
    (lambda m: m.step(s_axis_tdata="5"), TypeError,
     "`s_axis_tdata`: expected an integer 0..=0xffffffffffffffff, got str"),
    (lambda m: m.step(7), TypeError, "`inputs`: expected a dict of input port name to value, got int"),
    (lambda m: m.write("rai", "1"), TypeError, "`data`: expected an integer 0..=4294967295, got str"),
    (lambda m: m.read(4.0), TypeError,
     "`register`: expected an integer (a byte address 0..=4095) or a word name, got float"),
    (lambda m: m.run("10"), TypeError, "`n`: expected an integer (cycles) 0..=18446744073709551615, got str"),
    (lambda m: m.run(3, {"cnp": np.zeros(3)}), TypeError, "`cnp`: array of float64, expected integers or bools"),
    (lambda m: m.run(3, {"cnp": [[0], [1, 1]]}), TypeError, "`cnp`: expected an integer 0..=0x1 or an array of them, got list"),
    (lambda m: m.run(3, {5: 1}), TypeError, "`stimulus`: expected input port names (str), got int"),
    (lambda m: m.run(3, record="rc"), TypeError, "`record`: expected a list of field names (str), got str"),
    (lambda m: m.run(3, record=[b"rc"]), TypeError, "`record`: expected field names (str), got bytes"),
    (lambda m: dm.Model(data_bytes=8.0), TypeError, "`data_bytes`: expected an integer 0..=4294967295, got float"),
    (lambda m: dm.Model(3), TypeError,
     "`config`: expected a configuration name (str) or a TOML file (pathlib.Path), got int"),
    (lambda m: dm.rate(10), TypeError, '`text`: expected a rate, e.g. "10Gbps" (str), got int'),
    (lambda m: dm.cycles("1ms", clk_hz="1GHz"), TypeError, "`clk_hz`: expected an integer 0..=4294967295, got str"),
])
def test_arguments_out_of_range_name_the_argument_and_range(call, error, message):
    m = dm.Model(data_bytes=8 if "port (0..=0xffffffff)" not in message else 4)
    with pytest.raises(error) as e:
        call(m)
    assert type(e.value) is error and str(e.value) == message
    assert m.cycle == 0  # refused before the first cycle


def test_clk_hz_0_is_refused_by_cycles_as_by_model():
    """Finding 5: cycles("1ms", clk_hz=0) returned 0 where Model refuses clk_hz 0."""
    for clk_hz in (0, 65_536):
        with pytest.raises(dm.ParamError) as model:
            dm.Model(clk_hz=clk_hz)
        with pytest.raises(dm.ParamError) as unit:
            dm.cycles("1ms", clk_hz=clk_hz)
        assert str(unit.value) == str(model.value) == (
            f"CLK_FREQ_HZ = {clk_hz}: must be at least 65537 (K = 2^48/f must fit 32 bits)")
    assert dm.cycles("1s", clk_hz=65_537) == 65_537 == dm.Model(clk_hz=65_537).cycles("1s")


def test_integer_like_values_are_taken_by_value():
    """numpy integers and bools are integers; arrays of any integer or bool dtype, any byte
    order, strided, are read in place and give the same run as uint64 arrays."""
    m = dm.Model(data_bytes=np.uint8(4), clk_hz=np.int64(125_000_000))
    assert m.data_bytes == 4 and m.clk_hz == 125_000_000
    assert m.write("rai", np.uint32(7), strb=np.int8(15), max_cycles=np.uint16(16)) == 0
    assert m.read(np.int16(0x004))[0] == 7
    m.step(cnp=True, s_axis_tkeep=np.uint64(0xF), s_axis_tdata=np.uint32(0xFFFF_FFFF))
    assert m.show("rc", np.uint64(1_250_000_000))[0] == "0x4a817c80"
    n = 3000
    rng = np.random.default_rng(5)
    keep = rng.integers(0, 16, n)
    cnp = (np.arange(n) % 97 < 3)
    tdata = rng.integers(0, 1 << 32, (n, 1), dtype=np.uint64)
    ref = dm.Model(data_bytes=4).run(n, {"cnp": cnp.astype(np.uint64), "s_axis_tkeep": keep.astype(np.uint64),
                                         "s_axis_tdata": tdata, "s_axis_tvalid": 1, "m_axis_tready": 1},
                                     record=dm.FIELDS)
    wide = np.zeros(2 * n, dtype=np.int64)
    wide[::2] = keep
    for variant in [
        {"cnp": cnp, "s_axis_tkeep": keep.astype(np.uint8), "s_axis_tdata": tdata.astype(">u4")},
        {"cnp": cnp.astype(np.int8), "s_axis_tkeep": wide[::2], "s_axis_tdata": tdata.astype(np.int64)},
        {"cnp": list(cnp.astype(int)), "s_axis_tkeep": keep.astype(">i2"), "s_axis_tdata": tdata.astype(np.uint32)},
    ]:
        got = dm.Model(data_bytes=4).run(n, {**variant, "s_axis_tvalid": np.uint8(1), "m_axis_tready": True},
                                         record=dm.FIELDS)
        for name in dm.FIELDS:
            assert np.array_equal(got[name], ref[name]), name
    # a beat held every cycle may be given as one int
    r = dm.Model(data_bytes=16).run(4, {"s_axis_tdata": (1 << 127) | 5, "s_axis_tvalid": 1,
                                        "s_axis_tkeep": 0xFFFF, "m_axis_tready": 1},
                                    record=["m_axis_tdata"])
    assert [int(w) for w in r["m_axis_tdata"][-1]] == [5, 1 << 63]


def test_text_arguments_are_quoted_whole_or_clipped():
    m = dm.Model()
    with pytest.raises(dm.InputError, match="^unknown input port `\ufffd"):
        m.step(**{"\ud800": 1})
    with pytest.raises(dm.UnitError, match=r"^`9{64}\.\.\. \(1000001 bytes in all\)`: too many digits$"):
        dm.rate("9" * 1_000_000 + "x")
