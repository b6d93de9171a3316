// SPDX-License-Identifier: MIT
// dcqcn_rate_dec: DCQCN rate-decrease cooldown timer and decrease result (spec 4.4).

`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "dcqcn_checks.svh"

module dcqcn_rate_dec #(
    parameter logic [31:0] LINE_RATE = 32'd1_250_000_000  // L, bytes/s
) (
    /* Clock and synchronous reset */
    input  wire logic        clk,
    input  wire logic        rst,

    /* Events */
    input  wire logic        cnp_event,

    /* Reaction-point state (this cycle's registers) */
    input  wire logic [31:0] rc,
    input  wire logic [31:0] rt,
    input  wire logic [9:0]  alpha,
    input  wire logic [7:0]  t_stage,
    input  wire logic [7:0]  b_stage,
    input  wire logic        active,             // 0: this decrease is the first (spec 4.4)

    /* Configuration */
    input  wire logic        rp_hold,  // bypass or scheme bit 0: held in reset (spec 4.7, 4.9)
    input  wire logic [15:0] cfg_dec_interval,   // cycles
    input  wire logic [3:0]  cfg_dec_gain,
    input  wire logic [31:0] cfg_rmin,           // bytes/s
    input  wire logic        cfg_clamp_tgt,
    input  wire logic [31:0] cfg_rate_first_cnp, // bytes/s, 0 = off
    input  wire logic [10:0] cfg_min_dec_fac,    // Q0.10, 1024 and above: no cut

    /* Decrease event and result (before the ceiling of spec 4.6, which dcqcn_rate_inc applies) */
    output logic             dec_fire,
    output logic      [31:0] rc_dec,
    output logic      [31:0] rt_dec,

    /* State */
    output logic             dec_pending
);

    // spec 2: illegal parameters are an elaboration error
    `DCQCN_CHECK_LINE_RATE(dcqcn_rate_dec)

    localparam logic [31:0] L = LINE_RATE;

    logic [15:0] dec_timer;

    logic [15:0] dec_timer_d;
    logic        dec_pending_d;

    logic        dec_trig;
    logic        dec_expired;
    // Rc * alpha < 2^42 (spec 4.4); the fixed /2^10 part of the shift drops the low 10 bits
    /* verilator lint_off UNUSEDSIGNAL */
    logic [41:0] dec_prod;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [26:0] dec_prod_lo;
    logic [24:0] dec_prod_hi;
    logic [31:0] delta;
    logic [31:0] rc_sub;
    logic [31:0] rmin_eff;
    logic [10:0] keep_fac;
    // Rc * min(min_dec_fac, 1024) < 2^43; the /2^10 drops the low 10 bits
    /* verilator lint_off UNUSEDSIGNAL */
    logic [27:0] keep_lo;
    logic [25:0] keep_hi;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [31:0] keep;
    logic [31:0] rc_cut;

    always_comb begin
        // spec 4.4: CNPs inside the cooldown are remembered and coalesced into one decrease
        dec_trig = dec_pending | cnp_event;
        // spec 4.0 expired(): one extra bit so interval 0 behaves as 1
        dec_expired = ({1'b0, dec_timer} + 17'd1) >= {1'b0, cfg_dec_interval};
        dec_fire    = dec_trig & dec_expired;

        // spec 4.4: "cycles since the last decrease", saturating so the first CNP always fires
        if (rp_hold) begin
            dec_timer_d = 16'hFFFF;
        end else if (dec_fire) begin
            dec_timer_d = 16'd0;
        end else if (dec_timer == 16'hFFFF) begin
            dec_timer_d = 16'hFFFF;
        end else begin
            dec_timer_d = dec_timer + 16'd1;
        end

        dec_pending_d = ~rp_hold & dec_trig & ~dec_fire;

        // spec 4.4: delta = floor(Rc * alpha / 2^(dec_gain + 10)), truncating. The one 32x10 product
        // is formed from 17-bit-aligned halves of Rc (the DSP48 B-port width and cascade shift), which
        // keeps the recombination adder out of the fabric.
        dec_prod_lo = {10'd0, rc[16:0]} * {17'd0, alpha};
        dec_prod_hi = ({10'd0, rc[31:17]} * {15'd0, alpha}) + {15'd0, dec_prod_lo[26:17]};
        dec_prod    = {dec_prod_hi, dec_prod_lo[16:0]};
        delta       = dec_prod[41:10] >> cfg_dec_gain;
        // delta < Rc (alpha < 1024), so no underflow
        rc_sub      = rc - delta;

        // spec 4.4: min_dec_fac, the share of Rc a decrease keeps: floor(Rc * min(f, 1024) / 1024).
        // The 32x11 product from the same halves of Rc as delta's (about 15 LUTs fewer than one
        // 32x11 product; Rc * f < 2^43, bits 41:10 kept)
        keep_fac  = (cfg_min_dec_fac > 11'd1024) ? 11'd1024 : cfg_min_dec_fac;
        keep_lo   = {11'd0, rc[16:0]} * {17'd0, keep_fac};
        keep_hi   = ({11'd0, rc[31:17]} * {15'd0, keep_fac}) + {15'd0, keep_lo[27:17]};
        keep      = {keep_hi[24:0], keep_lo[16:10]};
        // spec 4.4: the first decrease after reset or a hold sets min(rate_first_cnp, L) if enabled
        if (!active && cfg_rate_first_cnp != 32'd0) begin
            rc_cut = (cfg_rate_first_cnp < L) ? cfg_rate_first_cnp : L;
        end else begin
            rc_cut = (rc_sub > keep) ? rc_sub : keep;
        end

        // spec 4.0/4.4: rmin clamped to L, so Rc never exceeds L even with cfg_rmin > L
        rmin_eff = (cfg_rmin < L) ? cfg_rmin : L;
        rc_dec = (rc_cut > rmin_eff) ? rc_cut : rmin_eff;

        // spec 4.4: stages before this decrease resets them (clamp only after an increase)
        rt_dec = (cfg_clamp_tgt || t_stage != 8'd0 || b_stage != 8'd0) ? rc : rt;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            dec_timer   <= 16'hFFFF;
            dec_pending <= 1'b0;
        end else begin
            dec_timer   <= dec_timer_d;
            dec_pending <= dec_pending_d;
        end
    end

endmodule

`resetall
