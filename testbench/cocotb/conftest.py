"""pytest hooks: the replay speed of every passed golden set and of every scoreboard run, printed
after the run (also -q); the scoreboard examples run only when named (make scoreboard), not with
the golden sets (`pytest testbench/cocotb`, make golden-check)."""

from pathlib import Path

import test_runner


def pytest_ignore_collect(collection_path, config):
    if collection_path.name != "test_scoreboard.py":
        return None
    named = any(Path(a.split("::")[0]).resolve() == collection_path.resolve() for a in config.args)
    return not named


def pytest_terminal_summary(terminalreporter):
    tr = terminalreporter
    import sys
    sb = sys.modules.get("test_scoreboard")
    if sb is not None and sb.SPEEDS:
        tr.section("scoreboard speed (cocotb + dcqcn_model, whole flow)")
        tr.write_line(f"{'simulator':<13} {'config':<15} {'cycles':>8} {'s':>8} {'cycles/s':>9}")
        for sim, config, n, s in sb.SPEEDS:
            tr.write_line(f"{sim:<13} {config:<15} {n:>8} {s:>8.2f} {n / s if s else 0:>9.0f}")
    if not test_runner.TIMINGS:
        return
    tr.section("golden replay speed (cocotb)")
    tr.write_line(f"{'hdl':<5} {'set':<31} {'cycles':>8} {'replay s':>9} {'cycles/s':>9} "
                  f"{'run s':>7}")
    for hdl, name, cycles, replay, run in test_runner.TIMINGS:
        rate = cycles / replay if replay > 0 else 0
        tr.write_line(f"{hdl:<5} {name:<31} {cycles:>8} {replay:>9.2f} {rate:>9.0f} {run:>7.2f}")
    for hdl in sorted({t[0] for t in test_runner.TIMINGS}):
        rows = [t for t in test_runner.TIMINGS if t[0] == hdl]
        cycles = sum(t[2] for t in rows)
        replay = sum(t[3] for t in rows)
        run = sum(t[4] for t in rows)
        tr.write_line(f"{hdl:<5} {'total, ' + str(len(rows)) + ' sets':<31} {cycles:>8} "
                      f"{replay:>9.2f} {cycles / replay if replay else 0:>9.0f} {run:>7.2f}")
