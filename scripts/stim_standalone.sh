#!/bin/sh
# `make stim-standalone`: builds and tests crates/dcqcn-stim as on a machine without Verilator or a
# C++ compiler. PATH holds cargo's directory and a directory of links to /usr/bin and /bin without
# verilator*, c++, g++* and clang++* (cc stays: rustc links with it); CC and CXX are /bin/false,
# so a build script that compiled C or C++ would fail. Its own target directory
# (target/stim-standalone) keeps the workspace's Verilator-built artefacts out of the proof.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cargo_bin=$(dirname "$(command -v cargo)")
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for dir in /usr/bin /bin; do
  for f in "$dir"/*; do
    name=${f##*/}
    case $name in verilator* | *c++* | *g++* | clang++*) continue ;; esac
    [ -e "$bin/$name" ] || ln -s "$f" "$bin/$name"
  done
done
path="$cargo_bin:$bin"
for tool in verilator verilator_bin c++ g++ clang++; do
  if env PATH="$path" sh -c "command -v $tool" >/dev/null 2>&1; then
    echo "stim-standalone: $tool is still on the stripped PATH" >&2
    exit 1
  fi
done
echo "stim-standalone: PATH=$cargo_bin:<links without verilator, c++, g++, clang++> CC=CXX=/bin/false"
cd "$root"
env PATH="$path" CC=/bin/false CXX=/bin/false CARGO_TARGET_DIR="$root/target/stim-standalone" \
  cargo build --release -p dcqcn-stim --all-targets
env PATH="$path" CC=/bin/false CXX=/bin/false CARGO_TARGET_DIR="$root/target/stim-standalone" \
  cargo test --release -p dcqcn-stim
