// SPDX-License-Identifier: MIT
// dcqcn_mq_visit: the scan, the init round (spec-mq 4.3), the DCQCN visit function (spec-mq 5.4),
// the init record and qp_clear (5.8), the completion of a pending window access (6.1, 6.3) and the
// wake check (4.3).
//
// Every cycle outside reset visits QP v = scan_q. The visit's memory copies were read in t - 1 at
// scan_q' (spec-mq 4.8), so the *_rd inputs are the record of v in S(t); the visit writes every
// record memory of v at the end of t, changed or not.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module dcqcn_mq_visit #(
    parameter int          QPS      = 1024,    // queue pairs (1..4096)
    parameter logic [23:0] LINE_WIN = 24'd8192 // bytes per 1024-cycle window (spec-mq 2)
) (
    input  wire logic        clk,
    input  wire logic        rst,

    /* Scan registers (spec-mq 4.2, 4.3) */
    output logic      [31:0] now,
    output logic      [11:0] scan_q,
    output logic             init,
    output logic      [11:0] next_scan,      // scan_q': the read address of the visit's copies
    output logic             visit_we,       // a visit (scan_q < QPS) outside reset: record write
    output logic             init_visit,     // ... in the init round
    output logic             norm_visit,     // ... a normal visit

    /* The record of v in S(t) (spec-mq 4.2, 5.2), the visit's memory copies */
    input  wire logic [47:0] rate_rd,         // RATE_MEM {rt, rc}
    input  wire logic [23:0] cc_rate_rd,      // CC_RATE_MEM {cc_rate}
    input  wire logic [25:0] alpha_rd,        // ALPHA_MEM {alpha_el, alpha}
    input  wire logic [40:0] cnp_merge_rd,    // CNP_MERGE_MEM {cnp_el, dec_pending, merge_el}
    input  wire logic [63:0] byte_counter_rd, // BYTE_COUNTER_MEM {sent_seen, byte_cnt}
    input  wire logic [40:0] t_bc_rd,         // T_BC_MEM {inc_el, active, b_stage, t_stage}
    input  wire logic [63:0] cc_byte_cnt_rd,  // CC_BYTE_CNT_MEM {stamp, credit}
    input  wire logic [7:0]  gcnt_rd,         // GRANT_CNT_MEM
    input  wire logic [7:0]  dcnt_rd,         // DONE_CNT_MEM
    input  wire logic [31:0] sent_rd,         // SENT_MEM
    input  wire logic [15:0] req_bytes_rd,    // REQ_MEM

    /* The bitmap bits of v in S(t) */
    input  wire logic        req_valid_v,
    input  wire logic        rate_ok_v,
    input  wire logic        ost_lt_hi_v,
    input  wire logic        ost_lt_lo_v,
    input  wire logic        lim8_v,
    input  wire logic        cnp_flag_v,
    input  wire logic        arb_mask_v,

    /* Pending window accesses (spec-mq 6.1) */
    input  wire logic        wpend,
    input  wire logic [11:0] wq,
    input  wire logic [5:0]  wword,
    input  wire logic [31:0] wdata,
    input  wire logic [3:0]  wstrb,
    input  wire logic        wclr,            // the pending write is a qp_clear
    input  wire logic        rpend,
    input  wire logic [11:0] rq,
    input  wire logic [5:0]  rword,

    /* Configuration (spec-mq 6.2) */
    input  wire logic        cfg_dcqcn_hw_en,
    input  wire logic [15:0] cfg_cnp_merge_period,
    input  wire logic [23:0] cfg_nocnp_timer_th,
    input  wire logic [31:0] cfg_byte_cnt_th,
    input  wire logic [23:0] cfg_max_rate,
    input  wire logic [15:0] cfg_alpha_timer_th,
    input  wire logic [9:0]  cfg_upd_alpha_g,
    input  wire logic [3:0]  cfg_alpha_rate_shift,
    input  wire logic [9:0]  cfg_alpha_init,
    input  wire logic [23:0] cfg_rate_ai,
    input  wire logic [23:0] cfg_rate_hai,
    input  wire logic [23:0] cfg_rate_min,
    input  wire logic [7:0]  cfg_stage_threshold,
    input  wire logic        cfg_clamp_tgt,
    input  wire logic [23:0] cfg_cnp_timer_thrd,

    /* The record writes of v (write enable visit_we, address scan_q) */
    output logic      [47:0] rate_wd,
    output logic      [23:0] cc_rate_wd,
    output logic      [25:0] alpha_wd,
    output logic      [40:0] cnp_merge_wd,
    output logic      [63:0] byte_counter_wd,
    output logic      [40:0] t_bc_wd,

    /* Bitmap effects on v (spec-mq 4.2, 5.8) */
    output logic             qp_clear_v,      // this normal visit completes a qp_clear
    output logic             wake,            // rate_ok'[v] = 1 unless a grant on v wins
    output logic             lim_clr,         // lim8'[v] = 0 unless a CNP input for v
    output logic             arb_we,          // arb_mask'[v] = arb_val
    output logic             arb_val,

    /* Window completion (spec-mq 6.1) */
    output logic             win_wr_done,
    output logic             win_rd_done,
    output logic      [31:0] win_rdata,       // the read word's value in S(t)

    /* Rate events of the visit (spec-mq 5.4 "Counters and DFX") */
    output logic             ev_dec,
    output logic             ev_inc,
    output logic             ev_tf,           // ev_inc & tf
    output logic             ev_bf,           // ev_inc & bf
    output logic      [1:0]  ev_phase,        // 01 fast recovery, 10 hyper, 11 additive
    output logic      [23:0] ev_rc            // the final rc' of the visit
);

    localparam logic [12:0] Q        = 13'(QPS);      // the visit increment (spec-mq 5.1, 9)
    localparam logic [11:0] QPS_LAST = 12'(QPS - 1);

    /* The record of v in S(t) (spec-mq 5.2) */
    logic [23:0] rc;
    logic [23:0] rt;
    logic [23:0] cc_rate;
    logic [9:0]  alpha;
    logic [15:0] alpha_el;
    logic [15:0] merge_el;
    logic        dec_pending;
    logic [23:0] cnp_el;
    logic [31:0] byte_cnt;
    logic [31:0] sent_seen;
    logic [7:0]  t_stage;
    logic [7:0]  b_stage;
    logic        active;
    logic [23:0] inc_el;
    logic [31:0] credit;
    logic [31:0] stamp;

    /* The record after steps 1-7 (primed), then after the window write (step 8) */
    logic [23:0] rc_n;
    logic [23:0] rt_n;
    logic [23:0] cc_rate_n;
    logic [9:0]  alpha_n;
    logic [15:0] alpha_el_n;
    logic [15:0] merge_el_n;
    logic        dec_pending_n;
    logic [23:0] cnp_el_n;
    logic [31:0] byte_cnt_n;
    logic [31:0] sent_seen_n;
    logic [7:0]  t_stage_n;
    logic [7:0]  b_stage_n;
    logic        active_n;
    logic [23:0] inc_el_n;
    logic [23:0] cc_rate_applied;  // CC_RATE_MEM'[v] (step 8.2)

    /* Visit function terms (spec-mq 5.1, 5.4) */
    /* verilator lint_off UNUSEDSIGNAL */
    logic [33:0] d;          // < rc: bits [33:24] are 0
    logic [20:0] keep_prod;  // keep = bits [19:10]
    logic [24:0] rc_sum;     // halved: bits [24:1]
    /* verilator lint_on UNUSEDSIGNAL */
    logic        hw;
    logic        cnp;
    logic        lim;
    logic [23:0] rmax;
    logic [23:0] rmin;
    logic [31:0] delta;
    logic [23:0] c1;
    logic        pend;
    logic [15:0] m1;
    logic        dec;
    logic [33:0] rc_alpha;
    logic [23:0] rc_sub;
    logic [23:0] rc_dec;
    logic [23:0] rt_dec;
    logic [10:0] g_keep;
    logic [9:0]  keep;
    logic [15:0] a1;
    logic        a_fire;
    logic        t_en;
    logic        b_en;
    logic [23:0] i1;
    logic [31:0] b1;
    logic        tf;
    logic        bf;
    logic        inc;
    logic [7:0]  t_new;
    logic [7:0]  b_new;
    logic [7:0]  smax;
    logic [7:0]  smin;
    logic        ph_fr;
    logic        ph_hai;
    logic [24:0] rt_sum;
    logic [23:0] rt_inc;
    logic [23:0] rc_inc;

    /* Window write (step 8.1) and the wake check (4.3) */
    logic        win_apply;     // a window write to a record word (not a qp_clear)
    logic [31:0] win_cur;
    logic [31:0] win_new;
    logic [23:0] r_wake;
    logic [31:0] e_wake;
    logic [55:0] re_wake;
    logic [57:0] fill_wake;

    // spec-mq 6.1: byte strobes apply lane by lane to the current value
    function automatic logic [31:0] lane_merge(
        input logic [31:0] cur,
        input logic [31:0] data,
        input logic [3:0]  strb
    );
        for (int i = 0; i < 4; i++) begin
            lane_merge[8*i +: 8] = strb[i] ? data[8*i +: 8] : cur[8*i +: 8];
        end
    endfunction

    function automatic logic [23:0] min24(input logic [23:0] a, input logic [23:0] b);
        min24 = (a < b) ? a : b;
    endfunction

    /* Scan (spec-mq 4.3) */
    always_comb begin
        // scan_q >= QPS - 1, written as scan_q + 1 >= QPS (13 bits); in a reset cycle scan_q's
        // reset value 0, so that the read address is a function of the inputs there (spec-mq 4.8)
        next_scan  = (rst || {1'b0, scan_q} + 13'd1 >= Q) ? 12'd0 : scan_q + 12'd1;
        visit_we   = ~rst & ({1'b0, scan_q} < Q);
        init_visit = visit_we & init;
        norm_visit = visit_we & ~init;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            now    <= 32'd0;
            scan_q <= 12'd0;
            init   <= 1'b1;
        end else begin
            now    <= now + 32'd1;
            scan_q <= next_scan;
            init   <= init & (scan_q != QPS_LAST);
        end
    end

    /* The visit function (spec-mq 5.4) */
    always_comb begin
        {rt, rc}                           = rate_rd;
        cc_rate                            = cc_rate_rd;
        {alpha_el, alpha}                  = alpha_rd;
        {cnp_el, dec_pending, merge_el}    = cnp_merge_rd;
        {sent_seen, byte_cnt}              = byte_counter_rd;
        {inc_el, active, b_stage, t_stage} = t_bc_rd;
        {stamp, credit}                    = cc_byte_cnt_rd;

        hw  = cfg_dcqcn_hw_en;
        cnp = cnp_flag_v;
        lim = lim8_v;

        // spec-mq 5.1: derived rates; the ceiling wins over the floor
        rmax = (cfg_max_rate == 24'd0 || cfg_max_rate > LINE_WIN) ? LINE_WIN : cfg_max_rate;
        rmin = min24((cfg_rate_min == 24'd0) ? 24'd1 : cfg_rate_min, rmax);

        // step 1: byte delta and CNP timer (also with hw = 0)
        delta    = sent_rd - sent_seen;
        c1       = ({1'b0, cnp_el} + 25'(Q) > 25'h0FF_FFFF) ? 24'hFF_FFFF : cnp_el + 24'(Q);
        cnp_el_n = cnp ? 24'd0 : c1;
        lim_clr  = norm_visit & ~cnp & lim & (c1 >= cfg_cnp_timer_thrd);

        // step 2: decrease with merging
        pend     = dec_pending | cnp;
        m1       = ({1'b0, merge_el} + 17'(Q) > 17'h0FFFF) ? 16'hFFFF : merge_el + 16'(Q);
        dec      = hw & pend & (m1 >= cfg_cnp_merge_period);
        rc_alpha = {10'd0, rc} * {24'd0, alpha};
        d        = rc_alpha >> (6'(cfg_alpha_rate_shift) + 6'd10);
        rc_sub   = rc - d[23:0];
        rc_dec   = min24((rc_sub < rmin) ? rmin : rc_sub, rmax);
        rt_dec   = min24((cfg_clamp_tgt || t_stage != 8'd0 || b_stage != 8'd0) ? rc : rt, rmax);

        // step 3: alpha (G = cfg_upd_alpha_g)
        g_keep     = 11'd1024 - {1'b0, cfg_upd_alpha_g};
        keep_prod  = {10'd0, g_keep} * {11'd0, alpha};
        keep       = keep_prod[19:10];
        a1         = ({1'b0, alpha_el} + 17'(Q) > 17'h0FFFF) ? 16'hFFFF : alpha_el + 16'(Q);
        a_fire     = hw & active & ~dec & ~cnp & (a1 >= cfg_alpha_timer_th);
        alpha_n    = ~hw ? alpha : (dec ? keep + cfg_upd_alpha_g : (a_fire ? keep : alpha));
        alpha_el_n = ~hw ? alpha_el : ((dec | cnp | a_fire | ~active) ? 16'd0 : a1);

        // step 4: increase triggers; a threshold of 0 disables its trigger
        t_en       = cfg_nocnp_timer_th != 24'd0;
        b_en       = cfg_byte_cnt_th != 32'd0;
        i1         = ({1'b0, inc_el} + 25'(Q) > 25'h0FF_FFFF) ? 24'hFF_FFFF : inc_el + 24'(Q);
        b1         = ({1'b0, byte_cnt} + {1'b0, delta} > 33'h0_FFFF_FFFF) ? 32'hFFFF_FFFF
                   : byte_cnt + delta;
        tf         = active & t_en & (i1 >= cfg_nocnp_timer_th);
        bf         = active & b_en & (b1 >= cfg_byte_cnt_th);
        inc        = hw & (tf | bf) & ~dec;
        inc_el_n   = ~hw ? inc_el : ((~active | dec | ~t_en | tf) ? 24'd0 : i1);
        byte_cnt_n = ~hw ? byte_cnt : ((~active | dec | ~b_en | bf) ? 32'd0 : b1);

        // step 5: stages and phase (F = cfg_stage_threshold)
        t_new     = (inc & tf) ? ((t_stage == 8'hFF) ? 8'hFF : t_stage + 8'd1) : t_stage;
        b_new     = (inc & bf) ? ((b_stage == 8'hFF) ? 8'hFF : b_stage + 8'd1) : b_stage;
        t_stage_n = ~hw ? t_stage : ((~active | dec) ? 8'd0 : t_new);
        b_stage_n = ~hw ? b_stage : ((~active | dec) ? 8'd0 : b_new);
        if (t_en & b_en) begin
            smax = (t_new > b_new) ? t_new : b_new;
            smin = (t_new > b_new) ? b_new : t_new;
        end else if (b_en) begin
            smax = b_new;
            smin = b_new;
        end else begin
            smax = t_new;
            smin = t_new;
        end
        ph_fr  = smax < cfg_stage_threshold;
        ph_hai = ~ph_fr & (smin > cfg_stage_threshold);

        // step 6: increase result (25-bit sums)
        if (ph_fr) begin
            rt_sum = {1'b0, rt};
        end else if (ph_hai) begin
            rt_sum = {1'b0, rt} + {1'b0, cfg_rate_hai};
        end else begin
            rt_sum = {1'b0, rt} + {1'b0, cfg_rate_ai};
        end
        rt_inc = (rt_sum > {1'b0, rmax}) ? rmax : rt_sum[23:0];
        rc_sum = {1'b0, rc} + {1'b0, rt_inc} + 25'(rc < rt_inc);
        rc_inc = min24(rc_sum[24:1], rmax);

        // step 7: rates, activity, merge state
        if (~hw) begin
            rc_n = rc;
            rt_n = rt;
        end else if (dec) begin
            rc_n = rc_dec;
            rt_n = rt_dec;
        end else if (inc) begin
            rc_n = rc_inc;
            rt_n = rt_inc;
        end else begin
            rc_n = min24(rc, rmax);
            rt_n = min24(rt, rmax);
        end
        active_n      = ~hw ? active : (active | dec);
        merge_el_n    = ~hw ? merge_el : (dec ? 16'd0 : m1);
        dec_pending_n = ~hw ? dec_pending : (pend & ~dec);
        sent_seen_n   = sent_rd;
        cc_rate_n     = cc_rate;

        // step 8.1: a window write completing at this visit replaces the bytes it writes
        // (spec-mq 6.1, 6.3); a qp_clear is handled by 5.8 below
        win_wr_done = norm_visit & wpend & (wq == scan_q);
        win_rd_done = norm_visit & rpend & (rq == scan_q);
        qp_clear_v  = win_wr_done & wclr;
        win_apply   = win_wr_done & ~wclr;
        case (wword)
            dcqcn_mq_pkg::W_QP_CNP_MERGE: win_cur = {15'd0, dec_pending_n, merge_el_n};
            dcqcn_mq_pkg::W_QP_CNP_TIMER: win_cur = {8'd0, cnp_el_n};
            dcqcn_mq_pkg::W_QP_RATE:      win_cur = {8'd0, rc_n};
            dcqcn_mq_pkg::W_QP_TARGET:    win_cur = {8'd0, rt_n};
            dcqcn_mq_pkg::W_QP_ALPHA:     win_cur = {alpha_el_n, 6'd0, alpha_n};
            dcqcn_mq_pkg::W_QP_BYTE_CNT:  win_cur = byte_cnt_n;
            dcqcn_mq_pkg::W_QP_SENT_SEEN: win_cur = sent_seen_n;
            dcqcn_mq_pkg::W_QP_T_BC:      win_cur = {15'd0, active_n, b_stage_n, t_stage_n};
            dcqcn_mq_pkg::W_QP_INC_TIMER: win_cur = {8'd0, inc_el_n};
            dcqcn_mq_pkg::W_QP_CC_RATE:   win_cur = {8'd0, cc_rate_n};
            default:                    win_cur = 32'd0;
        endcase
        win_new = lane_merge(win_cur, wdata, wstrb);
        if (win_apply) begin
            case (wword)
                dcqcn_mq_pkg::W_QP_CNP_MERGE: {dec_pending_n, merge_el_n} = win_new[16:0];
                dcqcn_mq_pkg::W_QP_CNP_TIMER: cnp_el_n = win_new[23:0];
                dcqcn_mq_pkg::W_QP_RATE:      rc_n = win_new[23:0];
                dcqcn_mq_pkg::W_QP_TARGET:    rt_n = win_new[23:0];
                dcqcn_mq_pkg::W_QP_ALPHA: begin
                    alpha_el_n = win_new[31:16];
                    alpha_n    = win_new[9:0];
                end
                dcqcn_mq_pkg::W_QP_BYTE_CNT:  byte_cnt_n = win_new;
                dcqcn_mq_pkg::W_QP_SENT_SEEN: sent_seen_n = win_new;
                dcqcn_mq_pkg::W_QP_T_BC:      {active_n, b_stage_n, t_stage_n} = win_new[16:0];
                dcqcn_mq_pkg::W_QP_INC_TIMER: inc_el_n = win_new[23:0];
                dcqcn_mq_pkg::W_QP_CC_RATE:   cc_rate_n = win_new[23:0];
                default: ;
            endcase
        end
        // spec-mq 6.3: qp_ctrl lane 0 writes arb_mask (with or without qp_clear, 5.8)
        arb_we  = win_wr_done & (wword == dcqcn_mq_pkg::W_QP_CTRL) & wstrb[0];
        arb_val = wdata[0];

        // step 8.2: the applied rate
        cc_rate_applied = hw ? rc_n : cc_rate_n;

        // spec-mq 5.8: the init record (init round: sent_seen 0; qp_clear: sent of S(t)); the
        // write data in the init round is the init record also in a cycle without a visit
        if (init | qp_clear_v) begin
            rc_n            = rmax;
            rt_n            = rmax;
            cc_rate_applied = rmax;
            alpha_n         = cfg_alpha_init;
            alpha_el_n      = 16'd0;
            merge_el_n      = 16'hFFFF;
            dec_pending_n   = 1'b0;
            cnp_el_n        = 24'd0;
            byte_cnt_n      = 32'd0;
            sent_seen_n     = init ? 32'd0 : sent_rd;
            t_stage_n       = 8'd0;
            b_stage_n       = 8'd0;
            active_n        = 1'b0;
            inc_el_n        = 24'd0;
        end

        rate_wd         = {rt_n, rc_n};
        cc_rate_wd      = cc_rate_applied;
        alpha_wd        = {alpha_el_n, alpha_n};
        cnp_merge_wd    = {cnp_el_n, dec_pending_n, merge_el_n};
        byte_counter_wd = {sent_seen_n, byte_cnt_n};
        t_bc_wd         = {inc_el_n, active_n, b_stage_n, t_stage_n};

        // step 8.3 / spec-mq 4.3: the wake check with the applied rate this visit writes
        r_wake    = min24(cc_rate_applied, LINE_WIN);
        e_wake    = now - stamp;
        re_wake   = {8'd0, r_wake} * {24'd0, e_wake};
        fill_wake = {{26{credit[31]}}, credit} + {2'b00, re_wake};
        wake      = norm_visit & ~qp_clear_v & ~fill_wake[57] & (fill_wake != 58'd0);

        // spec-mq 5.4: counters and DFX (a normal visit that is not a qp_clear)
        ev_dec   = norm_visit & ~qp_clear_v & dec;
        ev_inc   = norm_visit & ~qp_clear_v & inc;
        ev_tf    = ev_inc & tf;
        ev_bf    = ev_inc & bf;
        ev_phase = ph_fr ? 2'b01 : (ph_hai ? 2'b10 : 2'b11);
        ev_rc    = rc_n;

        // spec-mq 6.1, 6.3: a window read returns the word's value in S(t)
        case (rword)
            dcqcn_mq_pkg::W_QP_CNP_MERGE: win_rdata = {15'd0, dec_pending, merge_el};
            dcqcn_mq_pkg::W_QP_CNP_TIMER: win_rdata = {8'd0, cnp_el};
            dcqcn_mq_pkg::W_QP_RATE:      win_rdata = {8'd0, rc};
            dcqcn_mq_pkg::W_QP_TARGET:    win_rdata = {8'd0, rt};
            dcqcn_mq_pkg::W_QP_ALPHA:     win_rdata = {alpha_el, 6'd0, alpha};
            dcqcn_mq_pkg::W_QP_BYTE_CNT:  win_rdata = byte_cnt;
            dcqcn_mq_pkg::W_QP_SENT_SEEN: win_rdata = sent_seen;
            dcqcn_mq_pkg::W_QP_T_BC:      win_rdata = {15'd0, active, b_stage, t_stage};
            dcqcn_mq_pkg::W_QP_INC_TIMER: win_rdata = {8'd0, inc_el};
            dcqcn_mq_pkg::W_QP_CC_RATE:   win_rdata = {8'd0, cc_rate};
            dcqcn_mq_pkg::W_QP_CREDIT:    win_rdata = credit;
            dcqcn_mq_pkg::W_QP_STAMP:     win_rdata = stamp;
            dcqcn_mq_pkg::W_QP_OST:       win_rdata = {8'd0, gcnt_rd - dcnt_rd, dcnt_rd, gcnt_rd};
            dcqcn_mq_pkg::W_QP_SENT:      win_rdata = sent_rd;
            dcqcn_mq_pkg::W_QP_REQ:       win_rdata = {15'd0, req_valid_v,
                                                     req_valid_v ? req_bytes_rd : 16'd0};
            dcqcn_mq_pkg::W_QP_CTRL:      win_rdata = {19'd0, ost_lt_lo_v, ost_lt_hi_v, cnp_flag_v,
                                                     lim8_v, rate_ok_v, 6'd0, 1'b0, arb_mask_v};
            default:                    win_rdata = 32'd0;
        endcase
    end

endmodule
