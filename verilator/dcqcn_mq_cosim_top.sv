// SPDX-License-Identifier: MIT
// Lockstep wrapper of the multi-QP block's core dcqcn_mq_core (docs/spec-mq.md), for Verilator:
// the core's ports as they are (connected by name), plus state injection and memory dumps
// (spec-mq 8.2, 8.3), used by crates/dcqcn-cosim (shim/dcqcn_mq_shim.cpp) between two clock edges,
// with clk held still:
//
//   at a rising edge of inj_clk, by inj_op,
//     0  every register of obs_state takes its bits of in_state (the obs_state layout,
//        crates/dcqcn-model/src/mq/obs.rs STATE_FIELDS), every bitmap its bits of in_bitmaps (the
//        obs_bitmaps layout), and each memory copy's read pipeline (registered read address, read
//        register, bypass) is loaded as if the copy had been read at the QP its reader works on in
//        that state (spec-mq 4.8): so load the memories (op 1) first;
//     1  entry inj_addr of memory copy inj_copy takes inj_data (its width's low bits);
//     2  dump_data takes entry inj_addr of memory copy inj_copy (zero-extended).
//
// The copies are numbered as crates/dcqcn-model/src/mq/mem.rs MEMORIES lists the memories and
// their readers. The statements are generated per variant into dcqcn_mq_inject.svh by
// scripts/vhdl2verilog.py from those two declarations and the RTL: from rtl/mq/ (--sv-inject:
// each register where its module assigns it) or from the VHDL twin's ghdl --synth netlist
// (--inject: bit ranges of each block's state record and its flip-flop). inj_clk never toggles in
// a run without injection; the block is then unused logic.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_mq_cosim_top #(
    parameter int          QPS         = 1024,
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,
    parameter logic [31:0] LINE_RATE   = 32'd1_250_000_000
) (
    input  wire logic              clk,
    input  wire logic              rst,
    input  wire logic              s_req_valid,
    input  wire logic [11:0]       s_req_qp,
    input  wire logic [15:0]       s_req_bytes,
    input  wire logic              s_cnp_valid,
    input  wire logic [11:0]       s_cnp_qp,
    input  wire logic              s_rpt_valid,
    input  wire logic [11:0]       s_rpt_qp,
    input  wire logic [15:0]       s_rpt_bytes,
    input  wire logic              grant_pause,
    output logic                   m_grant_valid,
    output logic      [11:0]       m_grant_qp,
    output logic      [15:0]       m_grant_bytes,
    input  wire logic [20:0]       s_axil_awaddr,
    input  wire logic              s_axil_awvalid,
    output logic                   s_axil_awready,
    input  wire logic [31:0]       s_axil_wdata,
    input  wire logic [3:0]        s_axil_wstrb,
    input  wire logic              s_axil_wvalid,
    output logic                   s_axil_wready,
    output logic      [1:0]        s_axil_bresp,
    output logic                   s_axil_bvalid,
    input  wire logic              s_axil_bready,
    input  wire logic [20:0]       s_axil_araddr,
    input  wire logic              s_axil_arvalid,
    output logic                   s_axil_arready,
    output logic      [31:0]       s_axil_rdata,
    output logic      [1:0]        s_axil_rresp,
    output logic                   s_axil_rvalid,
    input  wire logic              s_axil_rready,
    output logic      [1193:0]     obs_state,
    output logic      [7*QPS-1:0]  obs_bitmaps,
    output logic      [496:0]      obs_writes,

    /* state injection and memory dumps (spec-mq 8.2, 8.3); see the header */
    input  wire logic              inj_clk,
    input  wire logic [1:0]        inj_op,
    input  wire logic [1193:0]     in_state,
    input  wire logic [7*QPS-1:0]  in_bitmaps,
    input  wire logic [4:0]        inj_copy,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire logic [11:0]       inj_addr,   // a memory of fewer than 4096 entries uses its low bits
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire logic [63:0]       inj_data,
    output logic      [63:0]       dump_data
);

`ifdef DCQCN_VHDL_TWIN
    // ghdl --synth fixed the generics (scripts/vhdl2verilog.py --qps ...)
    dcqcn_mq_core dut (.*);
`else
    dcqcn_mq_core #(.QPS(QPS), .CLK_FREQ_HZ(CLK_FREQ_HZ), .LINE_RATE(LINE_RATE)) dut (.*);
`endif

    always @(posedge inj_clk) begin
`include "dcqcn_mq_inject.svh"
    end

endmodule

`resetall
