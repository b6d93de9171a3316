// SPDX-License-Identifier: MIT
// dcqcn_mq: the multi-QP DCQCN engine (spec-mq), top level: exactly the ports of spec-mq 3. It is
// dcqcn_mq_core with the observation outputs left open (synthesis removes them).

`resetall
`timescale 1ns / 1ps
`default_nettype none

// CLK_FREQ_HZ and LINE_RATE are 32-bit as in dcqcn_rl: the legal ranges (spec-mq 2) end at 2^32 - 1.
module dcqcn_mq #(
    parameter int          QPS         = 1024,               // queue pairs (1..4096)
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,    // Hz (65537..4294967295)
    parameter logic [31:0] LINE_RATE   = 32'd1_250_000_000   // bytes/s (1..4294967295)
) (
    /* Clock and synchronous reset (active high) */
    input  wire logic        clk,
    input  wire logic        rst,

    /* Work requests (spec-mq 4.4) */
    input  wire logic        s_req_valid,
    input  wire logic [11:0] s_req_qp,
    input  wire logic [15:0] s_req_bytes,

    /* CNP events (spec-mq 5.3) */
    input  wire logic        s_cnp_valid,
    input  wire logic [11:0] s_cnp_qp,

    /* Sent-byte reports (spec-mq 4.6) */
    input  wire logic        s_rpt_valid,
    input  wire logic [11:0] s_rpt_qp,
    input  wire logic [15:0] s_rpt_bytes,

    /* Grants (spec-mq 4.5) */
    input  wire logic        grant_pause,
    output logic             m_grant_valid,
    output logic      [11:0] m_grant_qp,
    output logic      [15:0] m_grant_bytes,

    /* AXI4-Lite slave: write */
    input  wire logic [20:0] s_axil_awaddr,
    input  wire logic        s_axil_awvalid,
    output logic             s_axil_awready,
    input  wire logic [31:0] s_axil_wdata,
    input  wire logic [3:0]  s_axil_wstrb,
    input  wire logic        s_axil_wvalid,
    output logic             s_axil_wready,
    output logic      [1:0]  s_axil_bresp,
    output logic             s_axil_bvalid,
    input  wire logic        s_axil_bready,

    /* AXI4-Lite slave: read */
    input  wire logic [20:0] s_axil_araddr,
    input  wire logic        s_axil_arvalid,
    output logic             s_axil_arready,
    output logic      [31:0] s_axil_rdata,
    output logic      [1:0]  s_axil_rresp,
    output logic             s_axil_rvalid,
    input  wire logic        s_axil_rready
);

    /* verilator lint_off PINCONNECTEMPTY */
    dcqcn_mq_core #(
        .QPS         (QPS),
        .CLK_FREQ_HZ (CLK_FREQ_HZ),
        .LINE_RATE   (LINE_RATE)
    ) u_core (
        .clk            (clk),
        .rst            (rst),
        .s_req_valid    (s_req_valid),
        .s_req_qp       (s_req_qp),
        .s_req_bytes    (s_req_bytes),
        .s_cnp_valid    (s_cnp_valid),
        .s_cnp_qp       (s_cnp_qp),
        .s_rpt_valid    (s_rpt_valid),
        .s_rpt_qp       (s_rpt_qp),
        .s_rpt_bytes    (s_rpt_bytes),
        .grant_pause    (grant_pause),
        .m_grant_valid  (m_grant_valid),
        .m_grant_qp     (m_grant_qp),
        .m_grant_bytes  (m_grant_bytes),
        .s_axil_awaddr  (s_axil_awaddr),
        .s_axil_awvalid (s_axil_awvalid),
        .s_axil_awready (s_axil_awready),
        .s_axil_wdata   (s_axil_wdata),
        .s_axil_wstrb   (s_axil_wstrb),
        .s_axil_wvalid  (s_axil_wvalid),
        .s_axil_wready  (s_axil_wready),
        .s_axil_bresp   (s_axil_bresp),
        .s_axil_bvalid  (s_axil_bvalid),
        .s_axil_bready  (s_axil_bready),
        .s_axil_araddr  (s_axil_araddr),
        .s_axil_arvalid (s_axil_arvalid),
        .s_axil_arready (s_axil_arready),
        .s_axil_rdata   (s_axil_rdata),
        .s_axil_rresp   (s_axil_rresp),
        .s_axil_rvalid  (s_axil_rvalid),
        .s_axil_rready  (s_axil_rready),
        // spec-mq 8: observation only, left open here
        .obs_state      (),
        .obs_bitmaps    (),
        .obs_writes     ()
    );
    /* verilator lint_on PINCONNECTEMPTY */

endmodule
