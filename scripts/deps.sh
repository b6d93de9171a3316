#!/usr/bin/env bash
# Installs the tools this repository needs (Debian/Ubuntu), only if they are missing.
#   scripts/deps.sh          Verilator, GHDL, Yosys, Icarus Verilog, Python 3, gcc, tclsh, VSG,
#                            systemrdl-compiler, peakrdl-cheader and FuseSoC (make test,
#                            make cosim: the VHDL twin is verilated through `ghdl --synth`)
#   scripts/deps.sh golden   also cocotb 1.9 and pytest (make golden-check)
set -euo pipefail
need=()
command -v verilator >/dev/null || need+=(verilator)
command -v yosys >/dev/null || need+=(yosys)
command -v iverilog >/dev/null || need+=(iverilog)
command -v ghdl >/dev/null || need+=(ghdl)
command -v python3 >/dev/null || need+=(python3)
command -v gcc >/dev/null || need+=(gcc)
command -v tclsh >/dev/null || need+=(tcl)
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
# Register map generators (make regmap, make regmap-check) and FuseSoC (make hdl-package-check),
# pinned: their output is committed or checked
if ! python3 -c 'import systemrdl, peakrdl_cheader, fusesoc, yaml; from importlib.metadata import version as v; import sys; sys.exit(not (v("systemrdl-compiler") == "1.33.0" and v("peakrdl-cheader") == "1.1.0" and v("fusesoc") == "2.4.7"))' 2>/dev/null; then
  echo "installing systemrdl-compiler 1.33.0, peakrdl-cheader 1.1.0 and fusesoc 2.4.7 with pip"
  python3 -m pip install -q 'systemrdl-compiler==1.33.0' 'peakrdl-cheader==1.1.0' 'fusesoc==2.4.7' 2>&1 | grep -v "Running pip as the 'root' user" || true
  python3 -c 'import systemrdl, peakrdl_cheader, fusesoc' || { echo "error: systemrdl-compiler/peakrdl-cheader/fusesoc did not install" >&2; exit 1; }
fi
if [ "${1:-}" = golden ]; then
  if ! python3 -c 'import cocotb, pytest, sys; sys.exit(not cocotb.__version__.startswith("1.9"))' 2>/dev/null; then
    echo "installing cocotb 1.9.2 and pytest with pip"
    python3 -m pip install -q 'cocotb==1.9.2' pytest 2>&1 | grep -v "Running pip as the 'root' user" || true
    python3 -c 'import cocotb, pytest' || { echo "error: cocotb/pytest did not install" >&2; exit 1; }
  fi
fi
