// SPDX-License-Identifier: MIT
// dcqcn_mq_core: the multi-QP DCQCN block (spec-mq 1-7) with its observation outputs (spec-mq 8,
// crates/dcqcn-model/src/mq/obs.rs).
//
// It holds the seven per-QP bitmaps (spec-mq 4.2), the request input (4.4), the CNP input (5.3)
// and every memory copy (4.2, 4.8), and connects the processes: the visit (dcqcn_mq_visit), the
// grant process with its picker (dcqcn_mq_grant), the report process (dcqcn_mq_rpt) and the
// register file (dcqcn_mq_regs). Each memory has one writing process; each (memory, reading process)
// pair is one dcqcn_mq_mem instance u_<memory>_<reader>, read one cycle ahead (spec-mq 4.8).
//
// The obs_* outputs are pure wiring from the registers (S(t)) and from the memories' write ports
// of cycle t; the top dcqcn_mq leaves them open.

`resetall
`timescale 1ns / 1ps
`default_nettype none

// CLK_FREQ_HZ and LINE_RATE are 32-bit as in dcqcn_rl: the legal ranges (spec-mq 2) end at 2^32 - 1.
module dcqcn_mq_core #(
    parameter int          QPS         = 1024,               // queue pairs (1..4096)
    parameter logic [31:0] CLK_FREQ_HZ = 32'd156_250_000,    // Hz (65537..4294967295)
    parameter logic [31:0] LINE_RATE   = 32'd1_250_000_000   // bytes/s (1..4294967295)
) (
    /* Clock and synchronous reset (active high) */
    input  wire logic              clk,
    input  wire logic              rst,

    /* Work requests (spec-mq 4.4) */
    input  wire logic              s_req_valid,
    input  wire logic [11:0]       s_req_qp,
    input  wire logic [15:0]       s_req_bytes,

    /* CNP events (spec-mq 5.3) */
    input  wire logic              s_cnp_valid,
    input  wire logic [11:0]       s_cnp_qp,

    /* Sent-byte reports (spec-mq 4.6) */
    input  wire logic              s_rpt_valid,
    input  wire logic [11:0]       s_rpt_qp,
    input  wire logic [15:0]       s_rpt_bytes,

    /* Grants (spec-mq 4.5) */
    input  wire logic              grant_pause,
    output logic                   m_grant_valid,
    output logic      [11:0]       m_grant_qp,
    output logic      [15:0]       m_grant_bytes,

    /* AXI4-Lite slave: write */
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

    /* AXI4-Lite slave: read */
    input  wire logic [20:0]       s_axil_araddr,
    input  wire logic              s_axil_arvalid,
    output logic                   s_axil_arready,
    output logic      [31:0]       s_axil_rdata,
    output logic      [1:0]        s_axil_rresp,
    output logic                   s_axil_rvalid,
    input  wire logic              s_axil_rready,

    /* Observation (spec-mq 8; layout: crates/dcqcn-model/src/mq/obs.rs) */
    output logic      [1193:0]     obs_state,
    output logic      [7*QPS-1:0]  obs_bitmaps,
    output logic      [496:0]      obs_writes
);

    /* Parameters and derived values (spec-mq 2) */
    localparam logic [63:0] LINE_WIN_64 = ({32'd0, LINE_RATE} * 64'd1024) / {32'd0, CLK_FREQ_HZ};
    localparam logic [23:0] LINE_WIN    = LINE_WIN_64[23:0];
    // QPS clamped to its legal range: only the checks below see an illegal value, so that the
    // elaboration stops with their message rather than on a zero-sized array
    localparam int          QPS_E       = (QPS < 1) ? 1 : ((QPS > 4096) ? 4096 : QPS);
    localparam int          AW          = (QPS_E <= 2) ? 1 : $clog2(QPS_E);
    localparam logic [12:0] QPS_13      = 13'(QPS_E);  // QPS as a 13-bit constant (spec-mq 9)

    // spec-mq 2: illegal parameters are an elaboration error
`ifdef __ICARUS__
    // Icarus has no elaboration-time $fatal; fail at time 0 instead
    initial begin : g_checks
        if (QPS < 1 || QPS > 4096) $fatal(1, "dcqcn_mq: QPS %0d out of range 1..4096", QPS);
        if (CLK_FREQ_HZ < 32'd65_537)
            $fatal(1, "dcqcn_mq: CLK_FREQ_HZ %0d out of range 65537..4294967295", CLK_FREQ_HZ);
        if (LINE_RATE == 32'd0)
            $fatal(1, "dcqcn_mq: LINE_RATE %0d out of range 1..4294967295", LINE_RATE);
        if (LINE_WIN_64 < 64'd1 || LINE_WIN_64 > 64'd16_777_215)
            $fatal(1, "dcqcn_mq: LINE_WIN %0d out of range 1..16777215", LINE_WIN_64);
    end
`else
    if (QPS < 1 || QPS > 4096) begin : g_bad_qps
        $fatal(1, "dcqcn_mq: QPS %0d out of range 1..4096", QPS);
    end
    if (CLK_FREQ_HZ < 32'd65_537) begin : g_bad_clk_freq
        $fatal(1, "dcqcn_mq: CLK_FREQ_HZ %0d out of range 65537..4294967295", CLK_FREQ_HZ);
    end
    if (LINE_RATE == 32'd0) begin : g_bad_line_rate
        $fatal(1, "dcqcn_mq: LINE_RATE %0d out of range 1..4294967295", LINE_RATE);
    end
    if (LINE_WIN_64 < 64'd1 || LINE_WIN_64 > 64'd16_777_215) begin : g_bad_line_win
        $fatal(1, "dcqcn_mq: LINE_WIN %0d out of range 1..16777215", LINE_WIN_64);
    end
`endif

    /* Bitmaps (spec-mq 4.2): one flip-flop per QP */
    logic [QPS_E-1:0] req_valid;
    logic [QPS_E-1:0] rate_ok;
    logic [QPS_E-1:0] ost_lt_hi;
    logic [QPS_E-1:0] ost_lt_lo;
    logic [QPS_E-1:0] lim8;
    logic [QPS_E-1:0] cnp_flag;
    logic [QPS_E-1:0] arb_mask;

    /* Configuration (spec-mq 6.2), from dcqcn_mq_regs */
    logic        cfg_dcqcn_hw_en;
    logic        cfg_hw_rate_throttle_en;
    logic        cfg_tx_wqe_ost_limit_en;
    logic        cfg_speed_limiter_en;
    logic [15:0] cfg_cnp_merge_period;
    logic [23:0] cfg_nocnp_timer_th;
    logic [31:0] cfg_byte_cnt_th;
    logic [23:0] cfg_max_rate;
    logic [15:0] cfg_alpha_timer_th;
    logic [9:0]  cfg_upd_alpha_g;
    logic [3:0]  cfg_alpha_rate_shift;
    logic [9:0]  cfg_alpha_init;
    logic [23:0] cfg_rate_ai;
    logic [23:0] cfg_rate_hai;
    logic [23:0] cfg_rate_min;
    logic [7:0]  cfg_stage_threshold;
    logic        cfg_clamp_tgt;
    logic [23:0] cfg_cnp_timer_thrd;
    logic [7:0]  cfg_ost_limit;
    logic [7:0]  cfg_ost_limit_cnp;
    logic [20:0] cfg_credit_cap;
    logic        cfg_dfx_en;
    logic        cfg_dfx_wrap;
    logic [5:0]  cfg_dfx_sel;
    logic [11:0] cfg_dfx_qp;
    logic [30:0] capq;  // CAPQ = max(cfg_credit_cap, 1) * 1024 (spec-mq 2)

    /* Counters and DFX registers (spec-mq 6.2, 5.9), from dcqcn_mq_regs (for obs_state) */
    logic [31:0] cnt_cnp;
    logic [31:0] cnt_dec;
    logic [31:0] cnt_inc_fr;
    logic [31:0] cnt_inc_ai;
    logic [31:0] cnt_inc_hai;
    logic [31:0] cnt_inc_timer;
    logic [31:0] cnt_inc_byte;
    logic [31:0] cnt_grant;
    logic [63:0] cnt_grant_bytes;
    logic [31:0] cnt_grant_bytes_latch;
    logic [31:0] cnt_req;
    logic [31:0] cnt_req_drop;
    logic [31:0] cnt_rpt;
    logic [31:0] cnt_rpt_spurious;
    logic [31:0] cnt_bad_qp;
    logic [31:0] cnt_init_drop;
    logic [6:0]  dfx_count;
    logic [5:0]  dfx_wptr;
    logic        dfx_lost;
    logic [9:0]  dfx_n_dec;
    logic [9:0]  dfx_n_byte;
    logic [9:0]  dfx_n_timer;
    logic [31:0] dfx_time;
    logic        dfx_rec;        // the DFX write of this cycle (obs wd)
    logic [59:0] dfx_rec_entry;

    /* Pending window accesses and AXI4-Lite responses (spec-mq 4.2, 6.1), from dcqcn_mq_regs */
    logic        wpend;
    logic [11:0] wq;
    logic [5:0]  wword;
    logic [31:0] wdata;
    logic [3:0]  wstrb;
    logic        wclr;           // the pending write is a qp_clear (spec-mq 4.5)
    logic        aclr;           // a qp_clear accepted this cycle (spec-mq 4.5)
    logic [11:0] aclr_q;         // its QP
    logic        rpend;
    logic [11:0] rq;
    logic [5:0]  rword;
    logic        bvalid;
    logic [1:0]  bresp;
    logic        rvalid;
    logic [31:0] rdata;
    logic [1:0]  rresp;

    /* Visit (spec-mq 4.3, 5.4), from dcqcn_mq_visit */
    logic [31:0] now;
    logic [11:0] scan_q;
    logic        init;
    logic [11:0] next_scan;      // scan_q': the visit's read address (spec-mq 4.8)
    logic        visit_we;       // a visit with scan_q < QPS outside reset: the record write
    logic        init_visit;     // an init visit (spec-mq 4.3)
    logic        norm_visit;     // a normal visit
    logic        qp_clear_v;     // the normal visit completes a qp_clear (spec-mq 5.8)
    logic        wake;           // rate_ok'[v] |= wake (spec-mq 4.3)
    logic        lim_clr;        // lim8'[v] = 0 (spec-mq 5.4 step 1)
    logic        arb_we;         // arb_mask'[v] = arb_val (spec-mq 6.3)
    logic        arb_val;
    logic        win_wr_done;    // the pending window write completes at this visit (spec-mq 6.1)
    logic        win_rd_done;    // the pending window read completes at this visit
    logic [31:0] win_rdata;      // its value in S(t)
    logic        ev_dec;         // the visit's rate events (spec-mq 5.4 counters)
    logic        ev_inc;
    logic        ev_tf;
    logic        ev_bf;
    logic [1:0]  ev_phase;       // 01 fast recovery, 10 hyper, 11 additive (docs/spec.md 4.10)
    logic [23:0] ev_rc;          // rc' of the visit (the DFX entry's rc, spec-mq 5.9)

    /* Grant process (spec-mq 4.5), from dcqcn_mq_grant */
    logic        pick_valid;
    logic [11:0] pick_qp;
    logic [11:0] rr;
    logic        gx_valid;
    logic [11:0] gx_qp;
    logic [31:0] pcredit;
    logic        g_valid;
    logic [11:0] g_qp;
    logic [15:0] g_bytes;
    logic        gexec;          // a grant execution this cycle
    logic [15:0] gexec_bytes;
    logic        gexec_rate_ok;  // rate_ok'[gx_qp]
    logic        gexec_ost_hi;   // ost_lt_hi'[gx_qp], ost_lt_lo'[gx_qp] (spec-mq 4.6)
    logic        gexec_ost_lo;
    logic        clr_ost_hi;     // ost_lt_hi'[v], ost_lt_lo'[v] of a qp_clear visit
    logic        clr_ost_lo;
    logic        g_mem_we;       // write port of CC_BYTE_CNT_MEM and GRANT_CNT_MEM
    logic [11:0] g_mem_qp;
    logic [63:0] g_mem_cc_byte_cnt;
    logic [7:0]  g_mem_gcnt;

    /* Report process (spec-mq 4.6), from dcqcn_mq_rpt */
    logic        rx_valid;
    logic [11:0] rx_qp;
    logic [15:0] rx_bytes;
    logic        rexec;          // a report execution this cycle
    logic        rexec_spur;     // ... with nothing outstanding
    logic        rexec_ost_hi;   // ost_lt_hi'[rx_qp], ost_lt_lo'[rx_qp]
    logic        rexec_ost_lo;
    logic        rpt_bad_qp;     // a report input with QP >= QPS
    logic        rpt_init_drop;  // a report input in the init round
    logic        r_mem_we;       // write port of DONE_CNT_MEM and SENT_MEM
    logic [11:0] r_mem_qp;
    logic [7:0]  r_mem_dcnt;
    logic [31:0] r_mem_sent;

    /* Request and CNP inputs (spec-mq 4.4, 5.3) */
    logic        req_in_range;
    logic        req_accept;
    logic        req_drop;
    logic        cnp_in_range;
    logic        cnp_accept;
    logic        cnp_init_drop;
    logic [1:0]  ev_bad_qp;      // inputs with QP >= QPS this cycle (0..3)
    logic [1:0]  ev_init_drop;   // CNPs and reports dropped in the init round (0..2)

    /* Memory read data (spec-mq 4.2, 5.2): <memory>_<reader> */
    logic [63:0] cc_byte_cnt_grant;
    logic [63:0] cc_byte_cnt_visit;
    logic [7:0]  gcnt_grant;
    logic [7:0]  gcnt_rpt;
    logic [7:0]  gcnt_visit;
    logic [7:0]  dcnt_rpt;
    logic [7:0]  dcnt_grant;
    logic [7:0]  dcnt_visit;
    logic [31:0] sent_rpt;
    logic [31:0] sent_visit;
    logic [15:0] req_bytes_grant;
    logic [15:0] req_bytes_visit;
    logic [23:0] cc_rate_grant;
    logic [23:0] cc_rate_visit;
    logic [47:0] rate_visit;
    logic [25:0] alpha_visit;
    logic [40:0] cnp_merge_visit;
    logic [63:0] byte_counter_visit;
    logic [40:0] t_bc_visit;

    /* The visit's record writes (spec-mq 5.2) */
    logic [47:0] rate_wd;
    logic [23:0] cc_rate_wd;
    logic [25:0] alpha_wd;
    logic [40:0] cnp_merge_wd;
    logic [63:0] byte_counter_wd;
    logic [40:0] t_bc_wd;

    assign capq = {(cfg_credit_cap == 21'd0) ? 21'd1 : cfg_credit_cap, 10'd0};

    /* Request input (spec-mq 4.4) and CNP input (spec-mq 5.3) */
    always_comb begin
        req_in_range  = {1'b0, s_req_qp} < QPS_13;
        req_accept    = ~rst & s_req_valid & req_in_range & ~req_valid[s_req_qp[AW-1:0]];
        req_drop      = s_req_valid & req_in_range & req_valid[s_req_qp[AW-1:0]];
        cnp_in_range  = {1'b0, s_cnp_qp} < QPS_13;
        cnp_accept    = ~rst & s_cnp_valid & cnp_in_range & ~init;
        cnp_init_drop = s_cnp_valid & cnp_in_range & init;
        ev_bad_qp     = {1'b0, s_req_valid & ~req_in_range} + {1'b0, s_cnp_valid & ~cnp_in_range}
                      + {1'b0, rpt_bad_qp};
        ev_init_drop  = {1'b0, cnp_init_drop} + {1'b0, rpt_init_drop};
    end

    /* Bitmaps (spec-mq 4.2, 4.7, 5.8): every writer of a bit, with its precedence */
    always_ff @(posedge clk) begin
        if (rst) begin
            req_valid <= '0;
            rate_ok   <= '1;
            ost_lt_hi <= '1;
            ost_lt_lo <= '1;
            lim8      <= '0;
            cnp_flag  <= '0;
            arb_mask  <= '0;
        end else begin
            for (int q = 0; q < QPS_E; q++) begin
                // the visit's QP v = scan_q
                if (12'(q) == scan_q) begin
                    // spec-mq 5.8: a qp_clear sets rate_ok and clears req_valid, lim8, cnp_flag
                    if (qp_clear_v) begin
                        req_valid[q] <= 1'b0;
                        rate_ok[q]   <= 1'b1;
                        ost_lt_hi[q] <= clr_ost_hi;
                        ost_lt_lo[q] <= clr_ost_lo;
                    end
                    // spec-mq 4.3: the wake check
                    if (wake) begin
                        rate_ok[q] <= 1'b1;
                    end
                    // spec-mq 5.4 step 1: a normal visit consumes cnp_flag; lim8 at the CNP timer
                    if (norm_visit) begin
                        cnp_flag[q] <= 1'b0;
                    end
                    if (lim_clr | qp_clear_v) begin
                        lim8[q] <= 1'b0;
                    end
                    // spec-mq 6.3: arb_mask is written by a window write of qp_ctrl
                    if (arb_we) begin
                        arb_mask[q] <= arb_val;
                    end
                end
                // spec-mq 4.6: the report process writes the outstanding bits of rx_qp
                if (rexec && 12'(q) == rx_qp) begin
                    ost_lt_hi[q] <= rexec_ost_hi;
                    ost_lt_lo[q] <= rexec_ost_lo;
                end
                // spec-mq 4.5: the grant process writes rate_ok and the outstanding bits of gx_qp
                // (spec-mq 4.7: for rate_ok the grant wins over the wake)
                if (gexec && 12'(q) == gx_qp) begin
                    rate_ok[q]   <= gexec_rate_ok;
                    ost_lt_hi[q] <= gexec_ost_hi;
                    ost_lt_lo[q] <= gexec_ost_lo;
                end
                // spec-mq 4.5: the pick empties the slot
                if (pick_valid && 12'(q) == pick_qp) begin
                    req_valid[q] <= 1'b0;
                end
                // spec-mq 4.4, 4.7: an accepted request sets its slot (set wins over the clear)
                if (req_accept && 12'(q) == s_req_qp) begin
                    req_valid[q] <= 1'b1;
                end
                // spec-mq 5.3, 4.7: a CNP input sets cnp_flag and lim8 (set wins over the visit)
                if (cnp_accept && 12'(q) == s_cnp_qp) begin
                    cnp_flag[q] <= 1'b1;
                    lim8[q]     <= 1'b1;
                end
            end
        end
    end

    /* Processes */
    dcqcn_mq_visit #(
        .QPS      (QPS_E),
        .LINE_WIN (LINE_WIN)
    ) u_visit (
        .clk                  (clk),
        .rst                  (rst),
        .now                  (now),
        .scan_q               (scan_q),
        .init                 (init),
        .next_scan            (next_scan),
        .visit_we             (visit_we),
        .init_visit           (init_visit),
        .norm_visit           (norm_visit),
        .rate_rd              (rate_visit),
        .cc_rate_rd           (cc_rate_visit),
        .alpha_rd             (alpha_visit),
        .cnp_merge_rd         (cnp_merge_visit),
        .byte_counter_rd      (byte_counter_visit),
        .t_bc_rd              (t_bc_visit),
        .cc_byte_cnt_rd       (cc_byte_cnt_visit),
        .gcnt_rd              (gcnt_visit),
        .dcnt_rd              (dcnt_visit),
        .sent_rd              (sent_visit),
        .req_bytes_rd         (req_bytes_visit),
        .req_valid_v          (req_valid[scan_q[AW-1:0]]),
        .rate_ok_v            (rate_ok[scan_q[AW-1:0]]),
        .ost_lt_hi_v          (ost_lt_hi[scan_q[AW-1:0]]),
        .ost_lt_lo_v          (ost_lt_lo[scan_q[AW-1:0]]),
        .lim8_v               (lim8[scan_q[AW-1:0]]),
        .cnp_flag_v           (cnp_flag[scan_q[AW-1:0]]),
        .arb_mask_v           (arb_mask[scan_q[AW-1:0]]),
        .wpend                (wpend),
        .wq                   (wq),
        .wword                (wword),
        .wdata                (wdata),
        .wstrb                (wstrb),
        .wclr                 (wclr),
        .rpend                (rpend),
        .rq                   (rq),
        .rword                (rword),
        .cfg_dcqcn_hw_en      (cfg_dcqcn_hw_en),
        .cfg_cnp_merge_period (cfg_cnp_merge_period),
        .cfg_nocnp_timer_th   (cfg_nocnp_timer_th),
        .cfg_byte_cnt_th      (cfg_byte_cnt_th),
        .cfg_max_rate         (cfg_max_rate),
        .cfg_alpha_timer_th   (cfg_alpha_timer_th),
        .cfg_upd_alpha_g      (cfg_upd_alpha_g),
        .cfg_alpha_rate_shift (cfg_alpha_rate_shift),
        .cfg_alpha_init       (cfg_alpha_init),
        .cfg_rate_ai          (cfg_rate_ai),
        .cfg_rate_hai         (cfg_rate_hai),
        .cfg_rate_min         (cfg_rate_min),
        .cfg_stage_threshold  (cfg_stage_threshold),
        .cfg_clamp_tgt        (cfg_clamp_tgt),
        .cfg_cnp_timer_thrd   (cfg_cnp_timer_thrd),
        .rate_wd              (rate_wd),
        .cc_rate_wd           (cc_rate_wd),
        .alpha_wd             (alpha_wd),
        .cnp_merge_wd         (cnp_merge_wd),
        .byte_counter_wd      (byte_counter_wd),
        .t_bc_wd              (t_bc_wd),
        .qp_clear_v           (qp_clear_v),
        .wake                 (wake),
        .lim_clr              (lim_clr),
        .arb_we               (arb_we),
        .arb_val              (arb_val),
        .win_wr_done          (win_wr_done),
        .win_rd_done          (win_rd_done),
        .win_rdata            (win_rdata),
        .ev_dec               (ev_dec),
        .ev_inc               (ev_inc),
        .ev_tf                (ev_tf),
        .ev_bf                (ev_bf),
        .ev_phase             (ev_phase),
        .ev_rc                (ev_rc)
    );

    dcqcn_mq_grant #(
        .QPS      (QPS_E),
        .LINE_WIN (LINE_WIN)
    ) u_grant (
        .clk                     (clk),
        .rst                     (rst),
        .now                     (now),
        .init                    (init),
        .scan_q                  (scan_q),
        .next_scan               (next_scan),
        .init_visit              (init_visit),
        .qp_clear_v              (qp_clear_v),
        .wpend                   (wpend),
        .wclr                    (wclr),
        .aclr                    (aclr),
        .aclr_q                  (aclr_q),
        .wq                      (wq),
        .grant_pause             (grant_pause),
        .req_valid               (req_valid),
        .arb_mask                (arb_mask),
        .rate_ok                 (rate_ok),
        .ost_lt_hi               (ost_lt_hi),
        .ost_lt_lo               (ost_lt_lo),
        .lim8                    (lim8),
        .cfg_hw_rate_throttle_en (cfg_hw_rate_throttle_en),
        .cfg_tx_wqe_ost_limit_en (cfg_tx_wqe_ost_limit_en),
        .cfg_speed_limiter_en    (cfg_speed_limiter_en),
        .cfg_ost_limit           (cfg_ost_limit),
        .cfg_ost_limit_cnp       (cfg_ost_limit_cnp),
        .capq                    (capq),
        .cc_byte_cnt_rd          (cc_byte_cnt_grant),
        .gcnt_rd                 (gcnt_grant),
        .dcnt_rd                 (dcnt_grant),
        .req_bytes_rd            (req_bytes_grant),
        .cc_rate_rd              (cc_rate_grant),
        .gcnt_v                  (gcnt_visit),
        .dcnt_v                  (dcnt_visit),
        .rexec                   (rexec),
        .rx_qp                   (rx_qp),
        .pick_valid              (pick_valid),
        .pick_qp                 (pick_qp),
        .rr                      (rr),
        .gx_valid                (gx_valid),
        .gx_qp                   (gx_qp),
        .pcredit                 (pcredit),
        .g_valid                 (g_valid),
        .g_qp                    (g_qp),
        .g_bytes                 (g_bytes),
        .gexec                   (gexec),
        .gexec_bytes             (gexec_bytes),
        .gexec_rate_ok           (gexec_rate_ok),
        .gexec_ost_hi            (gexec_ost_hi),
        .gexec_ost_lo            (gexec_ost_lo),
        .clr_ost_hi              (clr_ost_hi),
        .clr_ost_lo              (clr_ost_lo),
        .mem_we                  (g_mem_we),
        .mem_qp                  (g_mem_qp),
        .mem_cc_byte_cnt         (g_mem_cc_byte_cnt),
        .mem_gcnt                (g_mem_gcnt)
    );

    dcqcn_mq_rpt #(
        .QPS (QPS_E)
    ) u_rpt (
        .clk               (clk),
        .rst               (rst),
        .init              (init),
        .scan_q            (scan_q),
        .init_visit        (init_visit),
        .qp_clear_v        (qp_clear_v),
        .s_rpt_valid       (s_rpt_valid),
        .s_rpt_qp          (s_rpt_qp),
        .s_rpt_bytes       (s_rpt_bytes),
        .gexec             (gexec),
        .gx_qp             (gx_qp),
        .cfg_ost_limit     (cfg_ost_limit),
        .cfg_ost_limit_cnp (cfg_ost_limit_cnp),
        .dcnt_rd           (dcnt_rpt),
        .gcnt_rd           (gcnt_rpt),
        .sent_rd           (sent_rpt),
        .rx_valid          (rx_valid),
        .rx_qp             (rx_qp),
        .rx_bytes          (rx_bytes),
        .rexec             (rexec),
        .rexec_spur        (rexec_spur),
        .rexec_ost_hi      (rexec_ost_hi),
        .rexec_ost_lo      (rexec_ost_lo),
        .rpt_bad_qp        (rpt_bad_qp),
        .rpt_init_drop     (rpt_init_drop),
        .mem_we            (r_mem_we),
        .mem_qp            (r_mem_qp),
        .mem_dcnt          (r_mem_dcnt),
        .mem_sent          (r_mem_sent)
    );

    dcqcn_mq_regs #(
        .QPS         (QPS_E),
        .CLK_FREQ_HZ (CLK_FREQ_HZ),
        .LINE_WIN    (LINE_WIN)
    ) u_regs (
        .clk                     (clk),
        .rst                     (rst),
        .s_axil_awaddr           (s_axil_awaddr),
        .s_axil_awvalid          (s_axil_awvalid),
        .s_axil_awready          (s_axil_awready),
        .s_axil_wdata            (s_axil_wdata),
        .s_axil_wstrb            (s_axil_wstrb),
        .s_axil_wvalid           (s_axil_wvalid),
        .s_axil_wready           (s_axil_wready),
        .s_axil_bresp            (s_axil_bresp),
        .s_axil_bvalid           (s_axil_bvalid),
        .s_axil_bready           (s_axil_bready),
        .s_axil_araddr           (s_axil_araddr),
        .s_axil_arvalid          (s_axil_arvalid),
        .s_axil_arready          (s_axil_arready),
        .s_axil_rdata            (s_axil_rdata),
        .s_axil_rresp            (s_axil_rresp),
        .s_axil_rvalid           (s_axil_rvalid),
        .s_axil_rready           (s_axil_rready),
        .init                    (init),
        .now                     (now),
        .scan_q                  (scan_q),
        .norm_visit              (norm_visit),
        .pcredit                 (pcredit),
        .win_wr_done             (win_wr_done),
        .win_rd_done             (win_rd_done),
        .win_rdata               (win_rdata),
        .ev_cnp                  (cnp_accept),
        .ev_dec                  (ev_dec),
        .ev_inc                  (ev_inc),
        .ev_tf                   (ev_tf),
        .ev_bf                   (ev_bf),
        .ev_phase                (ev_phase),
        .ev_rc                   (ev_rc),
        .ev_grant                (gexec),
        .ev_grant_bytes          (gexec_bytes),
        .ev_req                  (req_accept),
        .ev_req_drop             (req_drop),
        .ev_rpt                  (rexec),
        .ev_rpt_spurious         (rexec_spur),
        .ev_bad_qp               (ev_bad_qp),
        .ev_init_drop            (ev_init_drop),
        .cfg_dcqcn_hw_en         (cfg_dcqcn_hw_en),
        .cfg_hw_rate_throttle_en (cfg_hw_rate_throttle_en),
        .cfg_tx_wqe_ost_limit_en (cfg_tx_wqe_ost_limit_en),
        .cfg_speed_limiter_en    (cfg_speed_limiter_en),
        .cfg_cnp_merge_period    (cfg_cnp_merge_period),
        .cfg_nocnp_timer_th      (cfg_nocnp_timer_th),
        .cfg_byte_cnt_th         (cfg_byte_cnt_th),
        .cfg_max_rate            (cfg_max_rate),
        .cfg_alpha_timer_th      (cfg_alpha_timer_th),
        .cfg_upd_alpha_g         (cfg_upd_alpha_g),
        .cfg_alpha_rate_shift    (cfg_alpha_rate_shift),
        .cfg_alpha_init          (cfg_alpha_init),
        .cfg_rate_ai             (cfg_rate_ai),
        .cfg_rate_hai            (cfg_rate_hai),
        .cfg_rate_min            (cfg_rate_min),
        .cfg_stage_threshold     (cfg_stage_threshold),
        .cfg_clamp_tgt           (cfg_clamp_tgt),
        .cfg_cnp_timer_thrd      (cfg_cnp_timer_thrd),
        .cfg_ost_limit           (cfg_ost_limit),
        .cfg_ost_limit_cnp       (cfg_ost_limit_cnp),
        .cfg_credit_cap          (cfg_credit_cap),
        .cfg_dfx_en              (cfg_dfx_en),
        .cfg_dfx_wrap            (cfg_dfx_wrap),
        .cfg_dfx_sel             (cfg_dfx_sel),
        .cfg_dfx_qp              (cfg_dfx_qp),
        .cnt_cnp                 (cnt_cnp),
        .cnt_dec                 (cnt_dec),
        .cnt_inc_fr              (cnt_inc_fr),
        .cnt_inc_ai              (cnt_inc_ai),
        .cnt_inc_hai             (cnt_inc_hai),
        .cnt_inc_timer           (cnt_inc_timer),
        .cnt_inc_byte            (cnt_inc_byte),
        .cnt_grant               (cnt_grant),
        .cnt_grant_bytes         (cnt_grant_bytes),
        .cnt_grant_bytes_latch   (cnt_grant_bytes_latch),
        .cnt_req                 (cnt_req),
        .cnt_req_drop            (cnt_req_drop),
        .cnt_rpt                 (cnt_rpt),
        .cnt_rpt_spurious        (cnt_rpt_spurious),
        .cnt_bad_qp              (cnt_bad_qp),
        .cnt_init_drop           (cnt_init_drop),
        .dfx_count               (dfx_count),
        .dfx_wptr                (dfx_wptr),
        .dfx_lost                (dfx_lost),
        .dfx_n_dec               (dfx_n_dec),
        .dfx_n_byte              (dfx_n_byte),
        .dfx_n_timer             (dfx_n_timer),
        .dfx_time                (dfx_time),
        .dfx_rec                 (dfx_rec),
        .dfx_rec_entry           (dfx_rec_entry),
        .wpend                   (wpend),
        .wq                      (wq),
        .wword                   (wword),
        .wdata                   (wdata),
        .wstrb                   (wstrb),
        .wclr                    (wclr),
        .aclr                    (aclr),
        .aclr_q                  (aclr_q),
        .rpend                   (rpend),
        .rq                      (rq),
        .rword                   (rword),
        .bvalid                  (bvalid),
        .bresp                   (bresp),
        .rvalid                  (rvalid),
        .rdata                   (rdata),
        .rresp                   (rresp)
    );

    assign m_grant_valid = g_valid;
    assign m_grant_qp    = g_qp;
    assign m_grant_bytes = g_bytes;

    /* Memories (spec-mq 4.2, 5.2): one copy per reading process, always written together */

    // CC_BYTE_CNT_MEM {stamp, credit}: written by the grant process; read by grant, visit
    dcqcn_mq_mem #(.W(64), .QPS(QPS_E), .AW(AW)) u_cc_byte_cnt_mem_grant (
        .clk(clk), .rst(rst), .we(g_mem_we), .waddr(g_mem_qp[AW-1:0]), .wdata(g_mem_cc_byte_cnt),
        .raddr(pick_qp[AW-1:0]), .rdata(cc_byte_cnt_grant));
    dcqcn_mq_mem #(.W(64), .QPS(QPS_E), .AW(AW)) u_cc_byte_cnt_mem_visit (
        .clk(clk), .rst(rst), .we(g_mem_we), .waddr(g_mem_qp[AW-1:0]), .wdata(g_mem_cc_byte_cnt),
        .raddr(next_scan[AW-1:0]), .rdata(cc_byte_cnt_visit));

    // GRANT_CNT_MEM {gcnt}: written by the grant process; read by grant, report, visit
    dcqcn_mq_mem #(.W(8), .QPS(QPS_E), .AW(AW)) u_grant_cnt_mem_grant (
        .clk(clk), .rst(rst), .we(g_mem_we), .waddr(g_mem_qp[AW-1:0]), .wdata(g_mem_gcnt),
        .raddr(pick_qp[AW-1:0]), .rdata(gcnt_grant));
    dcqcn_mq_mem #(.W(8), .QPS(QPS_E), .AW(AW)) u_grant_cnt_mem_rpt (
        .clk(clk), .rst(rst), .we(g_mem_we), .waddr(g_mem_qp[AW-1:0]), .wdata(g_mem_gcnt),
        .raddr(s_rpt_qp[AW-1:0]), .rdata(gcnt_rpt));
    dcqcn_mq_mem #(.W(8), .QPS(QPS_E), .AW(AW)) u_grant_cnt_mem_visit (
        .clk(clk), .rst(rst), .we(g_mem_we), .waddr(g_mem_qp[AW-1:0]), .wdata(g_mem_gcnt),
        .raddr(next_scan[AW-1:0]), .rdata(gcnt_visit));

    // DONE_CNT_MEM {dcnt}: written by the report process; read by report, grant, visit
    dcqcn_mq_mem #(.W(8), .QPS(QPS_E), .AW(AW)) u_done_cnt_mem_rpt (
        .clk(clk), .rst(rst), .we(r_mem_we), .waddr(r_mem_qp[AW-1:0]), .wdata(r_mem_dcnt),
        .raddr(s_rpt_qp[AW-1:0]), .rdata(dcnt_rpt));
    dcqcn_mq_mem #(.W(8), .QPS(QPS_E), .AW(AW)) u_done_cnt_mem_grant (
        .clk(clk), .rst(rst), .we(r_mem_we), .waddr(r_mem_qp[AW-1:0]), .wdata(r_mem_dcnt),
        .raddr(pick_qp[AW-1:0]), .rdata(dcnt_grant));
    dcqcn_mq_mem #(.W(8), .QPS(QPS_E), .AW(AW)) u_done_cnt_mem_visit (
        .clk(clk), .rst(rst), .we(r_mem_we), .waddr(r_mem_qp[AW-1:0]), .wdata(r_mem_dcnt),
        .raddr(next_scan[AW-1:0]), .rdata(dcnt_visit));

    // SENT_MEM {sent}: written by the report process; read by report, visit
    dcqcn_mq_mem #(.W(32), .QPS(QPS_E), .AW(AW)) u_sent_mem_rpt (
        .clk(clk), .rst(rst), .we(r_mem_we), .waddr(r_mem_qp[AW-1:0]), .wdata(r_mem_sent),
        .raddr(s_rpt_qp[AW-1:0]), .rdata(sent_rpt));
    dcqcn_mq_mem #(.W(32), .QPS(QPS_E), .AW(AW)) u_sent_mem_visit (
        .clk(clk), .rst(rst), .we(r_mem_we), .waddr(r_mem_qp[AW-1:0]), .wdata(r_mem_sent),
        .raddr(next_scan[AW-1:0]), .rdata(sent_visit));

    // REQ_MEM {req_bytes}: written by the request input; read by grant, visit
    dcqcn_mq_mem #(.W(16), .QPS(QPS_E), .AW(AW)) u_req_mem_grant (
        .clk(clk), .rst(rst), .we(req_accept), .waddr(s_req_qp[AW-1:0]), .wdata(s_req_bytes),
        .raddr(pick_qp[AW-1:0]), .rdata(req_bytes_grant));
    dcqcn_mq_mem #(.W(16), .QPS(QPS_E), .AW(AW)) u_req_mem_visit (
        .clk(clk), .rst(rst), .we(req_accept), .waddr(s_req_qp[AW-1:0]), .wdata(s_req_bytes),
        .raddr(next_scan[AW-1:0]), .rdata(req_bytes_visit));

    // CC_RATE_MEM {cc_rate}: written by the visit; read by visit, grant
    dcqcn_mq_mem #(.W(24), .QPS(QPS_E), .AW(AW)) u_cc_rate_mem_visit (
        .clk(clk), .rst(rst), .we(visit_we), .waddr(scan_q[AW-1:0]), .wdata(cc_rate_wd),
        .raddr(next_scan[AW-1:0]), .rdata(cc_rate_visit));
    dcqcn_mq_mem #(.W(24), .QPS(QPS_E), .AW(AW)) u_cc_rate_mem_grant (
        .clk(clk), .rst(rst), .we(visit_we), .waddr(scan_q[AW-1:0]), .wdata(cc_rate_wd),
        .raddr(pick_qp[AW-1:0]), .rdata(cc_rate_grant));

    // the DCQCN record (spec-mq 5.2): written and read by the visit only
    dcqcn_mq_mem #(.W(48), .QPS(QPS_E), .AW(AW)) u_rate_mem_visit (
        .clk(clk), .rst(rst), .we(visit_we), .waddr(scan_q[AW-1:0]), .wdata(rate_wd),
        .raddr(next_scan[AW-1:0]), .rdata(rate_visit));
    dcqcn_mq_mem #(.W(26), .QPS(QPS_E), .AW(AW)) u_alpha_mem_visit (
        .clk(clk), .rst(rst), .we(visit_we), .waddr(scan_q[AW-1:0]), .wdata(alpha_wd),
        .raddr(next_scan[AW-1:0]), .rdata(alpha_visit));
    dcqcn_mq_mem #(.W(41), .QPS(QPS_E), .AW(AW)) u_cnp_merge_mem_visit (
        .clk(clk), .rst(rst), .we(visit_we), .waddr(scan_q[AW-1:0]), .wdata(cnp_merge_wd),
        .raddr(next_scan[AW-1:0]), .rdata(cnp_merge_visit));
    dcqcn_mq_mem #(.W(64), .QPS(QPS_E), .AW(AW)) u_byte_counter_mem_visit (
        .clk(clk), .rst(rst), .we(visit_we), .waddr(scan_q[AW-1:0]), .wdata(byte_counter_wd),
        .raddr(next_scan[AW-1:0]), .rdata(byte_counter_visit));
    dcqcn_mq_mem #(.W(41), .QPS(QPS_E), .AW(AW)) u_t_bc_mem_visit (
        .clk(clk), .rst(rst), .we(visit_we), .waddr(scan_q[AW-1:0]), .wdata(t_bc_wd),
        .raddr(next_scan[AW-1:0]), .rdata(t_bc_visit));

    /* Observation (spec-mq 8; crates/dcqcn-model/src/mq/obs.rs): S(t) and the writes of t */

    // STATE_FIELDS, the first field at bit 0
    assign obs_state = {
        dfx_time, dfx_n_timer, dfx_n_byte, dfx_n_dec, dfx_lost, dfx_wptr, dfx_count,
        cnt_init_drop, cnt_bad_qp, cnt_rpt_spurious, cnt_rpt, cnt_req_drop, cnt_req,
        cnt_grant_bytes_latch, cnt_grant_bytes, cnt_grant, cnt_inc_byte, cnt_inc_timer,
        cnt_inc_hai, cnt_inc_ai, cnt_inc_fr, cnt_dec, cnt_cnp,
        cfg_dfx_qp, cfg_dfx_sel, cfg_dfx_wrap, cfg_dfx_en, cfg_credit_cap, cfg_ost_limit_cnp,
        cfg_ost_limit, cfg_cnp_timer_thrd, cfg_clamp_tgt, cfg_stage_threshold, cfg_rate_min,
        cfg_rate_hai, cfg_rate_ai, cfg_alpha_init, cfg_alpha_rate_shift, cfg_upd_alpha_g,
        cfg_alpha_timer_th, cfg_max_rate, cfg_byte_cnt_th, cfg_nocnp_timer_th,
        cfg_cnp_merge_period, cfg_speed_limiter_en, cfg_tx_wqe_ost_limit_en,
        cfg_hw_rate_throttle_en, cfg_dcqcn_hw_en,
        rresp, rdata, rvalid, bresp, bvalid, rword, rq, rpend, wstrb, wdata, wword, wq, wpend,
        g_bytes, g_qp, g_valid, pcredit, rx_bytes, rx_qp, rx_valid, gx_qp, gx_valid, rr, init,
        scan_q, now
    };

    // BITMAPS: bitmap k at bits k*QPS .. k*QPS+QPS-1
    assign obs_bitmaps = {arb_mask, cnp_flag, lim8, ost_lt_lo, ost_lt_hi, rate_ok, req_valid};

    // STREAMS wv, wg, wr, wq, wd from bit 0: {data, qp, valid} each, 0 when not writing
    logic [256:0] obs_wv;  // 13 + 244
    logic [84:0]  obs_wg;  // 13 + 72
    logic [52:0]  obs_wr;  // 13 + 40
    logic [28:0]  obs_wq;  // 13 + 16
    logic [72:0]  obs_wd;  // 13 + 60

    always_comb begin
        obs_wv = visit_we ? {t_bc_wd[40:17], t_bc_wd[16], t_bc_wd[15:8], t_bc_wd[7:0],
                             byte_counter_wd[63:32], byte_counter_wd[31:0],
                             cnp_merge_wd[40:17], cnp_merge_wd[16], cnp_merge_wd[15:0],
                             alpha_wd[25:10], alpha_wd[9:0], cc_rate_wd,
                             rate_wd[47:24], rate_wd[23:0], scan_q, 1'b1} : '0;
        obs_wg = g_mem_we ? {g_mem_gcnt, g_mem_cc_byte_cnt[63:32], g_mem_cc_byte_cnt[31:0],
                             g_mem_qp, 1'b1} : '0;
        obs_wr = r_mem_we ? {r_mem_sent, r_mem_dcnt, r_mem_qp, 1'b1} : '0;
        obs_wq = req_accept ? {s_req_bytes, s_req_qp, 1'b1} : '0;
        obs_wd = dfx_rec ? {dfx_rec_entry, 6'd0, dfx_wptr, 1'b1} : '0;
        obs_writes = {obs_wd, obs_wq, obs_wr, obs_wg, obs_wv};
    end

endmodule
