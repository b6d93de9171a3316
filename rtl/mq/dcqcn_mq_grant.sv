// SPDX-License-Identifier: MIT
// dcqcn_mq_grant: the pick stage, the grant execution and the speed limiter (spec-mq 4.5), the
// grant side of the joint outstanding count (4.6), and the grant process's writes of the init
// round (4.3) and of qp_clear (5.8) to CC_BYTE_CNT_MEM and GRANT_CNT_MEM.
//
// Two stages (spec-mq 4.8): the pick of cycle t - 1 (dcqcn_mq_rr, combinational from the bitmaps)
// is the read address of the grant's memory copies; the grant executes in t on that data.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_mq_grant #(
    parameter int          QPS      = 1024,    // queue pairs (1..4096)
    parameter logic [23:0] LINE_WIN = 24'd8192 // bytes per 1024-cycle window (spec-mq 2)
) (
    input  wire logic           clk,
    input  wire logic           rst,

    /* Scan (spec-mq 4.3) */
    input  wire logic [31:0]    now,
    input  wire logic           init,
    input  wire logic [11:0]    scan_q,
    input  wire logic [11:0]    next_scan,
    input  wire logic           init_visit,
    input  wire logic           qp_clear_v,

    /* The pending window write and a qp_clear accepted this cycle, for clear_next (spec-mq 4.5) */
    input  wire logic           wpend,
    input  wire logic           wclr,
    input  wire logic [11:0]    wq,
    input  wire logic           aclr,
    input  wire logic [11:0]    aclr_q,

    input  wire logic           grant_pause,

    /* Bitmaps in S(t) (spec-mq 4.2) */
    input  wire logic [QPS-1:0] req_valid,
    input  wire logic [QPS-1:0] arb_mask,
    input  wire logic [QPS-1:0] rate_ok,
    input  wire logic [QPS-1:0] ost_lt_hi,
    input  wire logic [QPS-1:0] ost_lt_lo,
    input  wire logic [QPS-1:0] lim8,

    /* Configuration (spec-mq 6.2) */
    input  wire logic           cfg_hw_rate_throttle_en,
    input  wire logic           cfg_tx_wqe_ost_limit_en,
    input  wire logic           cfg_speed_limiter_en,
    input  wire logic [7:0]     cfg_ost_limit,
    input  wire logic [7:0]     cfg_ost_limit_cnp,
    input  wire logic [30:0]    capq,             // CAPQ (spec-mq 2)

    /* The grant's memory copies: the entries of gx_qp in S(t) */
    input  wire logic [63:0]    cc_byte_cnt_rd,   // CC_BYTE_CNT_MEM {stamp, credit}
    input  wire logic [7:0]     gcnt_rd,          // GRANT_CNT_MEM
    input  wire logic [7:0]     dcnt_rd,          // DONE_CNT_MEM
    input  wire logic [15:0]    req_bytes_rd,     // REQ_MEM
    input  wire logic [23:0]    cc_rate_rd,       // CC_RATE_MEM
    /* The visit's copies: the counts of v = scan_q in S(t), for a qp_clear */
    input  wire logic [7:0]     gcnt_v,
    input  wire logic [7:0]     dcnt_v,

    /* The report execution of this cycle (joint count, spec-mq 4.6) */
    input  wire logic           rexec,
    input  wire logic [11:0]    rx_qp,

    /* Pick stage */
    output logic                pick_valid,
    output logic      [11:0]    pick_qp,          // also the read address of the grant's copies

    /* Registers (spec-mq 4.2) */
    output logic      [11:0]    rr,
    output logic                gx_valid,
    output logic      [11:0]    gx_qp,
    output logic      [31:0]    pcredit,          // signed
    output logic                g_valid,
    output logic      [11:0]    g_qp,
    output logic      [15:0]    g_bytes,

    /* Grant execution: counters and bitmap writes */
    output logic                gexec,
    output logic      [15:0]    gexec_bytes,
    output logic                gexec_rate_ok,    // rate_ok'[gx_qp]
    output logic                gexec_ost_hi,     // ost_lt_hi'[gx_qp]
    output logic                gexec_ost_lo,     // ost_lt_lo'[gx_qp]
    output logic                clr_ost_hi,       // ost_lt_hi'[v] of a qp_clear
    output logic                clr_ost_lo,       // ost_lt_lo'[v] of a qp_clear

    /* Write port of CC_BYTE_CNT_MEM and GRANT_CNT_MEM */
    output logic                mem_we,
    output logic      [11:0]    mem_qp,
    output logic      [63:0]    mem_cc_byte_cnt,  // {stamp, credit}
    output logic      [7:0]     mem_gcnt
);

    localparam logic [12:0] QPS_13        = 13'(QPS);  // QPS as a 13-bit constant (spec-mq 9)
    localparam logic [31:0] PCREDIT_RESET = 32'd67_108_864;  // CAPQ at reset values (spec-mq 4.2)
    localparam logic [32:0] CREDIT_MIN_33 = {1'b1, 32'h8000_0000};  // -2^31, 33-bit

    /* Pick (spec-mq 4.5) */
    logic           clear_next;
    logic           pick_en;
    logic [QPS-1:0] elig;

    /* Grant execution */
    logic [31:0]    credit;
    logic [31:0]    stamp;
    logic [23:0]    r;
    logic [31:0]    e;
    logic [55:0]    re;
    logic [57:0]    sum58;
    logic [31:0]    fill;
    logic [25:0]    charge;
    logic [32:0]    diff33;
    logic [31:0]    credit_n;
    logic [32:0]    pc_sum;
    logic [32:0]    pc_min;
    logic [32:0]    pc_diff;

    /* Joint outstanding count (spec-mq 4.6): the grant's QP and a qp_clear's QP */
    logic [11:0]    rr_pick;          // the picker's choice
    logic           g_dec;
    logic [7:0]     g_gcnt_n;
    logic           c_dec;
    logic [7:0]     c_gcnt_n;
    logic [7:0]     ost_limit_hi;
    logic [7:0]     ost_limit_lo;

    // spec-mq 4.6: the joint count of one QP from S(t) and the flags clr, inc, dec;
    // returns {ost_lt_hi', ost_lt_lo', gcnt'}
    function automatic logic [9:0] joint(input logic [7:0] gcnt, input logic [7:0] dcnt,
                                         input logic clr, input logic inc, input logic dec,
                                         input logic [7:0] lim_hi, input logic [7:0] lim_lo);
        logic [7:0] ost0;
        logic [7:0] ost1;
        logic [7:0] ost2;
        logic       spur;
        logic [7:0] ost3;
        logic [7:0] dcnt_n;
        ost0   = gcnt - dcnt;
        ost1   = clr ? 8'd0 : ost0;
        ost2   = inc ? ((ost1 == 8'hFF) ? 8'hFF : ost1 + 8'd1) : ost1;
        spur   = dec & (ost2 == 8'd0);
        ost3   = (dec & ~spur) ? ost2 - 8'd1 : ost2;
        dcnt_n = dcnt + {7'd0, dec & ~spur};
        joint = {ost3 < lim_hi, ost3 < lim_lo, dcnt_n + ost3};
    endfunction

    assign ost_limit_hi = (cfg_ost_limit == 8'd0) ? 8'd1 : cfg_ost_limit;
    assign ost_limit_lo = (cfg_ost_limit_cnp == 8'd0) ? 8'd1 : cfg_ost_limit_cnp;

    /* Pick stage (spec-mq 4.5) */
    always_comb begin
        clear_next = (wpend & wclr & (next_scan == wq)) | (aclr & (next_scan == aclr_q));
        pick_en    = ~init & ~grant_pause & (~cfg_speed_limiter_en | $signed(pcredit) > 0)
                   & ~clear_next;
        elig = req_valid & ~arb_mask & ({QPS{~cfg_hw_rate_throttle_en}} | rate_ok)
             & ({QPS{~cfg_tx_wqe_ost_limit_en}} | (lim8 & ost_lt_lo) | (~lim8 & ost_lt_hi));
    end

    dcqcn_mq_rr #(
        .N (QPS)
    ) u_rr (
        .clk   (clk),
        .rst   (rst),
        .elig  (elig),
        .en    (pick_en),
        .valid (pick_valid),
        .pick  (rr_pick),
        .rr    (rr)
    );

    // the grant copies' read address: 0 in a reset cycle (gx_qp's reset value), so that it is a
    // function of the inputs there (spec-mq 4.8)
    assign pick_qp = rst ? 12'd0 : rr_pick;

    /* Grant execution (spec-mq 4.5): gx_qp < QPS outside the init round. A qp_clear completing in
       the same cycle owns the write port and the grant does nothing; only an injected state gets
       there, because clear_next suppresses the pick before every clear visit */
    assign gexec = ~rst & gx_valid & ({1'b0, gx_qp} < QPS_13) & ~init & ~qp_clear_v;

    always_comb begin
        {stamp, credit} = cc_byte_cnt_rd;
        gexec_bytes = req_bytes_rd;

        // the credit: refill at the applied rate since the last grant, capped, then charged
        r      = (cc_rate_rd < LINE_WIN) ? cc_rate_rd : LINE_WIN;
        e      = now - stamp;
        re     = {8'd0, r} * {24'd0, e};
        sum58  = {{26{credit[31]}}, credit} + {2'b00, re};
        fill   = ($signed(sum58) > $signed({27'd0, capq})) ? {1'b0, capq} : sum58[31:0];
        charge = cfg_hw_rate_throttle_en ? {req_bytes_rd, 10'd0} : 26'd0;
        diff33 = {fill[31], fill} - {7'd0, charge};
        credit_n = ($signed(diff33) < $signed(CREDIT_MIN_33)) ? 32'h8000_0000 : diff33[31:0];
        gexec_rate_ok = $signed(credit_n) > 0;

        // spec-mq 4.6: the grant's QP (inc); no clear: gexec excludes a qp_clear visit
        g_dec = rexec & (rx_qp == gx_qp);
        {gexec_ost_hi, gexec_ost_lo, g_gcnt_n} =
            joint(gcnt_rd, dcnt_rd, 1'b0, 1'b1, g_dec, ost_limit_hi, ost_limit_lo);

        // spec-mq 5.8: the qp_clear's QP v (clr); the outstanding count becomes 0
        // (no inc: a qp_clear visit excludes gexec)
        c_dec = rexec & (rx_qp == scan_q);
        {clr_ost_hi, clr_ost_lo, c_gcnt_n} =
            joint(gcnt_v, dcnt_v, 1'b1, 1'b0, c_dec, ost_limit_hi, ost_limit_lo);

        // the write port: an executed grant, else the init visit or a qp_clear of v (never together)
        mem_we          = gexec | init_visit | qp_clear_v;
        mem_qp          = gexec ? gx_qp : scan_q;
        mem_cc_byte_cnt = gexec ? {now, credit_n} : {now, 1'b0, capq};
        mem_gcnt        = gexec ? g_gcnt_n : (init_visit ? 8'd0 : c_gcnt_n);

        // speed limiter (spec-mq 4.5): charged one cycle after the pick
        pc_sum  = {pcredit[31], pcredit} + {9'd0, LINE_WIN};
        pc_min  = ($signed(pc_sum) > $signed({2'b00, capq})) ? {2'b00, capq} : pc_sum;
        pc_diff = pc_min - (gexec ? {7'd0, req_bytes_rd, 10'd0} : 33'd0);
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            gx_valid <= 1'b0;
            gx_qp    <= 12'd0;
            pcredit  <= PCREDIT_RESET;
            g_valid  <= 1'b0;
            g_qp     <= 12'd0;
            g_bytes  <= 16'd0;
        end else begin
            gx_valid <= pick_valid;
            if (pick_valid) begin
                gx_qp <= pick_qp;
            end
            if (~cfg_speed_limiter_en) begin
                pcredit <= {1'b0, capq};
            end else begin
                pcredit <= ($signed(pc_diff) < $signed(CREDIT_MIN_33)) ? 32'h8000_0000
                         : pc_diff[31:0];
            end
            g_valid <= gexec;
            if (gexec) begin
                g_qp    <= gx_qp;
                g_bytes <= req_bytes_rd;
            end
        end
    end

endmodule
