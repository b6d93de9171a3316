// SPDX-License-Identifier: MIT
// dcqcn_rate_inc: DCQCN rate-increase triggers, stage counters, phase and increase result (spec 4.5).

`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "dcqcn_checks.svh"

module dcqcn_rate_inc #(
    parameter logic [31:0] LINE_RATE = 32'd1_250_000_000  // L, bytes/s
) (
    /* Clock and synchronous reset */
    input  wire logic        clk,
    input  wire logic        rst,

    /* Events */
    input  wire logic        dec_fire,
    input  wire logic [31:0] rc_dec,               // the decrease's Rc and Rt before the ceiling
    input  wire logic [31:0] rt_dec,               // (dcqcn_rate_dec)
    input  wire logic [6:0]  bytes_in,             // bytes of the beat loaded this cycle (spec 5.3)

    /* Reaction-point state (this cycle's registers) */
    input  wire logic        active,
    input  wire logic [31:0] rc,
    input  wire logic [31:0] rt,

    /* Configuration */
    input  wire logic        rp_hold,  // bypass or scheme bit 0: held in reset (spec 4.7, 4.9)
    input  wire logic        cfg_timer_en,
    input  wire logic        cfg_byte_en,
    input  wire logic [31:0] cfg_inc_interval,     // cycles
    input  wire logic [31:0] cfg_byte_threshold,   // bytes
    input  wire logic [7:0]  cfg_stage_threshold,  // F
    input  wire logic [31:0] cfg_rai,              // bytes/s
    input  wire logic [31:0] cfg_rhai,             // bytes/s
    input  wire logic [31:0] cfg_rmax,             // bytes/s, 0 = no ceiling
    input  wire logic        cfg_hai_mult,         // 1: hyper step i x rhai

    /* Increase events and result */
    output logic             timer_fire,
    output logic             byte_fire,
    output logic             inc_event,
    output logic             phase_fr,             // fast recovery
    output logic             phase_ai,             // additive increase
    output logic             phase_hai,            // hyper increase
    output logic      [31:0] rc_upd,               // Rc and Rt a decrease (dec_fire) or an
    output logic      [31:0] rt_upd,               // increase writes, after the ceiling

    /* State */
    output logic      [7:0]  t_stage,
    output logic      [7:0]  b_stage
);

    // spec 2: illegal parameters are an elaboration error
    `DCQCN_CHECK_LINE_RATE(dcqcn_rate_inc)

    localparam logic [31:0] L = LINE_RATE;

    logic [31:0] inc_timer;
    logic [31:0] byte_cnt;

    logic [31:0] inc_timer_d;
    logic [31:0] byte_cnt_d;
    logic [7:0]  t_stage_d;
    logic [7:0]  b_stage_d;

    logic        inc_expired;
    logic [31:0] byte_thr;
    logic        restart;
    logic [32:0] byte_sum;
    logic [7:0]  t_new;
    logic [7:0]  b_new;
    logic        t_lt;
    logic        t_gt;
    logic        b_lt;
    logic        b_gt;
    logic        t_inc;
    logic        b_inc;
    logic [7:0]  s_lo;
    logic        s_lo_inc;
    logic [7:0]  s_old;
    logic        s_inc;
    logic [7:0]  hai_i;
    logic [7:0]  hai_f;
    logic [39:0] hai_step;
    logic [39:0] rt_add;
    logic [40:0] rt_sum;
    logic        cap_on;
    logic [31:0] cap_l;
    logic [40:0] rt_sel;
    logic        rt_over;
    // the average drops bit 0 (spec 4.5 floor(.../2))
    /* verilator lint_off UNUSEDSIGNAL */
    logic [32:0] rc_sum;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [31:0] rc_avg;
    logic [31:0] rc_pre;

    always_comb begin
        // spec 4.0 expired(): one extra bit so interval 0 behaves as 1
        inc_expired = ({1'b0, inc_timer} + 33'd1) >= {1'b0, cfg_inc_interval};
        timer_fire  = active & cfg_timer_en & inc_expired;

        // spec 4.5: B = max(cfg_byte_threshold, 1)
        byte_thr  = (cfg_byte_threshold == 32'd0) ? 32'd1 : cfg_byte_threshold;
        byte_fire = active & cfg_byte_en & (byte_cnt >= byte_thr);

        // spec 4.5: a decrease cancels a same-cycle increase
        inc_event = (timer_fire | byte_fire) & ~dec_fire;

        // spec 4.2, 4.5, 4.7, 4.9: held at 0 while inactive or held; a rate cut restarts recovery
        restart = rp_hold | ~active | dec_fire;

        if (restart || !cfg_timer_en || timer_fire) begin
            inc_timer_d = 32'd0;
        end else begin
            inc_timer_d = inc_timer + 32'd1;
        end

        // spec 4.5: saturating add; a firing/restarting cycle's own bytes are not carried
        byte_sum = {1'b0, byte_cnt} + {26'd0, bytes_in};
        if (restart || !cfg_byte_en || byte_fire) begin
            byte_cnt_d = 32'd0;
        end else if (byte_sum[32]) begin
            byte_cnt_d = 32'hFFFF_FFFF;
        end else begin
            byte_cnt_d = byte_sum[31:0];
        end

        // spec 4.5: stages advance only on a non-cancelled event of their own trigger (sat at 255)
        t_inc = inc_event & timer_fire & (t_stage != 8'hFF);
        b_inc = inc_event & byte_fire & (b_stage != 8'hFF);
        t_new = t_inc ? (t_stage + 8'd1) : t_stage;
        b_new = b_inc ? (b_stage + 8'd1) : b_stage;
        t_stage_d = restart ? 8'd0 : t_new;
        b_stage_d = restart ? 8'd0 : b_new;

        // spec 4.5: phase from the new stage values. With both triggers enabled,
        // max(t, b) < F <=> t < F and b < F, and min(t, b) > F <=> t > F and b > F, so smax/smin are
        // never formed; FAST_RECOVERY and HYPER cannot both hold, so HYPER needs no ~FR term.
        t_lt = t_new < cfg_stage_threshold;
        t_gt = t_new > cfg_stage_threshold;
        b_lt = b_new < cfg_stage_threshold;
        b_gt = b_new > cfg_stage_threshold;
        if (cfg_timer_en && cfg_byte_en) begin
            phase_fr  = t_lt & b_lt;
            phase_hai = t_gt & b_gt;
        end else if (cfg_byte_en) begin
            phase_fr  = b_lt;
            phase_hai = b_gt;
        end else begin
            phase_fr  = t_lt;
            phase_hai = t_gt;
        end
        phase_ai = ~phase_fr & ~phase_hai;

        // spec 4.5: hyper index i = smin - F (used in the hyper phase only, where smin > F).
        // smin = s_old + s_inc: s_old is the stage (or min(t, b)) before this cycle's advance,
        // s_inc its advance (min(t + dt, b + db) = min(t, b) + (t < b ? dt : t > b ? db : dt & db)).
        // A stage advances only below 255, so smin <= 255 and, in the hyper phase, i is 1..255:
        // 8 bits, no wrap. The hyper step is one 32 x 8 product, rhai x i with cfg_hai_mult and
        // rhai x 1 without (about 37 LUTs fewer than rhai or a sum of two products). The product
        // does not read the phase, which the VHDL twin forms in its own logic: docs/formal.md's
        // proof pairs the two products as one cell only when their inputs are the same nets.
        s_lo     = (t_stage < b_stage) ? t_stage : b_stage;
        s_lo_inc = (t_stage < b_stage) ? t_inc : ((t_stage > b_stage) ? b_inc : (t_inc & b_inc));
        s_old    = (cfg_timer_en & cfg_byte_en) ? s_lo : (cfg_byte_en ? b_stage : t_stage);
        s_inc    = (cfg_timer_en & cfg_byte_en) ? s_lo_inc : (cfg_byte_en ? b_inc : t_inc);
        hai_i    = s_old + {7'd0, s_inc} - cfg_stage_threshold;
        hai_f    = cfg_hai_mult ? hai_i : 8'd1;
        hai_step = cfg_rhai * hai_f;

        // spec 4.5: 41-bit sum; one adder shared by AI and HAI
        rt_add = phase_hai ? hai_step : {8'd0, cfg_rai};
        rt_sum = {9'd0, rt} + {1'b0, rt_add};

        // spec 4.6: ceil(x) = min(x, min(cfg_rmax, L)) when cfg_rmax != 0, x otherwise. cap_l is
        // min(cfg_rmax, L), or L when cfg_rmax = 0: the increase's sum takes min(sum, cap_l), which
        // is 4.5's ceil(min(sum, L)) in both cases; fast recovery's and the decrease's Rt, and Rc,
        // take cap_l only when cfg_rmax != 0. A cycle writes the decrease's Rt or the increase's,
        // so one comparison serves both; the average reads the result (a decrease does not use it).
        cap_on  = cfg_rmax != 32'd0;
        cap_l   = (cap_on && cfg_rmax < L) ? cfg_rmax : L;
        rt_sel  = dec_fire ? {9'd0, rt_dec} : (phase_fr ? {9'd0, rt} : rt_sum);
        rt_over = ((dec_fire | phase_fr) ? cap_on : 1'b1) & (rt_sel > {9'd0, cap_l});
        rt_upd  = rt_over ? cap_l : rt_sel[31:0];

        // spec 4.5: average rounded toward the target so Rc reaches Rt exactly. A cycle writes the
        // decrease's Rc or the increase's (4.6), so one ceiling serves both, after the choice.
        rc_sum  = {1'b0, rc} + {1'b0, rt_upd} + {32'd0, (rc < rt_upd)};
        rc_avg  = rc_sum[32:1];
        rc_pre  = dec_fire ? rc_dec : rc_avg;
        rc_upd  = (cap_on && rc_pre > cap_l) ? cap_l : rc_pre;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            inc_timer <= 32'd0;
            byte_cnt  <= 32'd0;
            t_stage   <= 8'd0;
            b_stage   <= 8'd0;
        end else begin
            inc_timer <= inc_timer_d;
            byte_cnt  <= byte_cnt_d;
            t_stage   <= t_stage_d;
            b_stage   <= b_stage_d;
        end
    end

endmodule

`resetall
