"""cocotb test module: SURF's own test module of RoCEv2Dcqcn, unmodified, each of its tests with
`dcqcn_model.cocotb.SurfScoreboard` beside it (scripts/surf_cocotb.py runs it; make surf-cocotb).

SURF's module is imported from the checkout (on PYTHONPATH) by its module name,
SURF_COCOTB_MODULE (default tests.ethernet.RoCEv2.test_RoCEv2Dcqcn). For every cocotb test in it
this module registers a test of the same name (same timeout, skip and expect-fail marks) that
starts the scoreboard, then awaits SURF's own test coroutine on the same DUT, then stops the
scoreboard. Nothing of SURF's test changes: its clock, reset, bus master, stimulus and assertions
run as they do in SURF's CI.

SURF_COCOTB_FAIL_FAST=1 (default): the first difference fails the test at once with the
scoreboard's report. 0: SURF's test runs to its end whatever the scoreboard sees, and the test
fails with SURF's error if its assertions failed, else with the scoreboard's report (both
verdicts are recorded: the defect demonstration). SURF_COCOTB_RESULTS: a file to which one JSON
line per test is appended (test, surf verdict, scoreboard verdict, cycles compared, the report).
"""

import importlib
import json
import os
import time

import cocotb
from cocotb._decorators import TestGenerator

from dcqcn_model.cocotb import SurfScoreboard

SURF_MODULE = os.environ.get("SURF_COCOTB_MODULE", "tests.ethernet.RoCEv2.test_RoCEv2Dcqcn")
FAIL_FAST = os.environ.get("SURF_COCOTB_FAIL_FAST", "1") != "0"
RESULTS = os.environ.get("SURF_COCOTB_RESULTS")
LABEL = os.environ.get("SURF_COCOTB_LABEL", "checkout")

_surf = importlib.import_module(SURF_MODULE)


def _record(entry):
    if RESULTS:
        with open(RESULTS, "a") as f:
            f.write(json.dumps(entry) + "\n")


def _with_scoreboard(name, gen):
    """A cocotb test named like SURF's `gen` that runs it with the scoreboard beside it."""

    async def run(dut):
        sb = SurfScoreboard(dut, scenario=f"{SURF_MODULE}.{name}", variant=f"surf {LABEL}",
                            replay=f"scripts/surf_cocotb.py --surf-dir <checkout> --test {name}",
                            fail_fast=FAIL_FAST)
        sb.start()
        entry = {"test": name, "surf": "pass", "scoreboard": "pass", "cycles": 0,
                 "registers": sb.compares_registers}
        t0 = time.perf_counter()
        surf_error = None
        try:
            await gen.func(dut)
        except Exception as e:  # SURF's assertion or timeout: its verdict
            surf_error = e
            entry["surf"] = f"FAIL: {type(e).__name__}: {e}"
        finally:
            entry["cycles"] = sb.cycles
            entry["undriven_cycles"] = sb.undriven_cycles
            entry["sim_seconds"] = time.perf_counter() - t0
            if sb.mismatch is not None:
                entry["scoreboard"] = "MISMATCH"
                entry["mismatch_cycle"] = sb.mismatch.cycle
                entry["mismatch_fields"] = sb.mismatch.fields
                entry["report"] = sb.mismatch.report
            _record(entry)
        if surf_error is not None:
            raise surf_error
        dut._log.info(f"scoreboard: {sb.cycles} cycles compared "
                      f"({'ports and registers' if sb.compares_registers else 'ports'}), "
                      f"{'0 mismatches' if sb.mismatch is None else 'a mismatch'}")
        await sb.stop()

    run.__name__ = run.__qualname__ = name
    run.__doc__ = gen.doc
    wrapped = cocotb.test(run)
    wrapped.timeout = gen.timeout
    wrapped.expect_fail = gen.expect_fail
    wrapped.expect_error = set(gen.expect_error)
    wrapped.skip = gen.skip
    wrapped.stage = gen.stage
    return wrapped


for _name, _obj in list(vars(_surf).items()):
    if isinstance(_obj, TestGenerator):
        globals()[_name] = _with_scoreboard(_name, _obj)
