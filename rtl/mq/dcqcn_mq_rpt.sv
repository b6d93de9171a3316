// SPDX-License-Identifier: MIT
// dcqcn_mq_rpt: the report process (spec-mq 4.6): the report input, the report execution, the
// report side of the joint outstanding count, and the init round's writes of DONE_CNT_MEM and
// SENT_MEM (4.3).
//
// Two stages (spec-mq 4.8): the report of cycle t - 1 is registered in rx_*, and its QP s_rpt_qp
// was the read address of the report's memory copies in t - 1; it executes in t.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_mq_rpt #(
    parameter int QPS = 1024  // queue pairs (1..4096)
) (
    input  wire logic        clk,
    input  wire logic        rst,

    /* Scan (spec-mq 4.3) */
    input  wire logic        init,
    input  wire logic [11:0] scan_q,
    input  wire logic        init_visit,
    input  wire logic        qp_clear_v,

    /* Report input (spec-mq 4.6); s_rpt_qp is also the read address of the report's copies */
    input  wire logic        s_rpt_valid,
    input  wire logic [11:0] s_rpt_qp,
    input  wire logic [15:0] s_rpt_bytes,

    /* The grant execution of this cycle (joint count) */
    input  wire logic        gexec,
    input  wire logic [11:0] gx_qp,

    /* Configuration (spec-mq 6.2) */
    input  wire logic [7:0]  cfg_ost_limit,
    input  wire logic [7:0]  cfg_ost_limit_cnp,

    /* The report's memory copies: the entries of rx_qp in S(t) */
    input  wire logic [7:0]  dcnt_rd,
    input  wire logic [7:0]  gcnt_rd,
    input  wire logic [31:0] sent_rd,

    /* Registers (spec-mq 4.2) */
    output logic             rx_valid,
    output logic      [11:0] rx_qp,
    output logic      [15:0] rx_bytes,

    /* Report execution: counters and bitmap writes */
    output logic             rexec,
    output logic             rexec_spur,    // cnt_rpt_spurious
    output logic             rexec_ost_hi,  // ost_lt_hi'[rx_qp]
    output logic             rexec_ost_lo,  // ost_lt_lo'[rx_qp]
    output logic             rpt_bad_qp,    // cnt_bad_qp
    output logic             rpt_init_drop, // cnt_init_drop

    /* Write port of DONE_CNT_MEM and SENT_MEM */
    output logic             mem_we,
    output logic      [11:0] mem_qp,
    output logic      [7:0]  mem_dcnt,
    output logic      [31:0] mem_sent
);

    localparam logic [12:0] QPS_13 = 13'(QPS);  // QPS as a 13-bit constant (spec-mq 9)

    logic       rpt_in_range;
    logic       clr;
    logic       inc;
    logic [7:0] ost0;
    logic [7:0] ost1;
    logic [7:0] ost2;
    logic [7:0] ost3;
    logic [7:0] dcnt_n;
    logic [7:0] ost_limit_hi;
    logic [7:0] ost_limit_lo;

    /* Report input (spec-mq 4.6) */
    assign rpt_in_range  = {1'b0, s_rpt_qp} < QPS_13;
    assign rpt_bad_qp    = s_rpt_valid & ~rpt_in_range;
    assign rpt_init_drop = s_rpt_valid & rpt_in_range & init;

    always_ff @(posedge clk) begin
        if (rst) begin
            rx_valid <= 1'b0;
            rx_qp    <= 12'd0;
            rx_bytes <= 16'd0;
        end else begin
            // without a report rx_valid' = 0, and rx_qp, rx_bytes are cleared too (as the model)
            rx_valid <= s_rpt_valid & rpt_in_range & ~init;
            rx_qp    <= (s_rpt_valid & rpt_in_range & ~init) ? s_rpt_qp : 12'd0;
            rx_bytes <= (s_rpt_valid & rpt_in_range & ~init) ? s_rpt_bytes : 16'd0;
        end
    end

    /* Report execution (spec-mq 4.6): rx_qp < QPS outside the init round */
    assign rexec = ~rst & rx_valid & ({1'b0, rx_qp} < QPS_13) & ~init;

    /* The joint count of rx_qp (spec-mq 4.6; dec = 1) */
    always_comb begin
        clr   = qp_clear_v & (scan_q == rx_qp);
        inc   = gexec & (gx_qp == rx_qp);

        ost_limit_hi = (cfg_ost_limit == 8'd0) ? 8'd1 : cfg_ost_limit;
        ost_limit_lo = (cfg_ost_limit_cnp == 8'd0) ? 8'd1 : cfg_ost_limit_cnp;

        ost0       = gcnt_rd - dcnt_rd;
        ost1       = clr ? 8'd0 : ost0;
        ost2       = inc ? ((ost1 == 8'hFF) ? 8'hFF : ost1 + 8'd1) : ost1;
        rexec_spur = rexec & (ost2 == 8'd0);
        ost3       = (ost2 == 8'd0) ? ost2 : ost2 - 8'd1;
        dcnt_n     = dcnt_rd + 8'(ost2 != 8'd0);

        rexec_ost_hi = ost3 < ost_limit_hi;
        rexec_ost_lo = ost3 < ost_limit_lo;

        // the write port: an executed report, else the init visit (spec-mq 4.3)
        mem_we   = rexec | init_visit;
        mem_qp   = rexec ? rx_qp : scan_q;
        mem_dcnt = rexec ? dcnt_n : 8'd0;
        mem_sent = rexec ? sent_rd + {16'd0, rx_bytes} : 32'd0;
    end

endmodule
