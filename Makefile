# DCQCN rate limiter: model, RTL, lockstep. `make cosim` and `make test` set up a fresh machine.

CARGO    ?= cargo
RTL      := $(sort $(wildcard rtl/*.sv))
WIDTHS   := 8 32 64

.PHONY: all deps cosim test lint fmt-check import-cycles clippy unit bench bench-instructions synth fuzz mutants clean help net net-surf net-mq net-nscc advcam sweep fuzz-parsers stim-standalone \
        golden golden-verify golden-check golden-check-cocotb-vhdl golden-check-netlist golden-deps \
        python python-test scoreboard

# HDL selects the RTL description: sv (rtl/*.sv), vhdl (the twin rtl/vhdl/) or both. Defaults:
# make cosim both, make fuzz sv, make mutants sv.
HDL ?=

# make fuzz: FUZZ_CASES cases (or FUZZ_SECONDS seconds), FUZZ_SEED, FUZZ_CYCLES per case; then
# make fuzz-mq (FUZZ_MQ_CASES, FUZZ_MQ_SECONDS, FUZZ_MQ_CYCLES, below).
FUZZ_CASES   ?= 2000
FUZZ_SEED    ?= 1
FUZZ_CYCLES  ?= 50000
FUZZ_SECONDS ?=

all: test

help:
	@echo "make cosim   lockstep the model against the RTL over the default suite (>= 50 M cycles), SV and VHDL (HDL=sv|vhdl|both),"
	@echo "             full and base feature configurations (FEATURES=full|base|all; docs/spec.md 2); then the multi-QP"
	@echo "             block dcqcn_mq, every scenario at QPS 4, 64, 1024 and 4096, and 48 M more cycles at 1024 (docs/spec-mq.md)"
	@echo "make test    format, clippy, RTL lint, unit and lockstep tests (what CI runs)"
	@echo "make lint    Verilator -Wall on the SV; GHDL analysis (warnings are errors) and VSG on the VHDL twin"
	@echo "make bench   model / lockstep / bare Verilator speeds in one run"
	@echo "make synth   Yosys synth_xilinx -family xcu resources, base and full configurations, SV and VHDL, beside the paper's"
	@echo "             Table I and upstream SURF (SURF_DIR=...); LUT spread over SYNTH_RUNS runs (HDL, SYNTH_FLOW; scripts/synth.sh)"
	@echo "make synth-mq  the same flow for the multi-QP block dcqcn_mq at SYNTH_MQ_QPS (default 64 1024), SV and VHDL;"
	@echo "             fails when a state memory is not block RAM or the VHDL is > 5 % above the SV (scripts/synth_mq.py)"
	@echo "make formal  Yosys proof that the SV and the VHDL twin are sequentially equivalent (FORMAL_WIDTHS, default 8 32 64;"
	@echo "             the base configuration at FORMAL_BASE_WIDTHS, default 8; dcqcn_mq_core at FORMAL_MQ_QPS, default 4,"
	@echo "             and its picker at FORMAL_MQ_RR_N, default 64 65 (4096 proven on request); docs/formal.md)"
	@echo "make formal-negative  the same proof on one-line mutants (one SV, one VHDL): it must fail on the named signal"
	@echo "make formal-rev REV=<rev>  the SV proven equal to the SV at a git revision (a change meant to keep behaviour)"
	@echo "make fuzz    model-vs-RTL fuzz campaign on every core (FUZZ_CASES, FUZZ_SECONDS, FUZZ_SEED, FUZZ_CYCLES, HDL),"
	@echo "             then make fuzz-mq: the multi-QP block's campaign (FUZZ_MQ_CASES, FUZZ_MQ_SECONDS, FUZZ_MQ_CYCLES)"
	@echo "make mutants mutation campaign: generated RTL mutants, each fuzzed for up to 60 s (HDL=sv|vhdl)"
	@echo "make mutants-mq  the mutation campaign on the multi-QP block: its 12 scenarios, then its fuzzer (HDL=sv|vhdl|both)"
	@echo "make golden  regenerate the golden vector sets under golden/ (byte-identical run to run)"
	@echo "make golden-check  replay every golden set on every testbench (Verilator, Icarus, cocotb, GHDL on the VHDL twin)"
	@echo "                   (cocotb on GHDL and the VHDL twin: a subset; all: make golden-check-cocotb-vhdl)"
	@echo "make golden-check-cocotb-vhdl  every golden set with cocotb on GHDL and the VHDL twin"
	@echo "make golden-check-netlist      every golden set on GHDL with the Yosys netlist of the SV"
	@echo "make golden-check-base  every set that lists the base configuration on Verilator, Icarus and GHDL (VHDL twin)"
	@echo "make nscc-ack-check  NSCC's ACK process nscc_mq_ack_exec (SV on Verilator, VHDL on GHDL) against NSCC_ACK_COUNT"
	@echo "             vectors of the bit-exact model (default 20000, NSCC_ACK_SEED; docs/spec-nscc.md 5, 6)"
	@echo "make net     the paper's network experiments with the bit-exact senders (out/net/)"
	@echo "make net-surf  fig9, fig12, fig13, fig14 with the upstream SURF block as every sender (out/net-surf/)"
	@echo "make net-mq    64 QPs on 4 NICs on the multi-QP block into one receiver (out/net/mq-incast/)"
	@echo "make net-nscc  NSCC senders: seed 004's memory-bound incast, fig12's incast beside DCQCN (out/net/nscc-*/)"
	@echo "make stim-standalone  build and test crates/dcqcn-stim without Verilator or a C++ compiler on PATH"
	@echo "make fuzz-parsers  every input parser on PARSER_FUZZ_CASES arbitrary inputs (default 100000)"
	@echo "make surf-cocotb SURF_DIR=...  SURF's own cocotb test of RoCEv2Dcqcn with the upstream model as scoreboard (GHDL)"
	@echo "make surf-cocotb-defects SURF_DIR=...  three planted defects: SURF's verdict and the scoreboard's"
	@echo "make python  pip-install the Python package dcqcn-model (import dcqcn_model) from crates/dcqcn-py"
	@echo "make python-test  clippy on the PyO3 layer, then pytest of the package (make test runs it)"
	@echo "make scoreboard    the cocotb scoreboard examples on Icarus, Verilator and GHDL, with a planted defect"
	@echo "make deps    install Verilator, Yosys, Icarus Verilog with apt-get (root)"
	@echo "make gen     regenerate every copy of the comparison record (crates/dcqcn-gen) and of the register map (make regmap)"
	@echo "make gen-check  fail when a file generated from the snapshot! list is stale (make test runs it)"
	@echo "make regmap  regenerate the spec 6.2 tables, C header, PyRogue device, JSON and Rust regmap from regmap/dcqcn_regs.rdl,"
	@echo "             those of the multi-QP block (spec-mq 6) from regmap/dcqcn_mq_regs.rdl and of nscc_mq"
	@echo "             (spec-nscc 8) from regmap/nscc_mq_regs.rdl"
	@echo "make regmap-check  fail when a generated register-map file is stale; C header and PyRogue tests"
	@echo "make hdl-package-check  FuseSoC core (lint, VHDL, Icarus sim targets) and the RTL file lists against rtl/"

deps:
	@scripts/deps.sh

# The multi-QP block's variants at QPS 4, 64, 1024 and 4096 (make test builds 4 and 64): every
# scenario at 4, 64 and 1024 (4.6 M compared cycles each); then QPS 1024 again with the seeds
# COSIM_MQ_1024_SEEDS, COSIM_MQ_1024_CYCLES cycles per scenario: 4.6 M + 4 x 12 x 0.5 M x 2 HDLs =
# 52.6 M compared cycles at QPS 1024 (issue 29 asks >= 50 M); then every scenario at 4096, the
# largest QPS (spec-mq 9), COSIM_MQ_4096_CYCLES each: 0.48 M compared cycles in about 12 min on 2
# cores, as the VHDL twin's Verilator model runs 850 cycles/s there and each whole-memory comparison
# reads 19 copies x 4096 entries through it.
COSIM_MQ_1024_SEEDS ?= 2 3 4 5
COSIM_MQ_1024_CYCLES ?= 500000
COSIM_MQ_4096_CYCLES ?= 20000
cosim: export DCQCN_MQ_QPS = 4,64,1024,4096
cosim: deps
	$(CARGO) run --release -q -p dcqcn-cli -- cosim --hdl $(or $(HDL),both) --features $(or $(FEATURES),all) $(COSIM_ARGS)
	@for q in 4 64 1024; do \
	  echo "QPS $$q, every scenario:"; \
	  $(CARGO) run --release -q -p dcqcn-cli -- cosim --block mq --hdl $(or $(HDL),both) --qps $$q \
	    --scenario all $(COSIM_MQ_ARGS) || exit 1; done
	@for s in $(COSIM_MQ_1024_SEEDS); do \
	  echo "QPS 1024, seed $$s, $(COSIM_MQ_1024_CYCLES) cycles per scenario:"; \
	  $(CARGO) run --release -q -p dcqcn-cli -- cosim --block mq --hdl $(or $(HDL),both) --qps 1024 \
	    --scenario all --seed $$s --cycles $(COSIM_MQ_1024_CYCLES) $(COSIM_MQ_ARGS) || exit 1; done
	@echo "QPS 4096, $(COSIM_MQ_4096_CYCLES) cycles per scenario:"
	$(CARGO) run --release -q -p dcqcn-cli -- cosim --block mq --hdl $(or $(HDL),both) --qps 4096 \
	  --scenario all --cycles $(COSIM_MQ_4096_CYCLES) $(COSIM_MQ_ARGS)

test: deps fmt-check import-cycles clippy lint unit golden-verify gen-check regmap-check hdl-package-check python-test nscc-ack-check

fmt-check:
	$(CARGO) fmt --all -- --check

# No source file of a crate imports another that imports it back (parent/child modules aside).
import-cycles:
	python3 scripts/import_cycles.py

clippy:
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

# VHDL twin and its cosim wrappers: GHDL analysis with SURF CI's flags and every GHDL 2.0 warning
# enabled, -Werror (GHDL 2.0 also takes --warn-error) making each an error (workdir under target/,
# nothing written beside the sources), then VSG with its config; VSG exits 0 on warning-severity
# violations, so any line of its report fails too.
lint: VHDL_LINT := $(addprefix rtl/vhdl/,dcqcn_pkg.vhd dcqcn_tap_pkg.vhd dcqcn_cnp_sync.vhd \
  dcqcn_alpha.vhd dcqcn_rate_dec.vhd dcqcn_rate_inc.vhd dcqcn_credit_gate.vhd dcqcn_regs.vhd \
  dcqcn_rl.vhd)
lint: VHDL_LINT += $(filter-out $(VHDL_LINT),$(sort $(wildcard rtl/vhdl/*.vhd))) \
  testbench/vhdl/dcqcn_cosim_top_vhdl.vhd testbench/vhdl/dcqcn_cosim_top_tap.vhd
lint: GHDL_LINT_FLAGS := --std=08 -fsynopsys -frelaxed-rules -fexplicit -Werror -Wbinding \
  -Wreserved -Wlibrary -Wdelayed-checks -Wbody -Wspecs -Wunused -Wparenthesis -Wnested-comment \
  -Wdirective -Wport -Wpure -Wanalyze-assert -Wattribute -Wuseless -Wothers -Wstatic -Wshared \
  -Wpragma -Wruntime-error -Wport-bounds -Whide -Wdefault-binding
lint:
	@for w in $(WIDTHS); do \
	  echo "verilator --lint-only -Wall DATA_BYTES=$$w"; \
	  verilator --lint-only -Wall -Irtl -GDATA_BYTES=$$w --top-module dcqcn_rl $(RTL) || exit 1; \
	done
	@echo "verilator --lint-only -Wall base configuration (RATE_RULES=0 CONTROL=0 TRACE_DEPTH=0)"
	@verilator --lint-only -Wall -Irtl -GRATE_RULES=0 -GCONTROL=0 -GTRACE_DEPTH=0 --top-module dcqcn_rl $(RTL)
	verilator --lint-only -Wall -Irtl --top-module dcqcn_cosim_top $(RTL) verilator/dcqcn_cosim_top.sv
	verilator --lint-only -Wall --timing -Irtl -Itestbench/sv --top-module tb_golden $(RTL) verilator/dcqcn_cosim_top.sv testbench/sv/tb_golden.sv
	verilator --lint-only -Wall --timing -Irtl/mq -Itestbench/sv --top-module tb_golden_mq -f rtl/mq/files.f testbench/sv/tb_golden_mq.sv
	rm -rf target/lint/ghdl && mkdir -p target/lint/ghdl
	ghdl -a $(GHDL_LINT_FLAGS) --workdir=target/lint/ghdl $(VHDL_LINT)
	@echo "vsg -c rtl/vhdl/vsg.yaml -ap (any error or warning fails)"
	@vsg -c rtl/vhdl/vsg.yaml -ap -of syntastic -p 1 -f $(VHDL_LINT) >target/lint/vsg.txt; s=$$?; \
	  cat target/lint/vsg.txt; \
	  if [ $$s -ne 0 ] || grep -q . target/lint/vsg.txt; then echo "vsg: violations (above)"; exit 1; fi
	@# the multi-QP block (docs/spec-mq.md): SV at QPS 1, 4, 65, 1024 and 4096 (core and top), the VHDL
	@# twin (its own work library: it shares no unit with dcqcn_rl's) with the same flags and VSG
	@for q in 1 4 65 1024 4096; do for top in dcqcn_mq_core dcqcn_mq; do \
	  echo "verilator --lint-only -Wall $$top QPS=$$q"; \
	  verilator --lint-only -Wall -Irtl/mq -GQPS=$$q --top-module $$top -f rtl/mq/files.f || exit 1; \
	done; done
	rm -rf target/lint/ghdl-mq && mkdir -p target/lint/ghdl-mq
	ghdl -a $(GHDL_LINT_FLAGS) --workdir=target/lint/ghdl-mq $$(cat rtl/vhdl/mq/files.f)
	@vsg -c rtl/vhdl/vsg.yaml -ap -of syntastic -p 1 -f $$(cat rtl/vhdl/mq/files.f) >target/lint/vsg-mq.txt; s=$$?; \
	  cat target/lint/vsg-mq.txt; \
	  if [ $$s -ne 0 ] || grep -q . target/lint/vsg-mq.txt; then echo "vsg: violations (above)"; exit 1; fi
	@# NSCC's ACK process (docs/spec-nscc.md 5, 6): SV, and the VHDL twin in its own work library
	verilator --lint-only -Wall -Irtl/nscc --top-module nscc_mq_ack_exec -f rtl/nscc/files.f
	verilator --lint-only -Wall -Irtl/nscc --top-module nscc_ack_top -f rtl/nscc/files.f verilator/nscc_ack/nscc_ack_top.sv
	rm -rf target/lint/ghdl-nscc && mkdir -p target/lint/ghdl-nscc
	ghdl -a $(GHDL_LINT_FLAGS) --workdir=target/lint/ghdl-nscc $$(cat rtl/vhdl/nscc/files.f)
	@vsg -c rtl/vhdl/vsg.yaml -ap -of syntastic -p 1 -f $$(cat rtl/vhdl/nscc/files.f) >target/lint/vsg-nscc.txt; s=$$?; \
	  cat target/lint/vsg-nscc.txt; \
	  if [ $$s -ne 0 ] || grep -q . target/lint/vsg-nscc.txt; then echo "vsg: violations (above)"; exit 1; fi

unit:
	$(CARGO) test --release --workspace

# dcqcn-stim (stimulus, scenarios, coverage, state injection, fuzz cases, golden vectors) builds and
# tests with neither Verilator nor a C++ compiler (scripts/stim_standalone.sh says how).
stim-standalone:
	scripts/stim_standalone.sh

# Parser fuzz targets (issue #11, docs/inputs.md): PARSER_FUZZ_CASES inputs per input format
# (make test runs 1000 each); the tally file counts what each target ran.
PARSER_FUZZ_CASES ?= 100000
# The Python package's argument conversion too (crates/dcqcn-py/tests/test_hypothesis.py):
# PY_FUZZ_EXAMPLES hypothesis examples per target; 7 targets of 17 calls per 7 examples, so the
# default 60000 makes about 10^6 calls.
PY_FUZZ_EXAMPLES ?= 60000
fuzz-parsers: python
	rm -f target/parser-fuzz-tally.txt
	PARSER_FUZZ_CASES=$(PARSER_FUZZ_CASES) PARSER_FUZZ_TALLY=$(CURDIR)/target/parser-fuzz-tally.txt \
	  $(CARGO) test --release -p dcqcn-harness --test parser_fuzz -p dcqcn-net --test parser_fuzz \
	  -p dcqcn-stim --test parser_fuzz
	sort target/parser-fuzz-tally.txt | uniq -c
	HYPOTHESIS_EXAMPLES=$(PY_FUZZ_EXAMPLES) $(PYTHON) -m pytest -q -p no:cacheprovider \
	  crates/dcqcn-py/tests/test_hypothesis.py

# Instructions per cycle of the same harnesses under callgrind (valgrind): the figure that compares
# two versions of the code on a shared machine, where the wall clock cannot.
bench-instructions: deps
	$(CARGO) build --release -q -p dcqcn-cosim --example per_cycle
	scripts/bench_instructions.sh target/release/examples/per_cycle

# The multi-QP block's bench (crates/dcqcn-cosim/benches/mq_speed.rs) needs its QPS 1024 variants.
bench: export DCQCN_MQ_QPS = 4,64,1024
bench: deps
	$(CARGO) bench --workspace --bench speed
	$(CARGO) bench -p dcqcn-cosim --bench mq_speed
	$(CARGO) bench -p dcqcn-net --bench net_speed
	@echo "make cosim's suite (both HDLs) on one thread, then on every core:"
	@$(CARGO) run --release -q -p dcqcn-cli -- cosim --hdl both --jobs 1 | grep '^wall:'
	@$(CARGO) run --release -q -p dcqcn-cli -- cosim --hdl both | grep '^wall:'

# The paper's network experiments (docs/paper-reproduction.md): CSV, SVG, PNG, tables in out/net/.
net:
	$(CARGO) run --release -q -p dcqcn-cli -- net all --out out/net

# The same experiments with the upstream SURF block's model as every sender (profile surf; it steps
# every cycle, about 5 minutes on one core).
net-surf:
	for f in fig9 fig12 fig13 fig14; do \
	  $(CARGO) run --release -q -p dcqcn-cli -- net $$f --profile surf --out out/net-surf || exit $$?; \
	done

# 64 QPs on 4 NICs, each NIC the multi-QP block stepped every cycle (profile mq; about 40 s of one
# core; docs/paper-reproduction.md, mq-incast).
net-mq:
	$(CARGO) run --release -q -p dcqcn-cli -- net mq-incast --out out/net

# NSCC senders (profile nscc): seed 004's memory-bound incast with and without rcv_cwnd_pend, and
# fig12's incast beside DCQCN (docs/paper-reproduction.md, NSCC senders).
net-nscc:
	$(CARGO) run --release -q -p dcqcn-cli -- net nscc-incast --out out/net
	$(CARGO) run --release -q -p dcqcn-cli -- net nscc-fig12 --out out/net

# The AdvCam funnel (docs/advcam.md) and the Table II collapse map (docs/net-sweep.md).
advcam:
	$(CARGO) run --release -q -p dcqcn-cli -- net advcam --out out/net/advcam
sweep:
	$(CARGO) run --release -q -p dcqcn-cli -- net sweep --x registers.inc_interval=500us..64000us:8 \
	  --y receiver.cnp_interval=4us..1024us:5 --duration 0.2 --out out/net/sweep

# make synth: one table of resources (scripts/synth.sh lists its variables: HDL, SURF_DIR, SYNTH_RUNS,
# SYNTH_SURF_RUNS, SYNTH_FLOW, SYNTH_JOBS, DATA_BYTES); exit 1 names each failing figure.
synth: deps
	@HDL=$(or $(HDL),both) SURF_DIR=$(SURF_DIR) scripts/synth.sh

# make synth-mq: the multi-QP block dcqcn_mq through the same flow, SV and VHDL at each QPS of
# SYNTH_MQ_QPS (spec-mq 9 names 64, 1024 and 4096; the default, 64 and 1024, takes about 50 min on
# 2 shared cores, one HDL at 1024 17-25 min of which ABC9 most; 4096 has four times the bitmaps and
# is left out), SYNTH_MQ_RUNS runs per column (default 1), HDL=sv|vhdl|both, SYNTH_FLOW;
# SYNTH_MQ_MEMORY_ONLY=1 stops after the memory mapping (the memory checks in minutes, also at 4096).
# One Yosys at a time; statistics reused while netlist, script and Yosys are the same. Exit 1 names
# each failing figure: a state-memory copy without the block-RAM attribute or not mapped to block
# RAM, the VHDL twin more than 5 % above the SV in LUT or FF, a latch (scripts/synth_mq.py).
.PHONY: synth-mq
SYNTH_MQ_QPS ?= 64 1024
SYNTH_MQ_RUNS ?= 1
synth-mq: deps
	python3 scripts/synth_mq.py --qps $(SYNTH_MQ_QPS) --runs $(SYNTH_MQ_RUNS) --hdl $(or $(HDL),both) \
	  --flow $(or $(SYNTH_FLOW),yowasp) $(if $(SYNTH_MQ_MEMORY_ONLY),--memory-only)

# make formal: equivalence of rtl/*.sv and rtl/vhdl/*.vhd for each beat width (docs/formal.md).
.PHONY: formal formal-negative
FORMAL_WIDTHS ?= 8 32 64
FORMAL_BASE_WIDTHS ?= 8
# The multi-QP block (docs/formal.md, "The multi-QP block"): dcqcn_mq_core at FORMAL_MQ_QPS and the
# picker dcqcn_mq_rr on its own at FORMAL_MQ_RR_N (scripts/formal_mq.py). The core at QPS 4 is in
# the default: it is proven in about 1.5 min of CPU (step and reset; `make formal FORMAL_MQ_QPS=`
# leaves it out). QPS 1 (spec-mq 9) cannot be run: GHDL 2.0's synthesis stops with an internal
# error on the 1-entry RAMs it has there. The picker at N = 4096 (spec-mq 9) takes about 6.5 min of
# CPU: `make formal FORMAL_MQ_RR_N="64 65 4096"`.
FORMAL_MQ_QPS ?= 4
FORMAL_MQ_RR_N ?= 64 65
formal: deps
	python3 scripts/formal.py --data-bytes $(FORMAL_WIDTHS) --base-data-bytes $(FORMAL_BASE_WIDTHS)
	python3 scripts/formal_mq.py --qps $(FORMAL_MQ_QPS) --rr-n $(FORMAL_MQ_RR_N)

# make formal-rev REV=<rev>: the SV of the work tree proven equal to the SV at git revision REV
# (scripts/equiv_rev.py; Yosys equiv_make/equiv_simple/equiv_induct on the flattened designs,
# TRACE_DEPTH 0: the trace memory makes the induction too slow, and the trace's write data is, in
# the event cycles that write it, the Rc register's next state, which is proven). REV_UNPAIR: the
# nets that kept their name but not their meaning (the default: those of the shared rate ceiling
# and of the single Rt comparison, docs/spec.md 4.6, and of the table-and-tree read multiplexer).
REV ?= HEAD
REV_UNPAIR ?= rc_dec rt_dec u_rate_dec.rc_dec u_rate_dec.rt_dec u_rate_inc.rc_dec u_rate_inc.rt_dec \
  u_rate_inc.rt_clamped u_rate_inc.rc_avg u_rate_inc.rc_sum u_regs.rc_next u_regs.trace_wdata \
  u_regs.rword u_regs.rmapped
.PHONY: formal-rev
formal-rev: deps
	python3 scripts/equiv_rev.py --rev $(REV) --set TRACE_DEPTH=0 $(addprefix --unpair ,$(REV_UNPAIR))

# make formal-negative: an injected difference (a mutant of verilator/mutants/ applied to a copy under
# target/formal/) must make the proof fail, on the signal the mutant changes.
formal-negative: deps
	python3 scripts/formal.py --data-bytes 8 --work target/formal/neg-gate-strict --expect-fail \
	  --mutant verilator/mutants/gate-strict.toml --expect-differ s_axis_tready
	python3 scripts/formal.py --data-bytes 8 --work target/formal/neg-vhdl-cnt-stall-no-reset --expect-fail \
	  --mutant verilator/mutants/vhdl-cnt-stall-no-reset.toml --expect-differ next:u_regs.r.cnt.cnt_stall
	python3 scripts/formal.py --data-bytes 8 --work target/formal/neg-vhdl-trace-window-63 --expect-fail \
	  --mutant verilator/mutants/vhdl-trace-window-63.toml --expect-differ next:u_regs.r.trace.count
	python3 scripts/formal_mq.py --qps 4 --rr-n --work target/formal/neg-mq-rpt-bytes-in-init --expect-fail \
	  --mutant verilator/mutants/mq/mq-rpt-bytes-in-init.toml --expect-differ next:u_rpt.r.rx_bytes
	python3 scripts/formal_mq.py --qps 4 --rr-n --work target/formal/neg-mq-vhdl-spurious-counts-drops --expect-fail \
	  --mutant verilator/mutants/mq/mq-vhdl-spurious-counts-drops.toml --expect-differ next:u_regs.r.cnt.cnt_rpt_spurious

# make mutants: MUTANTS generated mutants (a sample stratified by block and category, seed
# MUTANT_SAMPLE_SEED), each built at the rate sets MUTANT_RATES and fuzzed for up to MUTANT_SECONDS
# with the default campaign and MUTANT_BEFORE_SECONDS without injection and variants (report in
# target/mutants/report.txt; docs/mutation.md). MUTANT_SINCE=<rev>: only mutants of the rtl/ lines
# changed since that revision (a campaign on what a change added).
mutants: deps
	python3 scripts/mutants.py --hdl $(or $(HDL),sv)

# make mutants-mq: the same campaign on the multi-QP block (rtl/mq/, rtl/vhdl/mq/; HDL=sv|vhdl|both,
# default both): MUTANTS mutants per HDL (default 24), each built as a dcqcn_mq_core variant at QPS 4
# and run through the 12 multi-QP scenarios (MUTANT_MQ_CYCLES cycles each) at the seeds
# MUTANT_MQ_SEEDS in turn, then, if it survives them, the multi-QP fuzzer (MUTANT_MQ_FUZZ_CASES
# cases of MUTANT_MQ_FUZZ_CYCLES cycles), after a control run on the correct RTL (report and
# results.json in target/mutants-mq/<hdl>/; docs/mutation.md).
.PHONY: mutants-mq
mutants-mq: deps
	python3 scripts/mutants.py --block mq --hdl $(or $(HDL),both) --sample $(or $(MUTANTS),24) --jobs 1

fuzz: deps
	$(CARGO) run --release -q -p dcqcn-cli -- fuzz --hdl $(or $(HDL),sv) --seed $(FUZZ_SEED) --cycles $(FUZZ_CYCLES) \
	  --save crates/dcqcn-cosim/tests/fuzz-regressions/seed$(FUZZ_SEED).json \
	  $(if $(FUZZ_SECONDS),--seconds $(FUZZ_SECONDS),--cases $(FUZZ_CASES))
	$(MAKE) fuzz-mq

# make fuzz-mq (also run by make fuzz): the multi-QP block's campaign (docs/spec-mq.md 8.3, 8.4),
# FUZZ_MQ_CASES cases (or FUZZ_MQ_SECONDS seconds) of FUZZ_MQ_CYCLES cycles at every built QPS,
# coverage table of spec-mq 8.4 at the end.
FUZZ_MQ_CASES   ?= 400
FUZZ_MQ_CYCLES  ?= 20000
FUZZ_MQ_SECONDS ?=
.PHONY: fuzz-mq
fuzz-mq: deps
	$(CARGO) run --release -q -p dcqcn-cli -- fuzz --block mq --hdl $(or $(HDL),sv) --seed $(FUZZ_SEED) \
	  --cycles $(FUZZ_MQ_CYCLES) --save crates/dcqcn-cosim/tests/fuzz-regressions/mq-seed$(FUZZ_SEED).json \
	  $(if $(FUZZ_MQ_SECONDS),--seconds $(FUZZ_MQ_SECONDS),--cases $(FUZZ_MQ_CASES))

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
# the VHDL twin rtl/vhdl/), then the proof that each testbench rejects damaged vectors. cocotb runs
# every set on Verilator and, on GHDL with the VHDL twin, the subset COCOTB_VHDL_SETS (the whole
# canonical set takes over 10 min there: make golden-check-cocotb-vhdl).
# The model of the upstream SURF block lock-stepped against your SURF checkout (docs/surf-lockstep.md).
.PHONY: surf-cosim
surf-cosim: $(DCQCN)
	@test -n "$(SURF_DIR)" || { echo "usage: make surf-cosim SURF_DIR=/path/to/surf" >&2; exit 2; }
	$(DCQCN) cosim --rtl surf --surf-dir $(SURF_DIR) $(SURF_COSIM_ARGS)

# SURF's own cocotb test of the block (tests/ethernet/RoCEv2/test_RoCEv2Dcqcn.py of your checkout,
# unmodified) with the upstream model as a scoreboard beside each of its tests, on GHDL; scratch
# under target/surf-cocotb/ (docs/surf-lockstep.md). cocotb 2 comes from scripts/deps.sh golden,
# the Python package from make python, and cocotbext-axi and cocotb-test (SURF's test module and
# its helper import them) from pip, pinned. surf-cocotb-defects: three one-line defects planted in
# copies of the block's VHDL, SURF's verdict and the scoreboard's for each (target/surf-cocotb/defects.md).
.PHONY: surf-cocotb surf-cocotb-defects surf-cocotb-deps
surf-cocotb-deps: golden-deps python
	@$(PYTHON) -c 'import cocotbext.axi, cocotb_test' 2>/dev/null || { \
	  echo "installing cocotbext-axi 0.1.28 and cocotb-test 0.3.0 with pip"; \
	  $(PYTHON) -m pip install -q --root-user-action=ignore 'cocotbext-axi==0.1.28' 'cocotb-test==0.3.0'; }
surf-cocotb: surf-cocotb-deps
	@test -n "$(SURF_DIR)" || { echo "usage: make surf-cocotb SURF_DIR=/path/to/surf" >&2; exit 2; }
	$(PYTHON) scripts/surf_cocotb.py --surf-dir $(SURF_DIR) $(SURF_COCOTB_ARGS)
surf-cocotb-defects: surf-cocotb-deps
	@test -n "$(SURF_DIR)" || { echo "usage: make surf-cocotb-defects SURF_DIR=/path/to/surf" >&2; exit 2; }
	$(PYTHON) scripts/surf_cocotb.py --surf-dir $(SURF_DIR) --defects $(SURF_COCOTB_ARGS)

# Our block's sets (golden/surf/ holds the upstream SURF block's recordings, replayed by the model tests).
GOLDEN_DIRS = $(filter-out golden/surf/ golden/mq-%,$(wildcard golden/*/))
# The multi-QP block's sets (manifest `block dcqcn_mq`; docs/golden-format.md): the SV and VHDL run
# scripts pick tb_golden_mq by the manifest, on Verilator, Icarus and GHDL with the VHDL twin
# rtl/vhdl/mq/ (no cocotb, netlist or base-configuration replay of them). cocotb gets the
# single-flow sets by name (GOLDEN_SETS), so it never globs the mq ones.
GOLDEN_MQ_DIRS = $(wildcard golden/mq-*/)

golden-check: COCOTB_VHDL_SETS := $(wildcard golden/fuzz-mutant-*) golden/regs-decerr \
  golden/random-frames-64b golden/trigger-collisions
# The base configuration (docs/spec.md 2): every set that lists it on Verilator, a subset on GHDL and
# the VHDL twin (about 1,700 cycles/s there; all of them: make golden-check-base).
GOLDEN_BASE_VHDL_SETS = golden/base-absent golden/regs-decerr golden/trigger-collisions
# Icarus (one core, the slowest SV replay) runs beside Verilator and then cocotb; its output is
# printed when both are done, and either failing fails the target.
golden-check: deps golden-deps golden-verify
	@mkdir -p target
	@echo "testbench/sv/run.sh icarus ... (beside the next two; output: target/golden-icarus.log, printed after them)"
	@testbench/sv/run.sh icarus $(GOLDEN_DIRS) $(GOLDEN_MQ_DIRS) >target/golden-icarus.log 2>&1 & icarus=$$!; \
	  echo 'testbench/sv/run.sh verilator $(GOLDEN_DIRS) $(GOLDEN_MQ_DIRS)'; \
	  testbench/sv/run.sh verilator $(GOLDEN_DIRS) $(GOLDEN_MQ_DIRS) && \
	  echo 'GOLDEN_SETS=... GOLDEN_SETS_VHDL=... python3 -m pytest -q -p no:cacheprovider testbench/cocotb' && \
	  GOLDEN_SETS="$(GOLDEN_DIRS)" GOLDEN_SETS_VHDL="$(COCOTB_VHDL_SETS)" python3 -m pytest -q -p no:cacheprovider testbench/cocotb; \
	  s=$$?; wait $$icarus; i=$$?; \
	  echo "testbench/sv/run.sh icarus $(GOLDEN_DIRS) $(GOLDEN_MQ_DIRS) (exit $$i):"; cat target/golden-icarus.log; \
	  test $$s -eq 0 && test $$i -eq 0
	HDL=vhdl testbench/vhdl/run.sh $(GOLDEN_DIRS) $(GOLDEN_MQ_DIRS)
	FEATURES=base testbench/sv/run.sh verilator $(GOLDEN_DIRS)
	FEATURES=base HDL=vhdl testbench/vhdl/run.sh $(GOLDEN_BASE_VHDL_SETS)
	python3 testbench/check_negative.py --only sv-verilator,sv-icarus,cocotb,cocotb-ghdl,vhdl-twin,verify

# The VHDL testbench on the Yosys gate-level netlist of the SystemVerilog (scripts/netlist2vhdl.py):
# the GHDL path before the VHDL twin existed, now outside golden-check (the SV is replayed by
# Verilator, Icarus and cocotb there, the twin by GHDL), kept for a VHDL shop that wants the SV in GHDL.
golden-check-netlist: deps golden-deps golden-verify
	testbench/vhdl/run.sh $(GOLDEN_DIRS)
	python3 testbench/check_negative.py --only vhdl

# Every set that lists the base configuration on every testbench that builds it (cocotb: the full one).
.PHONY: golden-check-base
golden-check-base: deps golden-deps golden-verify
	FEATURES=base testbench/sv/run.sh verilator $(GOLDEN_DIRS)
	FEATURES=base testbench/sv/run.sh icarus $(GOLDEN_DIRS)
	FEATURES=base HDL=vhdl testbench/vhdl/run.sh $(GOLDEN_DIRS)

# Every golden set with cocotb on GHDL and the VHDL twin (golden-check runs a subset of them).
golden-check-cocotb-vhdl: deps golden-deps
	GOLDEN_SETS="$(GOLDEN_DIRS)" COCOTB_HDL=vhdl python3 -m pytest -q -p no:cacheprovider testbench/cocotb

# NSCC's ACK process (docs/spec-nscc.md 5, 6): nscc_mq_ack_exec, the SV on Verilator and the VHDL twin
# on GHDL, each against NSCC_ACK_COUNT vectors of the bit-exact model (`dcqcn nscc-vectors`); the first
# differing field fails the target. scripts/formal_nscc_ack.py is the SV = VHDL proof; it does not pass
# yet (docs/spec-nscc.md, status), so it is not part of make formal.
NSCC_ACK_COUNT ?= 20000
NSCC_ACK_SEED  ?= 1
NSCC_ACK_DIR   := target/nscc-ack
NSCC_ACK_GHDL  := --std=08 -fsynopsys -frelaxed-rules -fexplicit --workdir=$(NSCC_ACK_DIR)/ghdl
.PHONY: nscc-ack-check
nscc-ack-check: $(DCQCN)
	rm -rf $(NSCC_ACK_DIR)/ghdl && mkdir -p $(NSCC_ACK_DIR)/obj $(NSCC_ACK_DIR)/ghdl
	$(DCQCN) nscc-vectors --seed $(NSCC_ACK_SEED) --count $(NSCC_ACK_COUNT) --out $(NSCC_ACK_DIR)/vectors.txt
	verilator --cc --exe --build -O1 -Wall -Irtl/nscc "-GLINE_WIN=24'd8192" -CFLAGS -DNSCC_LINE_WIN=8192 \
	  --top-module nscc_ack_top --Mdir $(NSCC_ACK_DIR)/obj -o tb_nscc_ack rtl/nscc/nscc_mq_pkg.sv \
	  rtl/nscc/nscc_mq_ack_exec.sv verilator/nscc_ack/nscc_ack_top.sv $(CURDIR)/verilator/nscc_ack/tb_nscc_ack.cpp \
	  >$(NSCC_ACK_DIR)/verilator.log || { cat $(NSCC_ACK_DIR)/verilator.log; exit 1; }
	$(NSCC_ACK_DIR)/obj/tb_nscc_ack $(NSCC_ACK_DIR)/vectors.txt
	ghdl -a $(NSCC_ACK_GHDL) rtl/vhdl/nscc/nscc_mq_pkg.vhd rtl/vhdl/nscc/nscc_mq_ack_exec.vhd \
	  testbench/vhdl/nscc_ack/tb_nscc_ack.vhd
	ghdl --elab-run $(NSCC_ACK_GHDL) tb_nscc_ack -gVECTORS=$(NSCC_ACK_DIR)/vectors.txt -gLINE_WIN=8192 \
	  --ieee-asserts=disable-at-0

# The Python package (crates/dcqcn-py, PyO3 + maturin, abi3 wheel for CPython >= 3.9), installed
# into PYTHON's environment; maturin comes from scripts/deps.sh (no build isolation: no download).
PYTHON ?= python3
python: deps
	PATH="$$(dirname "$$(command -v $(PYTHON))"):$$PATH" $(PYTHON) -m pip install -q \
	  --root-user-action=ignore --no-build-isolation --no-deps ./crates/dcqcn-py
	$(PYTHON) -c 'import dcqcn_model'

# The PyO3 layer is behind the crate's `python` feature (cargo clippy --workspace leaves it out).
python-test: python $(DCQCN)
	$(CARGO) clippy --release -p dcqcn-py --features python -- -D warnings
	$(PYTHON) -m pytest -q -p no:cacheprovider crates/dcqcn-py/tests

# cocotb scoreboard examples (testbench/cocotb/test_scoreboard.py): the model steps beside the RTL
# on Icarus, Verilator and GHDL (VHDL twin), and a planted RTL defect must be reported.
scoreboard: deps golden-deps python
	$(PYTHON) -m pytest -q -p no:cacheprovider testbench/cocotb/test_scoreboard.py

# Register map (docs/regmap.md): one SystemRDL source, every description generated from it.
.PHONY: regmap regmap-check hdl-package-check
regmap: deps
	python3 scripts/regmap_gen.py

regmap-check: deps
	python3 scripts/regmap_gen.py --check
	python3 -m unittest discover -s sw -p 'test_*.py'
	python3 -m unittest discover -s scripts -p 'test_*.py'

# The comparison record's copies (bridge record, shim lists, cosim wrappers, Python types, the
# HDL reset values), generated by crates/dcqcn-gen from the snapshot! list of
# crates/dcqcn-model/src/snapshot.rs and the register map's JSON export (docs/generated.md).
.PHONY: gen gen-check
gen: regmap
	$(CARGO) run --release -q -p dcqcn-gen

gen-check:
	$(CARGO) run --release -q -p dcqcn-gen -- --check
	python3 -m unittest -q scripts/test_vhdl2verilog_mq.py

# HDL packaging: dcqcn.core through FuseSoC (lint, VHDL, one golden set on Icarus) and rtl/files*.f,
# rtl/ruckus.tcl against the files in rtl/.
hdl-package-check: deps
	python3 scripts/hdl_package_check.py

FORCE:

clean:
	$(CARGO) clean
