#!/usr/bin/env bash
# regblock_eval.sh: measures the register blocks PeakRDL-regblock (SystemVerilog) and
# peakrdl-regblock-vhdl generate from regmap/dcqcn_regs.rdl against the hand-written rtl/dcqcn_regs.sv
# and its VHDL twin; docs/regmap.md ("Generated register blocks") quotes its output.
#   - AXI4-Lite cycles and responses: one Verilator testbench (written below) drives the same master
#     into each block: one write, one read, 16 back-to-back writes, 16 back-to-back reads, writes and
#     reads together, a read and a write in the same cycle, unmapped and read-only words, a counter clear.
#   - area: Yosys synth_xilinx -family xcu -flatten (the flow of scripts/synth.sh), LUT / FF / MUXF.
# Needs: pip install peakrdl-regblock peakrdl-regblock-vhdl; verilator 5, yosys, ghdl (scripts/deps.sh).
# Scratch and logs in target/regblock-eval/. About 3 minutes of CPU (7.5 minutes on a busy 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=target/regblock-eval
rm -rf "$out"
mkdir -p "$out"
rdl=regmap/dcqcn_regs.rdl
python3 -c 'import peakrdl_regblock, peakrdl_regblock_vhdl' 2>/dev/null || {
  echo "regblock_eval.sh: pip install peakrdl-regblock peakrdl-regblock-vhdl" >&2; exit 2; }
for t in verilator yosys ghdl; do
  command -v $t >/dev/null || { echo "regblock_eval.sh: $t is missing (scripts/deps.sh)" >&2; exit 2; }
done

echo "== versions"
python3 - <<'PY'
from importlib.metadata import version
for p in ("systemrdl-compiler", "peakrdl-regblock", "peakrdl-regblock-vhdl"):
    print(f"{p} {version(p)}")
PY
verilator --version
yosys -V
ghdl --version | head -1

echo "== generate (Python API, AXI4-Lite flattened ports)"
# gen-default: the exporter's defaults (no error responses, address width sized to the map: 9 bits)
# gen-err:     error responses on unmapped addresses and on writes to read-only words, 12-bit decode
# gen-nohwclr: as gen-err from the source without its `->hwclr` lines (every read-only field a wire)
# vhdl-err:    peakrdl-regblock-vhdl with the options of gen-err
grep -v -- '->hwclr' "$rdl" > "$out/nohwclr.rdl"
python3 - "$rdl" "$out" <<'PY'
import sys
from systemrdl import RDLCompiler
from peakrdl_regblock import RegblockExporter
from peakrdl_regblock.cpuif.axi4lite import AXI4Lite_Cpuif_flattened
import peakrdl_regblock_vhdl as pv
from peakrdl_regblock_vhdl.cpuif.axi4lite import AXI4Lite_Cpuif_flattened as VhdlAxil
rdl, out = sys.argv[1], sys.argv[2]
import peakrdl_regblock.udps, peakrdl_regblock_vhdl.udps
def elaborate(path, udps):
    c = RDLCompiler()
    for u in udps:  # the exporter's own properties (buffer_writes, rd_swacc, ...), as its CLI does
        c.register_udp(u)
    c.compile_file(path)
    return c.elaborate()
sv_udps, vhdl_udps = peakrdl_regblock.udps.ALL_UDPS, peakrdl_regblock_vhdl.udps.ALL_UDPS
err = dict(err_if_bad_addr=True, err_if_bad_rw=True, address_width=12)
RegblockExporter().export(elaborate(rdl, sv_udps), f"{out}/gen-default",
                          cpuif_cls=AXI4Lite_Cpuif_flattened)
RegblockExporter().export(elaborate(rdl, sv_udps), f"{out}/gen-err",
                          cpuif_cls=AXI4Lite_Cpuif_flattened, **err)
RegblockExporter().export(elaborate(f"{out}/nohwclr.rdl", sv_udps), f"{out}/gen-nohwclr",
                          cpuif_cls=AXI4Lite_Cpuif_flattened, **err)
pv.RegblockExporter().export(elaborate(rdl, vhdl_udps), f"{out}/vhdl-err", cpuif_cls=VhdlAxil,
                             copy_utils_pkg=True, **err)
PY
wc -l "$out"/gen-*/*.sv "$out"/vhdl-err/*.vhd | sed 's/^/  /'

# Yosys 0.23 and Icarus 11 reject the generated SV as it is (unpacked structs, `automatic` variables
# in always_comb); Yosys reads it with every struct packed and the variables static (same logic)
for d in gen-default gen-err gen-nohwclr; do
  mkdir -p "$out/yosys-$d"
  for f in "$out/$d"/*.sv; do
    sed -e 's/struct {/struct packed {/' -e 's/automatic logic/logic/' "$f" > "$out/yosys-$d/$(basename "$f")"
  done
done

echo "== GHDL: analysis and ghdl --synth of the generated VHDL and of the twin's dcqcn_regs"
# the repairs scripts/vhdl2verilog.py makes to GHDL 2.0's Verilog (wide constants, case defaults)
cat > "$out/vhd2v.py" <<'PY'
import re, subprocess, sys
sys.path.insert(0, sys.argv[1])
import vhdl2verilog as v
top, out, srcs = sys.argv[2], sys.argv[3], sys.argv[4:]
def run(fmt):
    cmd = ["ghdl", "--synth", *v.FLAGS, "--workdir=.", f"--out={fmt}", *srcs, "-e", top]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
vl = run("verilog")
vl, n = re.subn(r'"([01]+)"', lambda m: f"{len(m.group(1))}'b{m.group(1)}", vl)
vl, cases = v.add_case_defaults(vl, run("vhdl"))
open(out, "w").write(vl)
print(f"  {out}: {n} wide constants, {cases} case defaults repaired")
PY
flags=(--std=08 -fsynopsys -frelaxed-rules -fexplicit)
mkdir -p "$out/ghdl-gen" "$out/ghdl-ours"
g=$root/$out/vhdl-err
(cd "$out/ghdl-gen" && for f in reg_utils dcqcn_regs_pkg dcqcn_regs; do ghdl -a "${flags[@]}" "$g/$f.vhd"; done \
  && echo "  analysis of vhdl-err: OK" \
  && python3 ../vhd2v.py "$root/scripts" dcqcn_regs ../gen-vhdl.v "$g/reg_utils.vhd" \
       "$g/dcqcn_regs_pkg.vhd" "$g/dcqcn_regs.vhd")
v=$root/rtl/vhdl
(cd "$out/ghdl-ours" && python3 ../vhd2v.py "$root/scripts" dcqcn_regs ../ours-vhdl.v \
  "$v/dcqcn_pkg.vhd" "$v/dcqcn_tap_pkg.vhd" "$v/dcqcn_regs.vhd")

echo "== AXI4-Lite cycles and responses (Verilator)"
cat > "$out/axil_tb.sv" <<'SV'
// The AXI4-Lite master of regblock_eval.sh. -DOURS: rtl/dcqcn_regs.sv; -DVGEN: the generated VHDL
// through ghdl --synth (records flattened); neither: the generated SV. Cycle 0 is the request's cycle.
`timescale 1ns/1ps
module axil_tb;
    logic clk = 0, rst = 1;
    always #5 clk = ~clk;
    int cyc = 0;
    always @(posedge clk) cyc <= cyc + 1;

    logic [11:0] awaddr = 0, araddr = 0;
    logic awvalid = 0, wvalid = 0, bready = 1, arvalid = 0, rready = 1;
    logic [31:0] wdata = 0;
    logic [3:0] wstrb = 4'hF;
    wire awready, wready, bvalid, arready, rvalid;
    wire [1:0] bresp, rresp;
    wire [31:0] rdata;
    logic [31:0] cfg_rai_obs;
    logic [31:0] cnt_obs;
    // the design's counter source: ours counts cnp_edge; the generated block stores hwif_in.next
    logic cnp_edge = 0;

`ifdef OURS
    wire [31:0] cfg_rai;
    dcqcn_regs dut (
        .clk, .rst,
        .s_axil_awaddr(awaddr), .s_axil_awvalid(awvalid), .s_axil_awready(awready),
        .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
        .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
        .s_axil_araddr(araddr), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
        .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid), .s_axil_rready(rready),
        .rc(32'h4A817C80), .rt(32'h4A817C80), .active(1'b0), .alpha(10'd1023), .alpha_pending(1'b0),
        .dec_pending(1'b0), .t_stage(8'd0), .b_stage(8'd0), .bpc(32'h80000), .credit(48'd0),
        .cnp_edge(cnp_edge), .dec_fire(1'b0), .inc_event(1'b0), .phase_fr(1'b0), .phase_ai(1'b0),
        .phase_hai(1'b0), .timer_fire(1'b0), .byte_fire(1'b0), .stall(1'b0), .bytes_in(7'd0),
        .rc_next(32'd0),
        .cfg_alpha_g(), .cfg_dec_gain(), .cfg_stage_threshold(), .cfg_clamp_tgt(), .cfg_rai(cfg_rai),
        .cfg_rhai(), .cfg_rmin(), .cfg_inc_interval(), .cfg_dec_interval(), .cfg_alpha_interval(),
        .cfg_bypass(), .cfg_timer_en(), .cfg_byte_en(), .cfg_byte_threshold(), .cfg_credit_cap(),
        .cfg_rmax(), .cfg_rate_first_cnp(), .cfg_alpha_init(), .cfg_min_dec_fac(), .cfg_hai_mult(),
        .cfg_scheme(), .cfg_gate_mask(), .cfg_fw_rate()
    );
    assign cfg_rai_obs = cfg_rai;
    assign cnt_obs = dut.r.stats.cnt_cnp;
    `define NAME "ours"
`elsif VGEN
    // peakrdl-regblock-vhdl through ghdl --synth: the records are flattened into vectors
    dcqcn_regs dut (
        .clk, .rst,
        .s_axil_awaddr(awaddr), .s_axil_awprot(3'b0), .s_axil_awvalid(awvalid), .s_axil_awready(awready),
        .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
        .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
        .s_axil_araddr(araddr), .s_axil_arprot(3'b0), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
        .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid), .s_axil_rready(rready),
        .hwif_in_rc(32'h4A817C80), .hwif_in_rt(32'h4A817C80), .hwif_in_cnt_cnp(cnp_edge ? 32'd7 : 32'd0),
        .hwif_out_rai(cfg_rai_obs)
    );
    // the counter's storage is not a named net of the netlist: observed through the bus only
    assign cnt_obs = 32'hFFFF_FFFF;
`define NAME "peakrdl-vhdl"
`else
    dcqcn_regs_pkg::dcqcn_regs__in_t hwif_in;
    dcqcn_regs_pkg::dcqcn_regs__out_t hwif_out;
    always_comb begin
        // the other hwif_in members stay 0 (Verilator's initial value; the struct is unpacked)
        hwif_in.rc.rc.next = 32'h4A817C80;
        hwif_in.rt.rt.next = 32'h4A817C80;
        // a counter the outside keeps at 7 (cnp_edge high): the block stores it unless cleared
        hwif_in.cnt_cnp.cnt_cnp.next = cnp_edge ? 32'd7 : 32'd0;
    end
    dcqcn_regs dut (
        .clk, .rst,
        .s_axil_awaddr(awaddr), .s_axil_awprot(3'b0), .s_axil_awvalid(awvalid), .s_axil_awready(awready),
        .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
        .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
        .s_axil_araddr(araddr), .s_axil_arprot(3'b0), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
        .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid), .s_axil_rready(rready),
        .hwif_in(hwif_in), .hwif_out(hwif_out)
    );
    assign cfg_rai_obs = hwif_out.rai.rai.value;
    assign cnt_obs = dut.field_storage.cnt_cnp.cnt_cnp.value;
    `define NAME "peakrdl"
`endif

    // handshake / response bookkeeping, sampled at the rising edge
    int aw_hs_cyc, ar_hs_cyc, b_cyc, r_cyc, n_b, n_r, cfg_change_cyc, cnt_zero_cyc;
    logic [1:0] last_bresp, last_rresp;
    logic [31:0] last_rdata, prev_rai;
    always @(posedge clk) if (!rst) begin
        if (awvalid && awready && wvalid && wready) aw_hs_cyc <= cyc;
        if (arvalid && arready) ar_hs_cyc <= cyc;
        if (bvalid && bready) begin b_cyc <= cyc; n_b <= n_b + 1; last_bresp <= bresp; end
        if (rvalid && rready) begin r_cyc <= cyc; n_r <= n_r + 1; last_rresp <= rresp; last_rdata <= rdata; end
        prev_rai <= cfg_rai_obs;
        if (cfg_rai_obs != prev_rai && cfg_change_cyc < 0) cfg_change_cyc <= cyc;
        if (cnt_obs == 0 && cnt_zero_cyc < 0) cnt_zero_cyc <= cyc;
    end

    // one write: awvalid and wvalid together, each dropped after its own handshake
    task automatic wr(input logic [11:0] a, input logic [31:0] d);
        logic aw_done = 0, w_done = 0;
        awaddr = a; wdata = d; awvalid = 1; wvalid = 1;
        while (!(aw_done && w_done)) begin
            @(posedge clk);
            if (awvalid && awready) aw_done = 1;
            if (wvalid && wready) w_done = 1;
            #1;
            if (aw_done) awvalid = 0;
            if (w_done) wvalid = 0;
        end
    endtask
    // a write and a read requested in the same cycle
    task automatic wrd(input logic [11:0] a, input logic [31:0] d, input logic [11:0] ra);
        logic aw_done = 0, w_done = 0, ar_done = 0;
        awaddr = a; wdata = d; awvalid = 1; wvalid = 1; araddr = ra; arvalid = 1;
        while (!(aw_done && w_done && ar_done)) begin
            @(posedge clk);
            if (awvalid && awready) aw_done = 1;
            if (wvalid && wready) w_done = 1;
            if (arvalid && arready) ar_done = 1;
            #1;
            if (aw_done) awvalid = 0;
            if (w_done) wvalid = 0;
            if (ar_done) arvalid = 0;
        end
    endtask
    task automatic rd(input logic [11:0] a);
        araddr = a; arvalid = 1;
        do @(posedge clk); while (!arready);
        #1 arvalid = 0;
    endtask
    task automatic wait_b(input int n);
        while (n_b < n) @(posedge clk);
        #1;
    endtask
    task automatic wait_r(input int n);
        while (n_r < n) @(posedge clk);
        #1;
    endtask

    int t0, i;
    initial begin #20000 $display("timeout"); $finish; end
    initial begin
        n_b = 0; n_r = 0; cfg_change_cyc = -1; cnt_zero_cyc = -1;
        repeat (3) @(posedge clk);
        #1 rst = 0;
        repeat (2) @(posedge clk);
        #1;
        // 1. one write (rai), master ready for B at once
        t0 = cyc; cfg_change_cyc = -1; wr(12'h004, 32'h1234_5678); wait_b(1);
        $display("%s write: request in cycle 0, AW/W handshake in cycle %0d, B handshake in cycle %0d, cfg_rai changed in cycle %0d, bresp %0d",
                 `NAME, aw_hs_cyc - t0, b_cyc - t0, cfg_change_cyc - t0, last_bresp);
        repeat (3) @(posedge clk); #1;
        // 2. one read (rai)
        t0 = cyc; rd(12'h004); wait_r(1);
        $display("%s read: request in cycle 0, AR handshake in cycle %0d, R handshake in cycle %0d, rdata %h rresp %0d",
                 `NAME, ar_hs_cyc - t0, r_cyc - t0, last_rdata, last_rresp);
        repeat (3) @(posedge clk); #1;
        // 3. 16 back-to-back writes (next request right after the previous handshake)
        t0 = cyc;
        for (i = 0; i < 16; i++) wr(12'h004, i);
        wait_b(17);
        $display("%s 16 back-to-back writes: last B handshake in cycle %0d (%0.2f cycles per write)",
                 `NAME, b_cyc - t0, real'(b_cyc - t0 + 1) / 16.0);
        repeat (3) @(posedge clk); #1;
        // 4. 16 back-to-back reads
        t0 = cyc;
        for (i = 0; i < 16; i++) rd(12'h004);
        wait_r(17);
        $display("%s 16 back-to-back reads: last R handshake in cycle %0d (%0.2f cycles per read)",
                 `NAME, r_cyc - t0, real'(r_cyc - t0 + 1) / 16.0);
        repeat (3) @(posedge clk); #1;
        // 5. 16 writes and 16 reads issued together (independent channels)
        t0 = cyc;
        fork
            for (int j = 0; j < 16; j++) wr(12'h008, j);
            for (int j = 0; j < 16; j++) rd(12'h00C);
        join
        wait_b(33); wait_r(33);
        $display("%s 16 writes + 16 reads concurrently: last B in cycle %0d, last R in cycle %0d (%0.2f cycles per transaction)",
                 `NAME, b_cyc - t0, r_cyc - t0, real'((b_cyc > r_cyc ? b_cyc : r_cyc) - t0 + 1) / 32.0);
        repeat (3) @(posedge clk); #1;
        // 6. a read and a write to the same word issued in the same cycle: old or new value?
        wrd(12'h004, 32'hCAFE_0001, 12'h004);
        wait_b(34); wait_r(34);
        $display("%s simultaneous write 0xCAFE0001 and read of rai (was 0x0000000F): read returns %h; AW handshake cycle %0d, AR handshake cycle %0d",
                 `NAME, last_rdata, aw_hs_cyc, ar_hs_cyc);
        repeat (3) @(posedge clk); #1;
        // 6b. the same after a write (6 came after a read): rai = 0x11 first
        wr(12'h004, 32'h0000_0011); wait_b(35);
        repeat (3) @(posedge clk); #1;
        wrd(12'h004, 32'hCAFE_0002, 12'h004);
        wait_b(36); wait_r(35);
        $display("%s simultaneous write 0xCAFE0002 and read of rai (was 0x00000011), last transaction a write: read returns %h",
                 `NAME, last_rdata);
        repeat (3) @(posedge clk); #1;
        // 7. unmapped and read-only words
        rd(12'h028); wait_r(36);
        $display("%s read of unmapped 0x028: rresp %0d rdata %h", `NAME, last_rresp, last_rdata);
        rd(12'h200); wait_r(37);
        $display("%s read of unmapped 0x200: rresp %0d rdata %h", `NAME, last_rresp, last_rdata);
        rd(12'hFFC); wait_r(38);
        $display("%s read of unmapped 0xFFC: rresp %0d rdata %h", `NAME, last_rresp, last_rdata);
        wr(12'h028, 32'hFFFF_FFFF); wait_b(37);
        $display("%s write to unmapped 0x028: bresp %0d", `NAME, last_bresp);
        wr(12'h200, 32'hFFFF_FFFF); wait_b(38);
        rd(12'h000); wait_r(39);
        $display("%s write to unmapped 0x200: bresp %0d; config (0x000) then reads %h", `NAME, last_bresp, last_rdata);
        wr(12'h018, 32'hFFFF_FFFF); wait_b(39);
        $display("%s write to read-only rc (0x018): bresp %0d", `NAME, last_bresp);
        rd(12'h007); wait_r(40);
        $display("%s read of 0x007 (rai with addr[1:0] = 3): rresp %0d rdata %h", `NAME, last_rresp, last_rdata);
        // 8. counter clear: counter nonzero, write 1 to ext_ctrl.cnt_clear
        cnp_edge = 1;
        repeat (3) @(posedge clk); #1;
        cnt_zero_cyc = -1; t0 = cyc;
        wr(12'h100, 32'h0000_0101); wait_b(40);
        cnp_edge = 0;
        repeat (4) @(posedge clk); #1;
        if (cnt_obs != 32'hFFFF_FFFF)
            $display("%s cnt_clear write: AW/W handshake in cycle %0d, counter 0 in cycle %0d (B in cycle %0d)",
                     `NAME, aw_hs_cyc - t0, cnt_zero_cyc - t0, b_cyc - t0);
        $finish;
    end
endmodule
SV
sim() { # sim <name> <define> <sources...>
  local name=$1 def=$2; shift 2
  verilator --binary --timing -Wno-fatal -Wno-lint -Wno-style ${def:+-D$def} -Irtl "$@" \
    "$out/axil_tb.sv" --top-module axil_tb -Mdir "$out/obj-$name" -j 1 >"$out/verilator-$name.log" 2>&1
  "$out/obj-$name/Vaxil_tb" | grep -v '\$finish' | tee "$out/sim-$name.txt"
}
sim ours OURS rtl/dcqcn_regs.sv
sim gen-err "" "$out/gen-err/dcqcn_regs_pkg.sv" "$out/gen-err/dcqcn_regs.sv"
sim gen-default "" "$out/gen-default/dcqcn_regs_pkg.sv" "$out/gen-default/dcqcn_regs.sv"
sim vhdl-err VGEN "$out/gen-vhdl.v"

echo "== area (Yosys synth_xilinx -family xcu -flatten)"
# ours-bus: dcqcn_regs with its event inputs tied to 0, so that its counters and trace storage fold
# away (trace_time, which counts armed cycles, stays): the bus, configuration and read mux alone
python3 - rtl/dcqcn_regs.sv "$out/ours_bus.sv" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
ports = src[src.index(") (") + 3:src.index(");\n\n    // spec 2")]
ports = re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", ports, flags=re.S))
tied = ["cnp_edge", "dec_fire", "inc_event", "phase_fr", "phase_ai", "phase_hai", "timer_fire",
        "byte_fire", "stall", "bytes_in", "rc_next"]
lines = [l.strip().rstrip(",") for l in ports.split("\n") if l.strip()]
keep = [l for l in lines if l.split()[-1] not in tied]
open(sys.argv[2], "w").write("module ours_bus (\n    " + ",\n    ".join(keep) + "\n);\n    dcqcn_regs u (.*, "
                             + ", ".join(f".{t}('0)" for t in tied) + ");\nendmodule\n")
PY
synth() { # synth <name> <top> <read command>
  yosys -q -l "$out/yosys-$1.log" -p "$3; synth_xilinx -family xcu -top $2 -flatten; tee -o $out/$1.stat stat" >/dev/null
}
synth ours dcqcn_regs "read_verilog -sv -Irtl rtl/dcqcn_regs.sv"
synth ours-bus ours_bus "read_verilog -sv -Irtl rtl/dcqcn_regs.sv $out/ours_bus.sv"
synth ours-vhdl dcqcn_regs "read_verilog $out/ours-vhdl.v"
for d in gen-err gen-nohwclr gen-default; do
  synth "$d" dcqcn_regs "read_verilog -sv $out/yosys-$d/dcqcn_regs_pkg.sv $out/yosys-$d/dcqcn_regs.sv"
done
synth vhdl-err dcqcn_regs "read_verilog $out/gen-vhdl.v"
count() { awk -v re="$2" '$1 ~ re { n += $2 } END { print n + 0 }' "$1"; }
printf '%-13s %6s %6s %6s %7s %6s %7s\n' block LUT FF MUXF LUTRAM CARRY latches
for b in ours ours-vhdl ours-bus gen-err vhdl-err gen-nohwclr gen-default; do
  f=$out/$b.stat
  printf '%-13s %6s %6s %6s %7s %6s %7s\n' "$b" "$(count "$f" '^LUT[1-6]$')" "$(count "$f" '^FD[RSCP]E$')" \
    "$(count "$f" '^MUXF[789]$')" "$(count "$f" '^RAM')" "$(count "$f" '^CARRY[48]$')" "$(count "$f" '^LD[CP]E$')"
done
