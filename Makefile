# DCQCN rate limiter: model, RTL, lockstep. `make cosim` and `make test` set up a fresh machine.

CARGO    ?= cargo
RTL      := $(sort $(wildcard rtl/*.sv))
WIDTHS   := 8 32 64

.PHONY: all deps cosim test lint fmt-check clippy unit bench synth fuzz mutants clean help net \
        golden golden-verify golden-check golden-deps

# make fuzz: FUZZ_CASES cases (or FUZZ_SECONDS seconds), FUZZ_SEED, FUZZ_CYCLES per case.
FUZZ_CASES   ?= 2000
FUZZ_SEED    ?= 1
FUZZ_CYCLES  ?= 50000
FUZZ_SECONDS ?=

all: test

help:
	@echo "make cosim   lockstep the model against the RTL over the default suite (>= 50 M cycles)"
	@echo "make test    format, clippy, RTL lint, unit and lockstep tests (what CI runs)"
	@echo "make bench   model / lockstep / bare Verilator speeds in one run"
	@echo "make synth   Yosys synth_xilinx -family xcu resources beside the paper's Table I (HDL=sv|vhdl|both)"
	@echo "make fuzz    model-vs-RTL fuzz campaign on every core (FUZZ_CASES, FUZZ_SECONDS, FUZZ_SEED, FUZZ_CYCLES)"
	@echo "make mutants mutation campaign: generated RTL mutants, each fuzzed for up to 60 s"
	@echo "make golden  regenerate the golden vector sets under golden/ (byte-identical run to run)"
	@echo "make golden-check  replay every golden set on every testbench (Verilator, Icarus, cocotb, GHDL)"
	@echo "make net     the paper's network experiments with the bit-exact senders (out/net/)"
	@echo "make deps    install Verilator, Yosys, Icarus Verilog with apt-get (root)"

deps:
	@scripts/deps.sh

cosim: deps
	$(CARGO) run --release -q -p dcqcn-cli -- cosim $(COSIM_ARGS)

test: deps fmt-check clippy lint unit golden-verify

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

lint:
	@for w in $(WIDTHS); do \
	  echo "verilator --lint-only -Wall DATA_BYTES=$$w"; \
	  verilator --lint-only -Wall -Irtl -GDATA_BYTES=$$w --top-module dcqcn_rl $(RTL) || exit 1; \
	done
	verilator --lint-only -Wall -Irtl --top-module dcqcn_cosim_top $(RTL) verilator/dcqcn_cosim_top.sv
	verilator --lint-only -Wall --timing -Irtl --top-module tb_golden $(RTL) verilator/dcqcn_cosim_top.sv testbench/sv/tb_golden.sv

unit:
	$(CARGO) test --release --workspace

bench: deps
	$(CARGO) bench --workspace --bench speed
	$(CARGO) bench -p dcqcn-net --bench net_speed

# The paper's network experiments (docs/paper-reproduction.md): CSV, SVG, PNG, tables in out/net/.
net:
	$(CARGO) run --release -q -p dcqcn-cli -- net all --out out/net

synth: deps
	@HDL=$(or $(HDL),sv) scripts/synth.sh

# make mutants: MUTANTS generated mutants, each fuzzed for up to MUTANT_SECONDS (report in
# target/mutants/report.txt).
mutants: deps
	python3 scripts/mutants.py

fuzz: deps
	$(CARGO) run --release -q -p dcqcn-cli -- fuzz --seed $(FUZZ_SEED) --cycles $(FUZZ_CYCLES) \
	  --save crates/dcqcn-cosim/tests/fuzz-regressions/seed$(FUZZ_SEED).json \
	  $(if $(FUZZ_SECONDS),--seconds $(FUZZ_SECONDS),--cases $(FUZZ_CASES))

# Golden vectors (docs/golden-format.md).
DCQCN := target/release/dcqcn

$(DCQCN): FORCE
	$(CARGO) build --release -q -p dcqcn-cli

golden: deps $(DCQCN)
	$(DCQCN) golden gen --canonical --out golden

# The model still produces every checked-in set byte for byte (stale vectors fail).
golden-verify: $(DCQCN)
	$(DCQCN) golden verify golden

golden-deps:
	@scripts/deps.sh golden

# Every set on every testbench (the GHDL one twice: on the Yosys netlist of the SystemVerilog and on
# the VHDL twin rtl/vhdl/), then the proof that each testbench rejects damaged vectors.
golden-check: deps golden-deps golden-verify
	testbench/sv/run.sh verilator golden/*/
	testbench/sv/run.sh icarus golden/*/
	python3 -m pytest -q -p no:cacheprovider testbench/cocotb
	testbench/vhdl/run.sh golden/*/
	HDL=vhdl testbench/vhdl/run.sh golden/*/
	python3 testbench/check_negative.py

FORCE:

clean:
	$(CARGO) clean
