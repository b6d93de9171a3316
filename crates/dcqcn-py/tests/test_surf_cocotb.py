"""Bad input to scripts/surf_cocotb.py (make surf-cocotb): one line naming what is missing, exit
2, before anything is built. A fake checkout holds the files the script looks for (no SURF, no
GHDL needed); the planted defects are checked on a stand-in of each block line they change.
"""

import importlib.util
import pathlib

import pytest

from dcqcn_model import SURF_PORTS

ROOT = pathlib.Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("surf_cocotb", ROOT / "scripts" / "surf_cocotb.py")
sc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sc)


def wrapper(ports):
    decl = ";\n      ".join(f"{p} : in sl" for p in ports)
    return (f"-- a wrapper\nentity RoCEv2DcqcnWrapper is\n   generic (TPD_G : time := 1 ns);\n"
            f"   port (\n      {decl});\nend entity RoCEv2DcqcnWrapper;\n")


def checkout(tmp_path, ports=None, test_module=True, helpers=True):
    for f in sc.BASE_FILES + sc.BLOCK_FILES:
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text("-- stand-in\n")
    (tmp_path / sc.WRAPPER_FILE).write_text(wrapper(ports or SURF_PORTS))
    if test_module:
        p = tmp_path / sc.TEST_FILE
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("@cocotb.test()\nasync def a_test(dut):\n    pass\n")
    if helpers:
        for f in ("tests/axi/utils.py", "tests/common/regression_utils.py"):
            (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / f).write_text("\n")
    return tmp_path


def run(monkeypatch, capsys, *args):
    monkeypatch.setattr("sys.argv", ["surf_cocotb.py", *map(str, args)])
    code = sc.main()
    err = capsys.readouterr().err.strip().splitlines()
    return code, err


def test_missing_directory(tmp_path, monkeypatch, capsys):
    code, err = run(monkeypatch, capsys, "--surf-dir", tmp_path / "nope")
    assert code == 2 and len(err) == 1 and "no such directory" in err[0]


def test_checkout_without_the_test_module(tmp_path, monkeypatch, capsys):
    code, err = run(monkeypatch, capsys, "--surf-dir", checkout(tmp_path, test_module=False))
    assert code == 2 and len(err) == 1
    assert err[0].endswith("no SURF test module of the block: missing "
                           "tests/ethernet/RoCEv2/test_RoCEv2Dcqcn.py")


def test_checkout_without_the_helpers(tmp_path, monkeypatch, capsys):
    code, err = run(monkeypatch, capsys, "--surf-dir", checkout(tmp_path, helpers=False))
    assert code == 2 and len(err) == 1
    assert "missing tests/axi/utils.py, tests/common/regression_utils.py" in err[0]


def test_checkout_without_the_block(tmp_path, monkeypatch, capsys):
    d = checkout(tmp_path)
    (d / "ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd").unlink()
    code, err = run(monkeypatch, capsys, "--surf-dir", d)
    assert code == 2 and len(err) == 1
    assert err[0].endswith("no RoCEv2Dcqcn block: missing ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd")


def test_without_cocotbext_axi(tmp_path, monkeypatch, capsys):
    # every other package found (cocotb need not be installed for this test)
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "cocotbext.axi" else object())
    code, err = run(monkeypatch, capsys, "--surf-dir", checkout(tmp_path))
    assert code == 2 and len(err) == 1
    assert "`cocotbext.axi` is not installed: pip install cocotbext-axi" in err[0]


def test_wrapper_whose_ports_differ(tmp_path, monkeypatch, capsys):
    ports = [p for p in SURF_PORTS if p != "cnp"] + ["cnp_in"]
    code, err = run(monkeypatch, capsys, "--surf-dir", checkout(tmp_path, ports=ports))
    assert code == 2 and len(err) == 1
    assert err[0].endswith("differ from the ones the scoreboard attaches to: missing cnp; "
                           "unexpected cnp_in")


def test_port_names_ignore_comments_and_case():
    text = wrapper(SURF_PORTS).replace("cnp : in sl", "-- cnp_old : in sl\n      CNP : in sl")
    assert sc.entity_ports(text) == [p.lower() for p in SURF_PORTS]


def test_unknown_test_and_case(tmp_path, monkeypatch, capsys):
    d = checkout(tmp_path)
    monkeypatch.setattr(sc.shutil, "which", lambda n: "/bin/true")
    # the Python packages taken as installed: the argument checks come after them, and a fresh
    # machine runs this test before make golden-check installs cocotb
    monkeypatch.setattr(sc, "check_python", lambda: None)
    code, err = run(monkeypatch, capsys, "--surf-dir", d, "--test", "nope")
    assert code == 2 and err == [f"surf-cocotb: --test nope: not a test of {sc.TEST_FILE} "
                                 "(it has a_test)"]
    code, err = run(monkeypatch, capsys, "--surf-dir", d, "--defects", "--case", "nope")
    assert code == 2 and len(err) == 1 and "--case nope: not one of none, alpha-rounding" in err[0]


# The lines each defect changes, as the block files at the commits of docs/surf-lockstep.md have
# them (one line each, with the neighbouring lines that make the match unique).
BLOCK_LINES = {
    "ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd":
        "            if cnpDetected = '1' then\n"
        "               multRound         := mult + 512;\n"
        "            else\n"
        "               mult               := curAlpha * AlphaG;\n"
        "               -- multS := (mult + 512) srl 10;\n"
        "               multRound         := mult + 512;\n",
    "ethernet/RoCEv2/rtl/RoCEv2RateDecProc.vhd":
        "            if r.timer >= rateDecInterval then\n"
        "               v.mult      := curRc * alpha;\n",
}


@pytest.mark.parametrize("name", [d[0] for d in sc.DEFECTS])
def test_each_defect_changes_one_line(tmp_path, name):
    for rel, text in BLOCK_LINES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    rel, copy, before, after = sc.plant(tmp_path, tmp_path / "work", name)
    old = (tmp_path / rel).read_text().splitlines()
    new = copy.read_text().splitlines()
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new)) == 1
    want = {"alpha-rounding": ("line 6: multRound         := mult + 512;", "multRound         := mult;"),
            "decrease-multiply": ("line 2: v.mult      := curRc * alpha;",
                                  "v.mult      := curRc * (alpha - 1);"),
            "decrease-timer": ("line 1: if r.timer >= rateDecInterval then",
                               "if r.timer > rateDecInterval then")}[name]
    assert (before, after) == want
