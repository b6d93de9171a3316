// SPDX-License-Identifier: MIT
// nscc_mq_ack_exec: the ACK process's execution of one feedback event on one flow's memories
// (docs/spec-nscc.md 5, 6.1-6.4), combinational. The bit-exact model is
// crates/dcqcn-model/src/nscc/fixed.rs (`execute`).
//
// Every intermediate is formed as wide as the spec states and then saturated or clamped as it
// says; the only modular quantities are now, gbytes and abytes.

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nscc_mq_ack_exec #(
    parameter logic [23:0] LINE_WIN = 24'd8192  // bytes per 1024-cycle window (spec-mq 2)
) (
    /* The flow's memories as read, its gbytes and old bit, the time (spec-nscc 4.1, 6.4) */
    input  nscc_mq_pkg::nscc_flow_t flow_rd,
    input  wire logic [31:0]        gbytes,
    input  wire logic               old,
    input  wire logic [31:0]        now,
    input  wire logic               cc_en,

    /* The event (spec-nscc 3) */
    input  wire logic [1:0]         ev_kind,
    input  wire logic [23:0]        ev_bytes,
    input  wire logic               ev_ecn,
    input  wire logic               ev_rtt_valid,
    input  wire logic [23:0]        ev_rtt,
    input  wire logic [6:0]         ev_pend,
    input  wire logic               ev_rc,

    /* Configuration (spec-nscc 8.1; max_wnd and init_cwnd are the init record's, 7) */
    /* verilator lint_off UNUSEDSIGNAL */
    input  nscc_mq_pkg::nscc_regs_t cfg,
    /* verilator lint_on UNUSEDSIGNAL */

    /* The memories written, and what the event did */
    output nscc_mq_pkg::nscc_flow_t flow_wd,
    output nscc_mq_pkg::nscc_out_t  outcome
);

    nscc_mq_pkg::nscc_flow_t f;   // as read
    nscc_mq_pkg::nscc_flow_t s;   // as written

    /* spec-nscc 6.1 */
    logic [15:0] mtu;          // max(cfg_mtu, 1)
    logic [31:0] mtu_q8;       // mtu * 256
    logic [23:0] maxw;         // max(max_wnd, mtu) of the flow's current max_wnd
    logic [8:0]  gamma;        // min(cfg_gamma, 256)
    logic [25:0] age_adj;
    logic [25:0] age_dec;
    logic [25:0] age_qa;
    logic        set_adj;
    logic        set_dec;
    logic        set_qa;

    /* Steps 1-2 */
    logic [31:0] n32;          // the event's bytes, 32 bits
    logic [31:0] infl;         // (G - A1) mod 2^32, read as signed
    logic [32:0] sum_ign;
    logic [32:0] sum_rcv;
    logic [32:0] sum_ach;
    logic        rlim;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [30:0] dec_prod;     // pend * n; dec = bits [30:7]
    logic [49:0] mw_prod;      // 3 * LINE_WIN * rtt; >> 11
    logic [47:0] fs_prod;      // n * fi_scale; >> 8
    logic [55:0] p_prod;       // alpha * (tgt - delay); >> 16
    logic [47:0] cr_prod;      // C * red; >> 16
    logic signed [33:0] avg_new;  // between avg and the sample: bits [33:32] are 0
    logic [31:0] ach_floor;    // max(achieved, mtu): < 2^24 when quick adapt fires
    logic [25:0] red_prod;     // gamma * frac; >> 8
    /* verilator lint_on UNUSEDSIGNAL */
    logic [23:0] dec;
    logic signed [41:0] infl_q8;  // infl * 256
    logic signed [41:0] pen;      // min(C, infl * 256) - dec * 256

    /* Steps 4-5 */
    logic [23:0] delay;
    logic [23:0] delay_avg;    // the delay the average moves to (ACK: delay; trim: cfg_base_rtt)
    logic signed [33:0] avg_diff;
    logic signed [33:0] avg_half;
    logic signed [33:0] avg_step;
    logic        run_avg;

    /* Step 6 */
    logic        qa_run;       // the event takes step 6 (ACK with a sample, trimmed NACK)
    logic        qa_loss;      // a trimmed NACK's call: ecn = 1, no delay test
    logic        qa_ecn;
    logic        qa_ign;
    logic        qa_fire;
    logic [46:0] ach_gate;     // achieved * 2^qa_gate
    logic [24:0] qa_limit;     // base_rtt4 + target

    /* Step 7 */
    logic [44:0] fi_inc;       // inc + fi * n
    logic [40:0] fs_cwnd;      // C + ((n * fi_scale) >> 8)
    logic [23:0] p;
    logic [48:0] p_inc;        // inc + p * n
    logic [23:0] tgt_delay;
    logic [31:0] tgt_q8;
    logic [31:0] md_d;
    nscc_mq_pkg::recip_t      rc_avg;
    logic [48:0] md_prod;      // d * RECIP[m(avg5)]
    logic [48:0] md_shift;
    logic [16:0] frac;
    logic [15:0] red;
    logic [31:0] md_cwnd;

    /* Step 8 */
    logic        react;        // an ACK with a sample that quick adapt let through (steps 7-8)
    logic        adj_period;
    logic [23:0] adj_x;
    nscc_mq_pkg::recip_t      rc_x;
    logic [56:0] q_prod;       // inc * RECIP[m(X)]
    logic [56:0] q_shift;
    logic [31:0] q;
    logic [33:0] c8;           // C + q + eta

    function automatic logic [31:0] sat32(input logic [32:0] x);
        sat32 = x[32] ? 32'hFFFF_FFFF : x[31:0];
    endfunction

    function automatic logic [25:0] age(input logic [31:0] stamp, input logic [31:0] t,
                                        input logic is_old);
        logic [31:0] a;
        a   = t - stamp;
        age = (is_old || a > {6'd0, nscc_mq_pkg::AGE_MAX}) ? nscc_mq_pkg::AGE_MAX : a[25:0];
    endfunction

    // spec-nscc 6.1: C' = max(C - n * 256, floor), with C - n * 256 < 0 read as 0
    function automatic logic [31:0] floor_sub(input logic [31:0] c, input logic [31:0] sub_q8,
                                              input logic [31:0] floor_q8);
        logic [32:0] diff;
        diff      = {1'b0, c} - {1'b0, sub_q8};
        floor_sub = (diff[32] || diff[31:0] < floor_q8) ? floor_q8 : diff[31:0];
    endfunction

    always_comb begin
        f = flow_rd;
        s = f;
        outcome = '0;
        outcome.rcase = nscc_mq_pkg::CASE_NONE;
        set_adj = 1'b0;
        set_dec = 1'b0;
        set_qa  = 1'b0;

        mtu     = (cfg.mtu == 16'd0) ? 16'd1 : cfg.mtu;
        mtu_q8  = {8'd0, mtu, 8'd0};
        gamma   = (cfg.gamma > 9'd256) ? 9'd256 : cfg.gamma;
        age_adj = age(f.t_adj, now, old);
        age_dec = age(f.t_dec, now, old);
        age_qa  = age(f.t_qa, now, old);
        n32     = {8'd0, ev_bytes};
        adj_period = age_adj >= {2'd0, cfg.adjust_period};

        // step 1 (every kind): abytes; the counters below are the ACK's
        s.abytes = f.abytes + n32;
        infl     = gbytes - s.abytes;
        sum_ign  = {1'b0, f.ignored} + {1'b0, n32};
        sum_rcv  = {1'b0, f.received} + {1'b0, n32};
        sum_ach  = {1'b0, f.achieved} + {1'b0, n32};

        // step 2: the receiver's penalty (42-bit signed; the result is below C < 2^32)
        rlim     = ev_pend != 7'd0;
        dec_prod = {24'd0, ev_pend} * {7'd0, ev_bytes};
        dec      = dec_prod[30:7];
        infl_q8  = $signed({{2{infl[31]}}, infl, 8'd0});
        pen      = ((infl_q8 < $signed({10'd0, f.cwnd})) ? infl_q8 : $signed({10'd0, f.cwnd}))
                 - $signed({10'd0, dec, 8'd0});

        // step 4: base RTT (ACK and both NACKs with a sample)
        mw_prod  = {24'd0, 26'(3) * {2'd0, LINE_WIN}} * {26'd0, ev_rtt};
        delay    = 24'd0;

        // step 5: the delay average, rounded half up (34-bit signed)
        delay_avg = (ev_kind == nscc_mq_pkg::KIND_TRIM)
                  ? ((cfg.base_rtt == 24'd0) ? 24'd1 : cfg.base_rtt) : 24'd0;
        run_avg   = 1'b0;

        // step 6 controls
        qa_run  = 1'b0;
        qa_loss = ev_kind == nscc_mq_pkg::KIND_TRIM;
        qa_ecn  = qa_loss | ev_ecn;
        qa_ign  = 1'b0;
        qa_fire = 1'b0;

        if (cc_en) begin
            case (ev_kind)
                nscc_mq_pkg::KIND_ACK: begin
                    s.ignored  = sat32(sum_ign);
                    s.received = sat32(sum_rcv);
                    s.achieved = sat32(sum_ach);
                    if (rlim) begin
                        // spec-nscc 6.2 step 2
                        if (f.saved == 32'd0) begin
                            s.saved = f.cwnd;
                        end
                        s.cwnd = (pen < $signed({10'd0, mtu_q8})) ? mtu_q8 : pen[31:0];
                        outcome.penalty = 1'b1;
                    end else if (ev_rc && f.saved != 32'd0) begin
                        s.cwnd   = f.saved;
                        s.saved  = 32'd0;
                        outcome.restored = 1'b1;
                    end
                    // step 3: an invalid sample ends here
                    if (ev_rtt_valid) begin
                        outcome.rtt_valid = 1'b1;
                        qa_run  = cfg.qa_en;
                        run_avg = 1'b1;
                    end
                end
                nscc_mq_pkg::KIND_TRIM: begin
                    s.ignored    = sat32(sum_ign);
                    s.trigger_qa = 1'b1;
                    qa_run       = cfg.qa_en;
                    run_avg      = 1'b1;
                end
                nscc_mq_pkg::KIND_NACK: ;
                default: begin  // KIND_LOSS
                    s.cwnd    = floor_sub(f.cwnd, {ev_bytes, 8'd0}, mtu_q8);
                    s.ignored = sat32(sum_ign);
                end
            endcase
            // step 4 for an ACK, a trimmed or another NACK with a sample
            if (ev_rtt_valid && ev_kind != nscc_mq_pkg::KIND_LOSS && ev_rtt < f.base_rtt) begin
                s.base_rtt = ev_rtt;
                s.max_wnd  = (mw_prod[49:35] != 15'd0) ? 24'hFF_FFFF : mw_prod[34:11];
            end
            delay = ev_rtt - s.base_rtt;  // >= 0 after step 4 (used by an ACK with a sample)
            if (ev_kind == nscc_mq_pkg::KIND_ACK) begin
                delay_avg = delay;
            end
        end

        // step 5
        avg_diff = $signed({2'd0, delay_avg, 8'd0}) - $signed({2'd0, f.avg});
        avg_half = $signed((34'd1 << cfg.ewma_shift) >> 1);  // h = 2^(w - 1), 0 when w = 0
        avg_step = (avg_diff + avg_half) >>> cfg.ewma_shift;
        avg_new  = $signed({2'd0, f.avg}) + avg_step;  // between avg and the sample: 32 bits
        if (run_avg) begin
            s.avg = avg_new[31:0];
        end

        // step 6: quick adapt (ACK: achieved1 and the delay; trimmed NACK: achieved, a loss)
        maxw      = (s.max_wnd > {8'd0, mtu}) ? s.max_wnd : {8'd0, mtu};
        qa_limit  = {1'b0, s.base_rtt} + {1'b0, cfg.target};
        ach_gate  = {15'd0, s.achieved} << cfg.qa_gate;
        ach_floor = (s.achieved < {16'd0, mtu}) ? {16'd0, mtu} : s.achieved;
        if (qa_run) begin
            if (s.ignored < s.to_ignore && qa_ecn) begin
                qa_ign = 1'b1;
            end else if (!s.qa_armed || age_qa >= {1'b0, qa_limit}) begin
                qa_fire   = s.qa_armed
                          & (s.trigger_qa | qa_loss
                             | (cfg.qa_delay != 24'd0 && delay > cfg.qa_delay))
                          & (ach_gate < {23'd0, maxw});
                if (qa_fire) begin
                    // achieved < maxw < 2^24 here: the Q24.8 window fits 32 bits
                    s.cwnd       = {ach_floor[23:0], 8'd0};
                    s.to_ignore  = infl[31] ? 32'd0 : infl;
                    s.ignored    = 32'd0;
                    s.trigger_qa = 1'b0;
                end
                s.achieved = 32'd0;
                s.qa_armed = 1'b1;
                set_qa     = 1'b1;
            end
            if (qa_ign || qa_fire) begin
                s.inc      = 40'd0;
                s.received = 32'd0;
            end
        end
        outcome.qa_fired   = qa_fire & (ev_kind == nscc_mq_pkg::KIND_ACK);
        outcome.qa_ignored = qa_ign & (ev_kind == nscc_mq_pkg::KIND_ACK);
        // spec-nscc 6.3: a trimmed NACK that quick adapt neither ignored nor fired
        if (cc_en && ev_kind == nscc_mq_pkg::KIND_TRIM && !qa_ign && !qa_fire) begin
            s.cwnd = floor_sub(s.cwnd, {ev_bytes, 8'd0}, mtu_q8);
        end

        // step 7: the reaction (an ACK with a sample that quick adapt let through)
        fi_inc    = {5'd0, s.inc} + ({25'd0, cfg.fi} * {21'd0, ev_bytes});
        fs_prod   = {24'd0, ev_bytes} * {24'd0, cfg.fi_scale};
        fs_cwnd   = {9'd0, s.cwnd} + {1'b0, fs_prod[47:8]};
        tgt_delay = cfg.target - delay;  // used when delay < target
        p_prod    = {24'd0, cfg.alpha} * {32'd0, tgt_delay};
        p         = (p_prod[55:40] != 16'd0) ? 24'hFF_FFFF : p_prod[39:16];
        p_inc     = {9'd0, s.inc} + ({24'd0, p} * {24'd0, ev_bytes});
        tgt_q8    = {cfg.target, 8'd0};
        md_d      = s.avg - tgt_q8;  // used when avg5 > tgt * 256
        rc_avg    = nscc_mq_pkg::recip_of({8'd0, s.avg});
        md_prod   = {17'd0, md_d} * {32'd0, rc_avg.recip};
        md_shift  = md_prod >> rc_avg.e;
        frac      = (md_shift > 49'd65536) ? 17'd65536 : md_shift[16:0];
        red_prod  = {17'd0, gamma} * {9'd0, frac};
        red       = (red_prod[25:8] > 18'd32768) ? 16'd32768 : red_prod[23:8];
        cr_prod   = {16'd0, s.cwnd} * {32'd0, red};
        md_cwnd   = s.cwnd - cr_prod[47:16];  // red <= 1/2: no underflow
        react = cc_en & (ev_kind == nscc_mq_pkg::KIND_ACK) & outcome.rtt_valid & ~qa_ign & ~qa_fire;
        if (react) begin
            if (!ev_ecn && rlim) begin
                outcome.rcase = nscc_mq_pkg::CASE_RLIM;
            end else if (!ev_ecn && delay >= cfg.target) begin
                s.inc = (fi_inc[44:40] != 5'd0) ? 40'hFF_FFFF_FFFF : fi_inc[39:0];
                outcome.rcase = nscc_mq_pkg::CASE_FAIR;
            end else if (!ev_ecn) begin
                if (delay < {8'd0, cfg.fi_delay}) begin
                    s.fi_count = sat32({1'b0, s.fi_count} + {1'b0, n32});
                    if ({s.fi_count, 8'd0} > {8'd0, s.cwnd} || s.increase) begin
                        s.cwnd     = (fs_cwnd > {9'd0, maxw, 8'd0}) ? {maxw, 8'd0} : fs_cwnd[31:0];
                        s.increase = 1'b1;
                        outcome.rcase = nscc_mq_pkg::CASE_FAST;
                    end
                end else begin
                    s.fi_count = 32'd0;
                end
                if (outcome.rcase != nscc_mq_pkg::CASE_FAST) begin
                    s.increase = 1'b0;
                    s.inc = (p_inc[48:40] != 9'd0) ? 40'hFF_FFFF_FFFF : p_inc[39:0];
                    outcome.rcase = nscc_mq_pkg::CASE_PROP;
                end
            end else if (delay >= cfg.target) begin
                s.increase = 1'b0;
                s.fi_count = 32'd0;
                outcome.rcase = nscc_mq_pkg::CASE_MD;
                if (s.avg > tgt_q8 && age_dec > {2'd0, s.base_rtt}) begin
                    s.cwnd  = (md_cwnd < mtu_q8) ? mtu_q8 : md_cwnd;
                    set_dec = 1'b1;
                    outcome.md_applied = 1'b1;
                end
            end else begin
                outcome.rcase = nscc_mq_pkg::CASE_HOLD;
            end
        end

        // step 8: the adjustment (X: the window after step 7 in whole bytes, at least 1)
        adj_x   = (s.cwnd[31:8] == 24'd0) ? 24'd1 : s.cwnd[31:8];
        rc_x    = nscc_mq_pkg::recip_of({16'd0, adj_x});
        q_prod  = {17'd0, s.inc} * {40'd0, rc_x.recip};
        q_shift = q_prod >> (6'd8 + rc_x.e);
        q       = (q_shift[56:32] != 25'd0) ? 32'hFFFF_FFFF : q_shift[31:0];
        c8      = {2'd0, s.cwnd} + {2'd0, q} + (adj_period ? {10'd0, cfg.eta} : 34'd0);
        if (react && (adj_period || s.received > {8'd0, cfg.adjust_bytes})) begin
            s.cwnd     = (c8 > {2'd0, maxw, 8'd0}) ? {maxw, 8'd0} : c8[31:0];
            s.inc      = 40'd0;
            s.received = 32'd0;
            set_adj    = adj_period;
            outcome.adjusted  = 1'b1;
            outcome.eta_added = adj_period;
        end

        // step 9: stamps set by a rule read now; every other one is clamped to AGE_MAX
        s.t_adj = set_adj ? now : now - {6'd0, age_adj};
        s.t_dec = set_dec ? now : now - {6'd0, age_dec};
        s.t_qa  = set_qa ? now : now - {6'd0, age_qa};

        flow_wd = s;
    end

endmodule

`resetall
