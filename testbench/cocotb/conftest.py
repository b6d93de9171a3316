"""pytest hook: the replay speed of every passed golden set, printed after the run (also -q)."""

import test_runner


def pytest_terminal_summary(terminalreporter):
    if not test_runner.TIMINGS:
        return
    tr = terminalreporter
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
