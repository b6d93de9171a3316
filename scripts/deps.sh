#!/usr/bin/env bash
# Installs the HDL tools this repository needs (Debian/Ubuntu), only if they are missing.
set -euo pipefail
need=()
command -v verilator >/dev/null || need+=(verilator)
command -v yosys >/dev/null || need+=(yosys)
command -v iverilog >/dev/null || need+=(iverilog)
command -v cargo >/dev/null || { echo "error: cargo (Rust stable) is required: https://rustup.rs" >&2; exit 1; }
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "error: missing ${need[*]}; run 'sudo make deps' or 'sudo apt-get install ${need[*]}'" >&2
  exit 1
fi
echo "installing ${need[*]} with apt-get"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
